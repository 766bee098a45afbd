/**
 * The provider's model list, read while the player types the key (issue 38, part 4): so that
 * the key screen names the model that will play before the key is submitted, instead of a
 * default the account may not have. Read once the typing has stopped for MODEL_LIST_QUIET_MS,
 * on the context's clock; a new key, provider or server typed meanwhile starts the wait again,
 * and aborts a read already sent. The waiting is here, in the home screen's code; the read
 * itself (modelListRead.ts) comes with the HTTP client it reads through.
 */
import { call, race, take, takeLeading } from 'typed-redux-saga';
import { quietFor } from '../../shared/waits';
import { providerSessionActions } from './providerSessionSlice';

/** How long the key must stay as typed before its list is read. */
export const MODEL_LIST_QUIET_MS = 600;

const { keyTyped } = providerSessionActions;
type KeyTyped = ReturnType<typeof keyTyped>;

function* readWhenLoaded(typed: KeyTyped) {
  // No key, nothing to read: the code that reads is not even fetched.
  if (typed.payload.keyFingerprint === '') return;
  const { readTypedKeyModels } = yield* call(
    () => import(/* webpackChunkName: "game-flow" */ './modelListRead'),
  );
  yield* call(readTypedKeyModels, typed.payload);
}

/**
 * The worker, from the first key typed to its list read: waits for the typing to stop, then
 * reads the list for the last key typed; a key typed while the read is under way aborts it
 * and waits again. Ends with the read.
 */
export function* readModelListAsTyped(first: KeyTyped) {
  let typed = first;
  for (;;) {
    typed = yield* quietFor<KeyTyped>(MODEL_LIST_QUIET_MS, keyTyped.type, typed);
    const { later } = yield* race({
      read: call(readWhenLoaded, typed),
      later: take<KeyTyped>(keyTyped.type),
    });
    if (!later) return;
    typed = later;
  }
}

/** The watcher: one worker at a time, which hears every key typed while it runs. */
export function* modelListSaga() {
  yield* takeLeading(keyTyped.type, readModelListAsTyped);
}
