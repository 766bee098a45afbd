import fc from 'fast-check';
import {
  chooseSaveTarget,
  movedOnElsewhere,
  sameStamp,
  type StoredStamp,
} from '../../../src/features/stories/storyRevision';

const WALLET = '0xAbC0000000000000000000000000000000000001';
const SEEN = { revision: 4, lastSaved: '2026-05-01T10:00:00.000Z' };
const stored = (overrides: Partial<StoredStamp> = {}): StoredStamp => ({
  walletAddress: WALLET.toLowerCase(),
  branchOf: null,
  ...SEEN,
  ...overrides,
});

describe('chooseSaveTarget', () => {
  test('a story never saved, or saved as another wallet’s copy, is a new record', () => {
    expect(chooseSaveTarget(null, undefined, WALLET)).toEqual({ kind: 'new' });
    expect(
      chooseSaveTarget({ id: 3, basedOn: SEEN }, stored({ walletAddress: '0xother' }), WALLET),
    ).toEqual({ kind: 'new' });
  });

  test('the record as this tab last saw it is updated at the next revision, keeping its origin', () => {
    expect(chooseSaveTarget({ id: 3, basedOn: SEEN }, stored({ branchOf: 1 }), WALLET)).toEqual({
      kind: 'update',
      id: 3,
      revision: 5,
      branchOf: 1,
    });
  });

  test('a record another tab saved since is not overwritten: this line branches from it', () => {
    const later = stored({ revision: 5, lastSaved: '2026-05-01T10:00:03.000Z' });
    expect(chooseSaveTarget({ id: 3, basedOn: SEEN }, later, WALLET)).toEqual({
      kind: 'branch',
      from: 3,
    });
  });

  test('a record deleted and made again under the same id, at the same revision, is not ours', () => {
    const remade = stored({ lastSaved: '2026-05-01T11:00:00.000Z' });
    expect(chooseSaveTarget({ id: 3, basedOn: SEEN }, remade, WALLET)).toEqual({
      kind: 'branch',
      from: 3,
    });
  });

  test('a save that cannot say what it was based on never overwrites', () => {
    expect(chooseSaveTarget({ id: 3, basedOn: undefined }, stored(), WALLET)).toEqual({
      kind: 'branch',
      from: 3,
    });
  });

  test('a record deleted elsewhere while this tab played is written back under its id', () => {
    expect(chooseSaveTarget({ id: 3, basedOn: SEEN }, undefined, WALLET)).toEqual({
      kind: 'update',
      id: 3,
      revision: 5,
      branchOf: null,
    });
  });

  test('whatever the stamps, only an exact match of the stored stamp overwrites', () => {
    const stamp = fc.record({
      revision: fc.nat({ max: 5 }),
      lastSaved: fc.constantFrom('2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00.001Z'),
    });
    fc.assert(
      fc.property(stamp, stamp, (seen, now) => {
        const target = chooseSaveTarget({ id: 9, basedOn: seen }, stored(now), WALLET);
        expect(target.kind).toBe(sameStamp(seen, now) ? 'update' : 'branch');
      }),
    );
  });
});

test('another tab’s save moves this tab’s story on only if it is this record, at another write', () => {
  const current = { id: 3, ...SEEN };
  expect(movedOnElsewhere(current, { id: 3, revision: 5, lastSaved: 'later' })).toBe(true);
  expect(movedOnElsewhere(current, { id: 3, ...SEEN })).toBe(false);
  expect(movedOnElsewhere(current, { id: 4, revision: 9, lastSaved: 'later' })).toBe(false);
  expect(movedOnElsewhere(null, { id: 3, revision: 5, lastSaved: 'later' })).toBe(false);
});
