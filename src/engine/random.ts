/** Random sources for the game's rules. Rules never call Math.random; they take an Rng. */
import type { Rng } from './types';

/**
 * A deterministic Rng from a 32-bit seed (mulberry32): the same seed always replays the
 * same rolls, so a test or a replayed game can reproduce a whole run.
 */
export function seededRng(seed: number): Rng {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * An Rng that replays the given rolls in order, so a test can steer each rule into the
 * branch it means to check. Running out of rolls is a bug in the test, so it throws.
 */
export function scriptedRng(rolls: readonly number[]): Rng {
  let next = 0;
  return () => {
    const roll = rolls[next];
    if (roll === undefined) {
      throw new Error(
        `scriptedRng ran out of rolls after ${rolls.length} (asked for roll ${next + 1})`,
      );
    }
    next += 1;
    return roll;
  };
}

/** One item chosen uniformly at random. */
export function pickOne<T>(items: readonly T[], rng: Rng): T {
  if (items.length === 0) {
    throw new Error('pickOne needs at least one item to choose from, but got an empty list');
  }
  const index = Math.min(Math.floor(rng() * items.length), items.length - 1);
  return items[index] as T;
}
