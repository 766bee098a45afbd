/**
 * The auto-save wakes on the game's story events only (storyEvents.ts), never on every action:
 * so no other event may change the story, or a save would be missed. Whole flows (the opening,
 * a turn, a conclusion, a streamed turn) and the player's own events are replayed through the
 * game's reducer, and every event that changed the story must be one `isStoryEvent` names.
 */
import type { UnknownAction } from '@reduxjs/toolkit';
import { rootReducer, type RootState } from '../../../src/app/store';
import {
  gameActions,
  isStoryEvent,
  openingGeneration,
  playTurn,
  selectStory,
} from '../../../src/features/game';
import { gameReply } from '../../fixtures/fakeModelServer';
import { PLAYING_GAME, appStateWith, type GameAt } from '../../fixtures/games';
import { SETTINGS, play } from '../../support/gameWorkers';
import { scriptedModel } from '../../support/scriptedModel';

/** The events, from `state` on, that changed the story without being a story event. */
function unnamedChanges(state: RootState, events: readonly UnknownAction[]): string[] {
  const unnamed: string[] = [];
  let before = state;
  for (const event of events) {
    const after = rootReducer(before, event);
    if (selectStory(after) !== selectStory(before) && !isStoryEvent(event))
      unnamed.push(event.type);
    before = after;
  }
  return unnamed;
}

const putsOf = (result: { effects: { put?: { payload: { action: UnknownAction } }[] } }) =>
  (result.effects.put ?? []).map((effect) => effect.payload.action);

async function flowEvents(
  worker: (action: never) => Generator,
  start: UnknownAction,
  game: GameAt,
) {
  const result = await play(worker as (action: UnknownAction) => Generator, start, {
    game,
    model: scriptedModel(gameReply),
  }).run(false);
  return { state: appStateWith(game, SETTINGS), events: [start, ...putsOf(result)] };
}

test('the opening changes the story only by story events', async () => {
  const { state, events } = await flowEvents(
    openingGeneration,
    gameActions.characterNamed('Aria Vale'),
    {
      turn: { phase: 'naming' },
      story: { chosenGenre: 'High Fantasy' },
    },
  );
  expect(events.some(isStoryEvent)).toBe(true);
  expect(unnamedChanges(state, events)).toEqual([]);
});

test('a turn, streamed word by word, changes the story only by story events', async () => {
  const { state, events } = await flowEvents(
    playTurn,
    gameActions.choiceMade({ index: 1 }),
    PLAYING_GAME,
  );
  expect(events.map((event) => event.type)).toContain(gameActions.segmentReceived.type);
  expect(unnamedChanges(state, events)).toEqual([]);
});

test("the player's own events change the story only as story events", () => {
  const state = appStateWith(PLAYING_GAME, SETTINGS);
  const lore = {
    name: 'Orla',
    keywords: ['Orla'],
    text: 'The ferryman’s daughter.',
    always: false,
  };
  const added = gameActions.loreEntryAdded(lore);
  const entry = added.payload;
  const events: UnknownAction[] = [
    added,
    gameActions.loreEntryChanged({ ...entry, always: true }),
    gameActions.loreEntryRemoved({ id: entry.id }),
    gameActions.loreEntryRestored({ entry, index: 0 }),
    gameActions.memoryCorrected({ index: 0, text: 'Corrected.' }),
    gameActions.storyNotePinned('Remember the lamp.'),
    gameActions.paragraphEdited('An edited paragraph, long enough to be kept as it is.'),
    gameActions.rewriteRequested(),
    gameActions.writingStopped(),
    gameActions.returnedHome(),
    gameActions.savedStoryResumed(selectStory(state)),
    gameActions.newGameStarted(),
    gameActions.genreChosen('Sea Legend'),
    gameActions.genreLorebookTaken([entry]),
    gameActions.portraitChosen(3),
    gameActions.apiKeyAccepted('sk-new'),
  ];
  expect(unnamedChanges(state, events)).toEqual([]);
});
