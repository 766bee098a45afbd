import { contextDefaults, withDefaults } from '../../src/app/sagaContext';
import { seededRng } from '../../src/engine/random';
import { systemClock } from '../../src/shared/sagaContext';

describe('the saga context the app composes', () => {
  test("a store made without a part gets the browser's own", () => {
    const context = withDefaults();
    expect(Object.keys(context).sort()).toEqual(Object.keys(contextDefaults()).sort());
    expect(context.clock).toBe(systemClock);
    expect(context.random).toBe(Math.random);
    expect(context.storage).toBeNull();
    expect(context.connectPage).toBeNull();
    expect(context.localNetwork).toBeNull();
    expect(typeof context.model?.complete).toBe('function');
    expect(typeof context.openStoriesDb).toBe('function');
    // The wallet extension is the page's, or a test's: never made up.
    expect(context.walletEnvironment).toBeUndefined();
  });

  test('a part given is kept, and a part given as undefined is the default', () => {
    const random = seededRng(3);
    const storage = { getItem: () => null } as unknown as Storage;
    const context = withDefaults({ random, storage, clock: undefined });
    expect(context.random).toBe(random);
    expect(context.storage).toBe(storage);
    expect(context.clock).toBe(systemClock);
  });
});
