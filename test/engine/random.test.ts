import { pickOne, scriptedRng, seededRng } from '../../src/engine/random';

describe('seededRng', () => {
  it('produces the published mulberry32 sequence for seed 1', () => {
    const rng = seededRng(1);
    expect(rng()).toBe(0.6270739405881613);
    expect(rng()).toBe(0.002735721180215478);
    expect(rng()).toBe(0.5274470399599522);
  });

  it('replays the same rolls for the same seed and different ones for another seed', () => {
    const rolls = (seed: number) => Array.from({ length: 20 }, seededRng(seed));
    expect(rolls(42)).toEqual(rolls(42));
    expect(rolls(42)).not.toEqual(rolls(43));
  });

  it('stays in [0, 1) and spreads evenly', () => {
    const rng = seededRng(7);
    const rolls = Array.from({ length: 10_000 }, rng);
    expect(rolls.every((roll) => roll >= 0 && roll < 1)).toBe(true);
    const mean = rolls.reduce((sum, roll) => sum + roll, 0) / rolls.length;
    expect(mean).toBeCloseTo(0.5, 1);
    const lowerHalf = rolls.filter((roll) => roll < 0.5).length / rolls.length;
    expect(lowerHalf).toBeCloseTo(0.5, 1);
  });
});

describe('scriptedRng', () => {
  it('replays its rolls in order', () => {
    const rng = scriptedRng([0.1, 0.9, 0.5]);
    expect([rng(), rng(), rng()]).toEqual([0.1, 0.9, 0.5]);
  });

  it('throws once its rolls run out', () => {
    const rng = scriptedRng([0.3]);
    rng();
    expect(rng).toThrow('scriptedRng ran out of rolls after 1 (asked for roll 2)');
  });
});

describe('pickOne', () => {
  const items = ['ash', 'birch', 'cedar', 'dogwood'] as const;

  it('maps the roll onto the list evenly', () => {
    expect(pickOne(items, scriptedRng([0]))).toBe('ash');
    expect(pickOne(items, scriptedRng([0.25]))).toBe('birch');
    expect(pickOne(items, scriptedRng([0.74]))).toBe('cedar');
    expect(pickOne(items, scriptedRng([0.75]))).toBe('dogwood');
    expect(pickOne(items, scriptedRng([0.999999]))).toBe('dogwood');
  });

  it('picks the only item of a one-item list', () => {
    expect(pickOne(['alone'], scriptedRng([0.6]))).toBe('alone');
  });

  it('throws a descriptive error on an empty list', () => {
    expect(() => pickOne([], scriptedRng([0.5]))).toThrow(
      'pickOne needs at least one item to choose from, but got an empty list',
    );
  });
});
