/**
 * The failure policy (src/shared/failurePolicy.ts) on its own, with a worker of no feature: a
 * policed worker run with expectSaga to its end. What it returns, what ends quietly, how a
 * failure is told (at once, or by a saga reading the store), what is logged, and that no throw
 * gets out, even from a mapper that breaks.
 */
import type { UnknownAction } from '@reduxjs/toolkit';
import { expectSaga } from 'redux-saga-test-plan';
import { put, select } from 'typed-redux-saga';
import { policed, unexpected } from '../../src/shared/failurePolicy';

const started = { type: 'trip/started' };
const failed = (reason: string) => ({ type: 'trip/failed', payload: reason });
class Stopped extends Error {}

/** A worker that throws `error` (or finishes with 'arrived' when there is none). */
function worker(error?: unknown) {
  return function* travel(_action: UnknownAction) {
    yield* put({ type: 'trip/underWay' });
    if (error !== undefined) throw error;
    return 'arrived';
  };
}

const putsOf = (result: { effects: { put?: unknown[] } }) =>
  (result.effects.put ?? []).map(
    (effect) => (effect as { payload: { action: unknown } }).payload.action,
  );

let logged: jest.SpyInstance;
beforeEach(() => {
  logged = jest.spyOn(console, 'error').mockImplementation(() => undefined);
});
afterEach(() => logged.mockRestore());

test('a worker that ends well returns what it returned, and nothing is told', async () => {
  const result = await expectSaga(
    policed(worker(), () => failed('never')),
    started,
  ).run(false);
  expect(result.returnValue).toBe('arrived');
  expect(putsOf(result)).toEqual([{ type: 'trip/underWay' }]);
  expect(logged).not.toHaveBeenCalled();
});

test('a failure the flow explains is told by its event, and not logged', async () => {
  const result = await expectSaga(
    policed(worker(new Error('the road is closed')), () => failed('roadClosed')),
    started,
  ).run(false);
  expect(putsOf(result)).toEqual([{ type: 'trip/underWay' }, failed('roadClosed')]);
  expect(result.returnValue).toBeUndefined();
  expect(logged).not.toHaveBeenCalled();
});

test('an unexpected one is told too, and logged once with the worker and its action', async () => {
  const error = new TypeError("Cannot read properties of undefined (reading 'map')");
  const result = await expectSaga(
    policed(worker(error), () => unexpected(failed('unexpected'))),
    started,
  ).run(false);
  expect(putsOf(result)).toEqual([{ type: 'trip/underWay' }, failed('unexpected')]);
  expect(logged).toHaveBeenCalledTimes(1);
  expect(logged).toHaveBeenCalledWith('travel (trip/started) failed:', error);
});

test('a mapper may be a saga: it reads the store to say what failed', async () => {
  const result = await expectSaga(
    policed(worker(new Error('lost')), function* toldAs() {
      const where = yield* select((state: { at: string }) => state.at);
      return failed(`lost at ${where}`);
    }),
    started,
  )
    .withState({ at: 'the crossroads' })
    .run(false);
  expect(putsOf(result).at(-1)).toEqual(failed('lost at the crossroads'));
});

test('what the caller says ends quietly (a request the player stopped) tells no one', async () => {
  const result = await expectSaga(
    policed(worker(new Stopped()), () => failed('never'), {
      endsQuietly: (error) => error instanceof Stopped,
    }),
    started,
  ).run(false);
  expect(putsOf(result)).toEqual([{ type: 'trip/underWay' }]);
  expect(logged).not.toHaveBeenCalled();
});

test('a mapper that breaks is logged with the error it was telling, and nothing gets out', async () => {
  const error = new Error('the bridge fell');
  const result = await expectSaga(
    policed(worker(error), () => {
      throw new RangeError('no word for it');
    }),
    started,
  ).run(false);
  expect(result.returnValue).toBeUndefined();
  expect(logged).toHaveBeenCalledWith(
    'travel (trip/started) failed, and so did telling it:',
    error,
    expect.any(RangeError),
  );
});

test('a worker started by no action is named by itself', async () => {
  const result = await expectSaga(
    policed(
      function* restore(_from: string[]) {
        yield* put({ type: 'trip/underWay' });
        throw new Error('nothing kept');
      },
      () => unexpected(failed('restore')),
    ),
    ['stored'],
  ).run(false);
  expect(putsOf(result).at(-1)).toEqual(failed('restore'));
  expect(logged).toHaveBeenCalledWith('restore failed:', expect.any(Error));
});
