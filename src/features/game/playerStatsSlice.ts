import { createSlice, type PayloadAction } from '@reduxjs/toolkit';
import { applyChoiceToStats, playerStatsInRange } from '../../engine/stats';
import {
  INITIAL_PLAYER_STATS,
  INITIAL_SCORE_BREAKDOWN,
  type ScoreBreakdown,
} from '../../engine/types';
import type { PlayerStatsState } from './gameModel';
import { gameActions } from './gameSlice';

export type { PlayerStatsState } from './gameModel';

export const initialPlayerStatsState: PlayerStatsState = {
  playerStats: INITIAL_PLAYER_STATS,
  scoreBreakdown: INITIAL_SCORE_BREAKDOWN,
  finalScore: null,
};

/** SPEC.md section 3: playerStats and scoreBreakdown; they follow the game's events. */
export const playerStatsSlice = createSlice({
  name: 'playerStats',
  initialState: initialPlayerStatsState,
  reducers: {
    scoreComputed(state, action: PayloadAction<{ scoreBreakdown: ScoreBreakdown; score: number }>) {
      state.scoreBreakdown = action.payload.scoreBreakdown;
      state.finalScore = action.payload.score;
    },
  },
  extraReducers: (builder) => {
    builder
      .addCase(gameActions.newGameStarted, () => initialPlayerStatsState)
      .addCase(gameActions.savedStoryResumed, (_state, { payload }) => ({
        // A stored story may have been edited or imported: its stats come back in range.
        playerStats: playerStatsInRange(payload.playerStats),
        scoreBreakdown: payload.scoreBreakdown,
        finalScore: payload.finalScore,
      }))
      .addCase(gameActions.outcomeRolled, (state, { payload }) => {
        // The stats follow the game's own roll, never the model's echo (DESIGN.md).
        state.playerStats = applyChoiceToStats(
          state.playerStats,
          payload.option,
          payload.outcome,
          payload.outcomesSoFar,
        );
      });
  },
  selectors: {
    selectPlayerStats: (stats) => stats,
  },
});

export const { scoreComputed } = playerStatsSlice.actions;
export const { selectPlayerStats } = playerStatsSlice.selectors;
