/**
 * Running one game worker as the game runs it (test/features/game): expectSaga(worker, action)
 * over the real root reducer, the model a scripted client in the saga context, a seeded random
 * source and a virtual clock (a 429's stated wait passes in no wall time). A run ends when its
 * flow does: no server, no timeout.
 */
import type { UnknownAction } from '@reduxjs/toolkit';
import { expectSaga } from 'redux-saga-test-plan';
import { rootReducer, type RootState } from '../../src/app/store';
import { seededRng } from '../../src/engine/random';
import type { GameState, StoryEntry } from '../../src/features/game';
import { gameReply, userPrompt } from '../fixtures/fakeModelServer';
import { appStateWith, type GameAt } from '../fixtures/games';
import type { MemoryStorage } from '../fixtures/testWallet';
import { contextProviders } from './sagaReplay';
import type { ModelScript, ScriptedAnswer, ScriptedModel } from './scriptedModel';
import { virtualClock, type VirtualClock } from './virtualClock';

/** A Custom server's model, so the key check keeps it when the provider lists it. */
export const SETTINGS = {
  provider: 'custom',
  model: 'fake-model',
  baseUrl: 'http://127.0.0.1:9/v1',
};

export interface Play {
  game: GameAt;
  model: ScriptedModel;
  language?: 'en' | 'kr';
  settings?: Partial<RootState['settings']>;
  storage?: MemoryStorage;
  /** The saga context's clock, for a test that reads the time of its waits. */
  clock?: VirtualClock;
}

/** A worker's run from `action`, which the store has reduced before any saga hears it. */
export function play<Action extends UnknownAction>(
  worker: (action: Action) => Generator,
  action: Action,
  { game, model, language = 'en', settings = SETTINGS, storage, clock = virtualClock() }: Play,
) {
  const state = appStateWith(game, { ...settings, language });
  return expectSaga(worker as (action: UnknownAction) => Generator, action)
    .withReducer(rootReducer, rootReducer(state, action))
    .provide(contextProviders({ model, random: seededRng(7), storage: storage ?? null, clock }));
}

/** These answers first, then the game's usual replies. */
export const answering =
  (...first: ScriptedAnswer[]): ModelScript =>
  (body) =>
    first.shift() ?? gameReply(body);

/** The game's replies from a model that leaves the summary out of its story replies. */
export const withoutSummaries: ModelScript = (body) => {
  const reply = gameReply(body);
  if (typeof reply.json !== 'object') return reply;
  const { storySummary: _s, newStorySummary: _n, ...story } = reply.json as Record<string, unknown>;
  // The spec's own summary requests are still answered.
  const isStory = 'storySegment' in story || 'storyStart' in story;
  return isStory ? { ...reply, json: story } : reply;
};

export const putTypes = (result: { effects: { put?: unknown[] } }) =>
  (result.effects.put ?? []).map(
    (effect) => (effect as { payload: { action: UnknownAction } }).payload.action.type,
  );

export const prompts = (model: ScriptedModel) => model.requests.map(userPrompt);
export const paragraphs = (game: GameState) =>
  game.story.storyLog.filter((entry: StoryEntry) => entry.kind === 'paragraph');
