/**
 * Stories the browser keeps (DESIGN.md, "Stories the browser keeps"): the game reads whether the
 * browser has promised to keep its storage, and asks it to with the session's first save, once:
 * Firefox asks the player, so never on every save. The answer is state the saved-stories screen
 * shows.
 */
import { call, put, take } from 'typed-redux-saga';
import { storiesActions } from '../storiesSlice';
import { fromContext } from './sagaContext';

/** The browser's answer, or null where asking failed: then nothing is said. */
function* askBrowser(question: 'persisted' | 'persist') {
  const storage = yield* fromContext('persistentStorage');
  try {
    return yield* call([storage, storage[question]]);
  } catch (error) {
    console.warn(`navigator.storage.${question}() failed`, error);
    return null;
  }
}

/**
 * Reads the browser's promise, then waits for the session's first save and asks for one, unless
 * the browser has promised already or has no way to. It ends there: one question a session. (A
 * save comes 100 ms after a story changed at the soonest; the browser answers sooner.)
 */
export function* keepStories() {
  const known = yield* askBrowser('persisted');
  if (known) yield* put(storiesActions.storagePersistenceRead(known));
  if (known !== 'notPersisted') return;
  yield* take([storiesActions.storySaved, storiesActions.storySavedAsBranch]);
  const answer = yield* askBrowser('persist');
  if (answer) yield* put(storiesActions.storagePersistenceAnswered(answer));
}
