/**
 * What the saved stories' flows share: the part of the store they read, the wallet a story is
 * saved under, and MyStoriesDB, opened once by the root saga and kept (storiesSaga.ts).
 */
import { call } from 'typed-redux-saga';
import type { GameState } from '../../game';
import type { SettingsState } from '../../settings';
import { selectWalletAddress, type WalletState } from '../../wallet';
import { walletOwner } from '../savedStory';
import type { StoriesState } from '../storiesSlice';
import { fromContext } from './sagaContext';

export interface State {
  game: GameState;
  wallet: WalletState;
  stories: StoriesState;
  settings: SettingsState;
}

export const selectState = (state: State) => state;
export const selectOwner = (state: State) => walletOwner(selectWalletAddress(state));

/**
 * MyStoriesDB, from the saga context's 'openStoriesDb': under the root saga, the one it opened
 * once; for a worker run alone, the test's.
 */
export function* storiesDb() {
  const open = yield* fromContext('openStoriesDb');
  return yield* call(open);
}
