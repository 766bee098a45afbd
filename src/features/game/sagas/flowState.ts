/** What the game's flows read of the store: the slices they need, and nothing of the app. */
import type { GameState } from '../gameSlice';

export interface State {
  game: GameState;

  settings: { provider: string; model: string; baseUrl: string; imageModel: string };
  wallet: { status: string; address: string | null };
}

export const selectState = (state: State) => state;
