/**
 * @jest-environment jsdom
 */
// The story log at turn 99: a turn appended, and the narrative streamed before it, render only
// what is new (issue 13, budget 4; issue 21: a streamed update renders the paragraph being
// written and nothing else). Each entry's renders are counted by wrapping the entry component
// the log memoizes; the playing screen's renders by wrapping its character panel, which renders
// each time the screen does.
import { act, screen } from '@testing-library/react';
import { baseApi } from '../../../src/api/baseApi';
import { injectBackendApi, type AppStore } from '../../../src/app/store';
import type { StoryOption } from '../../../src/engine/types';
import { gameActions, type StoryEntry } from '../../../src/features/game/gameSlice';
import { StoryLogEntry } from '../../../src/features/game/views/StoryLogEntry';
import { PlayingView } from '../../../src/features/game/views/PlayingView';
import { CharacterPanel } from '../../../src/features/game/views/CharacterPanel';
import { choiceResolved, gameAt, playingWith } from '../../fixtures/games';
import { renderWithProviders } from '../../support/render';

jest.mock('../../../src/features/game/views/StoryLogEntry', () => {
  const actual = jest.requireActual<{ StoryLogEntry: typeof StoryLogEntry }>(
    '../../../src/features/game/views/StoryLogEntry',
  );
  return { StoryLogEntry: jest.fn(actual.StoryLogEntry) };
});

jest.mock('../../../src/features/game/views/CharacterPanel', () => {
  const actual = jest.requireActual<{ CharacterPanel: typeof CharacterPanel }>(
    '../../../src/features/game/views/CharacterPanel',
  );
  return { CharacterPanel: jest.fn(actual.CharacterPanel) };
});

const entryRenders = jest.mocked(StoryLogEntry);
const screenRenders = jest.mocked(CharacterPanel);
/** The entries rendered since the last look, by their text. */
function renderedSinceLastLook(): string[] {
  const texts = entryRenders.mock.calls.map(([props]) => props.entry.text);
  entryRenders.mockClear();
  return texts;
}

const OPTION: StoryOption = {
  text: 'Climb the bell tower',
  risk: 'high',
  alignment: 'neutral',
  traitAlignment: '',
};
const TURNS = 99;

/** Dispatches as the app does, with React's updates flushed before the next look. */
const dispatch = (action: Parameters<AppStore['dispatch']>[0]) =>
  act(() => void store.dispatch(action));

/** A story at the end of turn 99: the opening, then a choice and a paragraph each turn. */
function storyLogAt(turns: number): StoryEntry[] {
  const log: StoryEntry[] = [{ kind: 'paragraph', text: 'Paragraph 0' }];
  for (let turn = 1; turn <= turns; turn += 1) {
    log.push(
      {
        kind: 'choice',
        text: `Choice ${turn}`,
        outcome: turn > 1 ? 'success' : null,
        freeText: false,
      },
      { kind: 'paragraph', text: `Paragraph ${turn}` },
    );
  }
  return log;
}

let store: AppStore;

beforeEach(() => {
  injectBackendApi(baseApi);
  ({ store } = renderWithProviders(<PlayingView />, {
    route: '/game',
    preloadedState: {
      game: gameAt({
        // No key in the session, as a new game has it: the view needs none.
        apiKey: '',
        ...playingWith({
          storyLog: storyLogAt(TURNS),
          previousParagraph: `Paragraph ${TURNS}`,
          options: [OPTION],
          turnCount: TURNS,
        }),
      }),
    },
  }));
});

afterEach(() => store.stop());

test('the first render renders every entry once', () => {
  expect(renderedSinceLastLook()).toHaveLength(1 + 2 * TURNS);
});

test('appending a turn renders only its choice, then only its paragraph; streaming renders none', () => {
  renderedSinceLastLook();

  choiceResolved({
    turn: 2,
    option: OPTION,
    freeText: false,
    outcome: 'failure',
    scenarioType: 'standard',
    outcomesSoFar: ['failure'],
  }).forEach(dispatch);
  expect(renderedSinceLastLook()).toEqual([OPTION.text]);

  const log = screen.getByRole('log', { name: 'The story so far' });
  // The screen renders once as the paragraph starts (the loading dots rest while it is written),
  // and never for the updates after it.
  screenRenders.mockClear();
  expect(document.querySelector('.loading-overlay:not(.loading-overlay--writing)')).not.toBeNull();
  dispatch(gameActions.segmentStreamed('The bell'));
  expect(screenRenders).toHaveBeenCalledTimes(1);
  expect(document.querySelector('.loading-overlay--writing')).not.toBeNull();
  screenRenders.mockClear();
  for (const text of ['The bell tower sways', 'The bell tower sways in the wind']) {
    dispatch(gameActions.segmentStreamed(text));
    expect(log.lastElementChild?.textContent).toBe(text);
  }
  expect(renderedSinceLastLook()).toEqual([]);
  expect(screenRenders).not.toHaveBeenCalled();

  dispatch(gameActions.segmentReceived({ text: 'Paragraph 100', isFinal: false }));
  expect(renderedSinceLastLook()).toEqual(['Paragraph 100']);
  dispatch(gameActions.optionsOffered([OPTION]));
  expect(renderedSinceLastLook()).toEqual([]);
  dispatch(gameActions.summaryStored('The tower swayed.'));
  expect(renderedSinceLastLook()).toEqual([]);

  // What the player sees: the whole story, the new turn last, and the options again.
  const written = log.querySelector('.story-log__written')!;
  expect(written.children).toHaveLength(1 + 2 * (TURNS + 1));
  expect(written.lastElementChild?.textContent).toBe('Paragraph 100');
  expect(log.lastElementChild).toBe(written);
  expect(screen.getByRole('button', { name: /Climb the bell tower/ })).toBeTruthy();
});
