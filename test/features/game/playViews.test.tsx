/**
 * @jest-environment jsdom
 */
import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ReactElement } from 'react';
import { baseApi } from '../../../src/api/baseApi';
import { injectBackendApi, makeStore, type AppStore } from '../../../src/app/store';
import { endingScore } from '../../../src/engine/score';
import type { Language, StoryOption } from '../../../src/engine/types';
import type { SheetEntry, SheetKind } from '../../../src/engine/storySheet';
import {
  gameActions,
  type ResolvedChoice,
  type Story,
  type Turn,
  type Writing,
} from '../../../src/features/game/gameSlice';
import { selectGameStage } from '../../../src/features/game/turn/gameSelectors';
import { initialStory } from '../../../src/features/game/turn/turnRules';
import {
  NO_COST,
  type GameResult,
  type StoryCost,
  type TokenTally,
} from '../../../src/features/game';
import {
  baseUrlOf,
  modelOf,
  providerById,
  providerSessionActions,
} from '../../../src/features/llm';
import { EndingView } from '../../../src/features/game/views/EndingView';
import { PlayingView } from '../../../src/features/game/views/PlayingView';
import { SaveResultButton } from '../../../src/features/leaderboard';
import { choiceResolved, gameAt } from '../../fixtures/games';
import { problem } from '../../fixtures/problems';
import { renderWithProviders } from '../../support/render';

const OPTIONS: StoryOption[] = [
  { text: 'Climb the bell tower', risk: 'high', alignment: 'neutral', traitAlignment: 'Reckless' },
  { text: 'Warn the villagers', risk: 'low', alignment: 'moral', traitAlignment: '' },
  { text: 'Rob the chapel', risk: 'medium', alignment: 'immoral', traitAlignment: '' },
];

const PLAYING: Story = {
  ...initialStory,
  chosenGenre: 'Gothic mystery',
  chosenImage: 7,
  chosenCharacter: 'Ada Quill',
  characterBio: 'A cartographer who maps places that do not want to be found.',
  characterTraits: ['Curious', 'Reckless', 'Kind', 'Stubborn', 'Witty'],
  storyLog: [
    { kind: 'paragraph', text: 'The fog rolled over Wexham.' },
    { kind: 'choice', text: 'Follow the lantern', outcome: null, freeText: false },
    { kind: 'paragraph', text: 'The lantern led to a chapel.' },
    { kind: 'choice', text: 'Open the door', outcome: 'partial', freeText: false },
    { kind: 'paragraph', text: 'The bells began to ring.' },
  ],
  previousParagraph: 'The bells began to ring.',
  options: OPTIONS,
  turnCount: 2,
};

/** A segment (or the ending) being written: nothing of it in yet, unless `changes` says. */
const writing = (
  changes: Partial<Writing> = {},
  phase: 'writing' | 'concluding' = 'writing',
): Turn => ({
  phase,
  streamed: '',
  thinking: false,
  wait: null,
  ...changes,
});

/** The game on screen: its phase (the player choosing, unless told) and the story's changes. */
interface Scene {
  turn?: Turn;
  story?: Partial<Story>;
}

let store: AppStore;

function renderWith(
  ui: ReactElement,
  { turn = { phase: 'choosing' }, story = {} }: Scene,
  { language = 'en' }: { language?: Language } = {},
) {
  injectBackendApi(baseApi);
  store = makeStore({
    preloadedState: { game: gameAt({ turn, story: { ...PLAYING, ...story } }) },
  });
  // The view's part ends at choiceMade: it is recorded but not passed on, so the turn saga
  // (tested on its own) does not start a turn against a model client that is not there.
  const passOn = store.dispatch;
  const dispatch = jest
    .spyOn(store, 'dispatch')
    .mockImplementation((action) =>
      gameActions.choiceMade.match(action) ? action : passOn(action),
    );
  renderWithProviders(ui, { store, language, route: '/game' });
  return { dispatch };
}

afterEach(() => {
  store.stop();
  jest.restoreAllMocks();
});

describe('PlayingView', () => {
  test('shows the header, and a log of paragraphs and marked choices with badges where rolled', () => {
    renderWith(<PlayingView />, {});
    expect(screen.getByText('Genre: Gothic mystery')).toBeTruthy();
    expect(screen.getByText('Turns: 2')).toBeTruthy();

    const log = screen.getByRole('log', { name: 'The story so far' });
    // The finished entries, in their own box (play.css: nothing outside it lays them out).
    expect(Array.from(log.children, (child) => child.className)).toEqual(['story-log__written']);
    const lines = Array.from(log.firstElementChild!.children);
    expect(lines.map((line) => line.className)).toEqual([
      'story-paragraph',
      'story-choice',
      'story-paragraph',
      'story-choice',
      'story-paragraph',
    ]);
    expect(lines[1]!.textContent).toBe('➤You chose: Follow the lantern');
    expect(within(lines[1] as HTMLElement).queryByText(/SUCCESS|PARTIAL|FAILURE/)).toBeNull();
    expect(lines[3]!.textContent).toContain('➤');
    expect(within(lines[3] as HTMLElement).getByText('PARTIAL')).toBeTruthy();
  });

  test('options show their number and tags, and come under the latest paragraph', () => {
    renderWith(<PlayingView />, {});
    const list = within(screen.getByRole('region', { name: 'What do you do?' })).getByRole('list');
    const buttons = within(list).getAllByRole('button');
    expect(buttons).toHaveLength(3);
    const tagsOf = (button: HTMLElement) =>
      Array.from(button.querySelectorAll('.story-tag')).map((tag) => tag.textContent);
    expect(buttons.map((button) => button.querySelector('.option__number')!.textContent)).toEqual([
      '1',
      '2',
      '3',
    ]);
    // Each tag has its word, and an icon (or a gauge) beside it.
    expect(tagsOf(buttons[0]!)).toEqual(['High risk', '⚖Neutral', '✧Trait: Reckless']);
    expect(tagsOf(buttons[1]!)).toEqual(['Low risk', '☀Moral']);
    expect(tagsOf(buttons[2]!)).toEqual(['Medium risk', '☾Immoral']);
    expect(buttons[0]!.querySelectorAll('.risk-gauge__bar.is-filled')).toHaveLength(3);
    expect(buttons[1]!.querySelectorAll('.risk-gauge__bar.is-filled')).toHaveLength(1);
    expect(buttons[1]).toBe(
      screen.getByRole('button', { name: 'Warn the villagers Low risk Moral' }),
    );
    expect(buttons[1]!.getAttribute('aria-keyshortcuts')).toBe('2');

    const lastParagraph = screen.getByText('The bells began to ring.');
    expect(
      lastParagraph.compareDocumentPosition(list) & Node.DOCUMENT_POSITION_FOLLOWING,
    ).toBeTruthy();
  });

  test.each<[string, Scene]>([
    ['loading', { turn: writing() }],
    ['final', { turn: writing({}, 'concluding'), story: { isFinal: true } }],
  ])('no options while %s', (_name, game) => {
    renderWith(<PlayingView />, game);
    expect(screen.queryByText('Climb the bell tower')).toBeNull();
    expect(screen.getByRole('status').textContent).toContain('Loading');
  });

  test('clicking an option and pressing its number both make the choice', async () => {
    const { dispatch } = renderWith(<PlayingView />, {});
    await userEvent.click(screen.getByRole('button', { name: /Rob the chapel/ }));
    expect(dispatch).toHaveBeenCalledWith(gameActions.choiceMade({ index: 2 }));

    fireEvent.keyDown(document.body, { key: '2' });
    expect(dispatch).toHaveBeenCalledWith(gameActions.choiceMade({ index: 1 }));
    fireEvent.keyDown(document.body, { key: '4' });
    expect(dispatch).not.toHaveBeenCalledWith(gameActions.choiceMade({ index: 3 }));
  });

  test('the free-text choice is sent with Enter, and a blank one is not', async () => {
    const { dispatch } = renderWith(<PlayingView />, {});
    const input = screen.getByLabelText('Enter your choice');
    await userEvent.type(input, '   {Enter}');
    // Typing a number in the field writes it; it does not pick an option.
    await userEvent.type(input, '1 sneak past the 2 guards{Enter}');
    const choices = dispatch.mock.calls
      .map(([action]) => action)
      .filter(gameActions.choiceMade.match);
    expect(choices).toEqual([gameActions.choiceMade({ text: '1 sneak past the 2 guards' })]);
    expect((input as HTMLInputElement).value).toBe('');
  });

  test('model text is shown as text, never as HTML', () => {
    const text = 'A note: <img src=x onerror=alert(1)> <b>bold</b>';
    renderWith(<PlayingView />, {
      story: {
        storyLog: [{ kind: 'paragraph', text }],
        options: [{ ...OPTIONS[0]!, text: '<img src=y>' }],
      },
    });
    expect(screen.getByText(text)).toBeTruthy();
    expect(screen.getByRole('button', { name: /<img src=y>/ })).toBeTruthy();
    expect(document.querySelector('img[src="x"], img[src="y"], b')).toBeNull();
  });

  test('the paragraph being streamed is shown below the log', () => {
    renderWith(<PlayingView />, { turn: writing({ streamed: 'The bell rope snapped' }) });
    const words = screen.getByText('The bell rope snapped');
    expect(words.closest('p')?.className).toContain('story-paragraph--writing');
    // Later words reach it from the store as they are dispatched.
    act(() => {
      store.dispatch(gameActions.segmentStreamed('The bell rope snapped in two'));
    });
    expect(words.textContent).toBe('The bell rope snapped in two');
  });

  test('a reasoning model thinking shows a quiet note until its words arrive (Korean too)', () => {
    const thinking: Scene = { turn: writing({ thinking: true }), story: { options: [] } };
    renderWith(<PlayingView />, thinking);
    expect(screen.getByRole('status').textContent).toContain('The storyteller is thinking…');
    act(() => {
      store.dispatch(gameActions.segmentStreamed('The bell rope'));
    });
    expect(screen.getByRole('status').textContent).not.toContain('thinking');
    cleanup();
    renderWith(<PlayingView />, thinking, { language: 'kr' });
    expect(screen.getByRole('status').textContent).toContain('이야기꾼이 생각하는 중입니다…');
  });

  test('a failed turn says so, with its cause and Try again', async () => {
    const { dispatch } = renderWith(<PlayingView />, {
      turn: {
        phase: 'failed',
        problem: problem({ status: 500, providerMessage: 'upstream exploded' }),
      },
      story: {
        options: [],
        lastChoice: {
          turn: 2,
          option: OPTIONS[0]!,
          freeText: false,
          outcome: 'success',
          scenarioType: 'standard',
          outcomesSoFar: ['success'],
        },
      },
    });
    const alert = screen.getByRole('alert');
    expect(alert.textContent).toContain('Failed to fetch story data, please try again.');
    expect(alert.textContent).toContain('Groq could not write this part (error 500).');
    expect(alert.textContent).toContain('Groq said: upstream exploded');
    // A new choice would be thrown away: it waits, with its words kept, for Try again.
    const field = screen.getByRole<HTMLInputElement>('textbox', { name: 'Enter your choice' });
    await userEvent.type(field, 'I shout for the ferryman{Enter}');
    expect(field.value).toBe('I shout for the ferryman');
    expect(screen.getByRole<HTMLButtonElement>('button', { name: 'Submit' }).disabled).toBe(true);
    expect(dispatch).not.toHaveBeenCalledWith(
      gameActions.choiceMade({ text: 'I shout for the ferryman' }),
    );
    await userEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(dispatch).toHaveBeenCalledWith(gameActions.turnRetryRequested());
  });

  test('a daily cap says when it resets and goes on with another model', async () => {
    const choice = {
      turn: 3,
      option: OPTIONS[0]!,
      freeText: false,
      outcome: 'success' as const,
      scenarioType: 'standard' as const,
      outcomesSoFar: ['success' as const],
    };
    const { dispatch } = renderWith(<PlayingView />, {
      turn: {
        phase: 'failed',
        problem: problem({
          reason: 'dailyLimit',
          status: 429,
          limitMetric: 'tokens',
          resetsAt: Date.now() + 2 * 3600_000 + 60_000,
          providerMessage: 'Rate limit reached ... tokens per day (TPD)',
        }),
      },
      story: { options: [], lastChoice: choice },
    });
    const alert = screen.getByRole('alert');
    expect(alert.textContent).toContain(
      "Groq's daily limit for openai/gpt-oss-120b is reached (tokens per day).",
    );
    // The offer's code comes when it is first made (LimitOffer.tsx).
    expect(await screen.findByText(/^It resets in 2 hours \(at /)).toBeTruthy();
    const models = screen.getByRole<HTMLSelectElement>('combobox', { name: 'Another model' });
    const offered = Array.from(models.options).map((option) => option.value);
    expect(offered).not.toContain('openai/gpt-oss-120b');
    expect(offered).toContain('openai/gpt-oss-20b');
    expect(screen.getByRole('button', { name: 'Use another provider or key' })).toBeTruthy();
    await userEvent.selectOptions(models, 'qwen/qwen3.6-27b');
    await userEvent.click(screen.getByRole('button', { name: 'Continue with this model' }));
    expect(store.getState().settings).toMatchObject({
      provider: 'groq',
      model: 'qwen/qwen3.6-27b',
    });
    expect(dispatch).toHaveBeenCalledWith(gameActions.turnRetryRequested());
  });

  test('a reply cut off twice says so, with Try again and another model (Korean too)', async () => {
    const cutOff: Scene = {
      turn: { phase: 'failed', problem: problem({ reason: 'replyCutOff' }) },
      story: { options: [] },
    };
    const { dispatch } = renderWith(<PlayingView />, cutOff);
    expect(screen.getByRole('alert').textContent).toContain(
      "Groq's reply from openai/gpt-oss-120b was cut off before it ended, even with more room, so nothing was added to the story.",
    );
    expect(await screen.findByRole('combobox', { name: 'Another model' })).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(dispatch).toHaveBeenCalledWith(gameActions.turnRetryRequested());
    cleanup();
    renderWith(<PlayingView />, cutOff, { language: 'kr' });
    expect(screen.getByRole('alert').textContent).toContain('끝나기 전에 잘려');
  });

  test('a key without credit offers another provider, not another model', async () => {
    renderWith(<PlayingView />, {
      turn: { phase: 'failed', problem: problem({ reason: 'noCredit', status: 429 }) },
      story: { options: [] },
    });
    expect(screen.getByRole('alert').textContent).toContain(
      'Your Groq key has no credit left for openai/gpt-oss-120b.',
    );
    expect(await screen.findByRole('button', { name: 'Use another provider or key' })).toBeTruthy();
    expect(screen.queryByRole('combobox', { name: 'Another model' })).toBeNull();
  });

  test('a rate-limit wait counts down and can be cancelled', async () => {
    const { dispatch } = renderWith(<PlayingView />, {
      turn: writing({ wait: { reason: 'rateLimited', attempt: 2, retryAt: Date.now() + 4500 } }),
      story: { options: [] },
    });
    // The provider and model it is about (the store's settings: Groq's default).
    // What the wait says comes with its own code, the first time one is shown.
    await waitFor(() =>
      expect(screen.getByRole('status').textContent).toMatch(
        /Groq's per-minute limit for openai\/gpt-oss-120b is reached\. Trying again in 5 s…/,
      ),
    );
    await userEvent.click(screen.getByRole('button', { name: 'Stop' }));
    expect(dispatch).toHaveBeenCalledWith(gameActions.waitCancelled());
    expect(screen.queryByText(/Trying again/)).toBeNull();
  });

  test('past the quick retries, an unreadable reply waits visibly and offers the way out', async () => {
    const { dispatch } = renderWith(<PlayingView />, {
      turn: writing({
        wait: { reason: 'unreadableReply', attempt: 5, retryAt: Date.now() + 3500 },
      }),
      story: { options: [] },
    });
    expect(screen.getByRole('status').textContent).toMatch(
      /The story came back garbled 5 times\. Asking again in 4 s\. You can stop here and choose another model\./,
    );
    await userEvent.click(screen.getByRole('button', { name: 'Stop' }));
    expect(dispatch).toHaveBeenCalledWith(gameActions.waitCancelled());
  });

  test('a reply cut off is asked again with more room, and the player is told', () => {
    renderWith(<PlayingView />, {
      turn: writing({ wait: { reason: 'cutOff', attempt: 1, retryAt: null } }),
      story: { options: [] },
    });
    expect(screen.getByRole('status').textContent).toContain(
      "openai/gpt-oss-120b's reply was cut off by its length limit. Asking again with more room…",
    );
  });

  test('the character panel shows the portrait and name, and details on demand', async () => {
    renderWith(<PlayingView />, {});
    const panel = screen.getByRole('complementary', { name: 'Ada Quill' });
    expect(
      within(panel).getByRole('img', { name: 'Portrait of Ada Quill' }).getAttribute('src'),
    ).toBe('/characters/7.png');
    expect(within(panel).queryByRole('heading', { name: 'Character Bio' })).toBeNull();

    await userEvent.click(within(panel).getByRole('button', { name: 'Show Details' }));
    expect(within(panel).getByRole('heading', { name: 'Traits' })).toBeTruthy();
    expect(
      within(panel)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual(PLAYING.characterTraits);
    expect(within(panel).getByText(PLAYING.characterBio)).toBeTruthy();

    expect(within(panel).getByRole('heading', { name: 'Character Bio' })).toBeTruthy();

    await userEvent.click(within(panel).getByRole('button', { name: 'Hide Details' }));
    expect(within(panel).queryByRole('heading', { name: 'Traits' })).toBeNull();
    expect(within(panel).getByRole('button', { name: 'Show Details' })).toBeTruthy();
  });

  test('after a turn, focus moves from the chosen option to the first new one', async () => {
    renderWith(<PlayingView />, {});
    await userEvent.click(screen.getByRole('button', { name: /Rob the chapel/ }));
    act(() => {
      choiceResolved({
        turn: 2,
        option: OPTIONS[2]!,
        freeText: false,
        outcome: 'failure',
        scenarioType: 'standard',
        outcomesSoFar: ['failure'],
      }).forEach((action) => store.dispatch(action));
    });
    expect(screen.queryByRole('button', { name: /Rob the chapel/ })).toBeNull();
    expect(screen.getByText('Rob the chapel').closest('.story-choice')!.textContent).toContain(
      'FAILURE',
    );

    act(() => {
      store.dispatch(gameActions.segmentReceived({ text: 'The chapel burned.', isFinal: false }));
      store.dispatch(gameActions.optionsOffered(OPTIONS));
    });
    // The options show with the segment; its summary is written behind them.
    expect(store.getState().game.summary).toBe('pending');
    expect(screen.getByText('Turns: 3')).toBeTruthy();
    expect(document.activeElement).toBe(
      screen.getByRole('button', { name: /Climb the bell tower/ }),
    );
  });

  test('the header holds the save control it is given, and none without one', () => {
    renderWith(<PlayingView />, {});
    expect(document.querySelector('.play-header button')).toBeNull();
    cleanup();
    renderWith(<PlayingView saveGame={<button type="button">Keep</button>} />, {});
    expect(document.querySelector('.play-header button')?.textContent).toBe('Keep');
  });

  test('in Korean the badges, tags and labels are Korean', () => {
    renderWith(
      <PlayingView />,
      {
        story: {
          storyLog: [
            ...PLAYING.storyLog,
            { kind: 'choice', text: '종을 울린다', outcome: 'success', freeText: false },
            { kind: 'paragraph', text: '종소리가 울려 퍼졌다.' },
            { kind: 'choice', text: '도망친다', outcome: 'failure', freeText: false },
            { kind: 'paragraph', text: '길이 막혔다.' },
          ],
        },
      },
      { language: 'kr' },
    );
    expect(screen.getByText('장르: Gothic mystery')).toBeTruthy();
    expect(screen.getByText('성공')).toBeTruthy();
    expect(screen.getByText('부분 성공')).toBeTruthy();
    expect(screen.getByText('실패')).toBeTruthy();
    expect(screen.getByText('높은 위험')).toBeTruthy();
    expect(screen.getByText('도덕적')).toBeTruthy();
    expect(screen.getByText('특성: Reckless')).toBeTruthy();
    expect(screen.getByLabelText('선택을 입력하세요')).toBeTruthy();
    expect(screen.getByRole('button', { name: '세부 정보 보기' })).toBeTruthy();
  });
});

describe("PlayingView: the player's hand on the story", () => {
  const TURN_TWO: ResolvedChoice = {
    turn: 2,
    option: { text: 'Open the door', risk: 'medium', alignment: 'neutral', traitAlignment: '' },
    freeText: true,
    outcome: 'partial',
    scenarioType: 'standard',
    outcomesSoFar: ['success', 'partial'],
  };
  const typed = PLAYING.storyLog.map((entry, index) =>
    index === 3 ? { ...entry, freeText: true } : entry,
  );

  test('Write it again shows the rewrites left this turn', async () => {
    const user = userEvent.setup();
    const { dispatch } = renderWith(<PlayingView />, {
      story: { lastChoice: TURN_TWO, storyLog: typed, turnRewrites: 1 },
    });
    await user.click(screen.getByRole('button', { name: 'Write it again (2 left)' }));
    expect(dispatch).toHaveBeenCalledWith(gameActions.rewriteRequested());
  });

  test('an edited paragraph is saved with Ctrl+Enter, marked, and focus returns to Edit', async () => {
    const user = userEvent.setup();
    renderWith(<PlayingView />, { story: { lastChoice: TURN_TWO, storyLog: typed } });
    const edit = screen.getByRole('button', { name: 'Edit paragraph' });
    await user.click(edit);
    // The editor's code comes with the first Edit (TurnTools.tsx).
    const field = await screen.findByRole('textbox', { name: /Edit the latest paragraph/ });
    expect(field).toHaveProperty('value', 'The bells began to ring.');
    await user.keyboard('{Escape}');
    expect(store.getState().game.story.storyLog.at(-1)).toEqual(PLAYING.storyLog.at(-1));

    await user.click(screen.getByRole('button', { name: 'Edit paragraph' }));
    const again = screen.getByRole('textbox', { name: /Edit the latest paragraph/ });
    await user.clear(again);
    await user.type(again, 'The bells fell silent.{Control>}{Enter}{/Control}');
    expect(store.getState().game.story.storyLog.at(-1)).toEqual({
      kind: 'paragraph',
      text: 'The bells fell silent.',
      edited: true,
    });
    const log = screen.getByRole('log', { name: 'The story so far' });
    expect(within(log).getByText('edited')).toBeTruthy();
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Edit paragraph' }));
  });

  test('a typed action can be edited; an offered option cannot', async () => {
    const user = userEvent.setup();
    renderWith(<PlayingView />, { story: { lastChoice: TURN_TWO, storyLog: typed } });
    await user.click(screen.getByRole('button', { name: 'Edit your action' }));
    const field = screen.getByRole('textbox', { name: 'Edit what you did' });
    await user.clear(field);
    await user.type(field, 'Kick the door open');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(store.getState().game.story.lastChoice?.option.text).toBe('Kick the door open');
    cleanup();
    renderWith(<PlayingView />, { story: { lastChoice: { ...TURN_TWO, freeText: false } } });
    expect(screen.queryByRole('button', { name: 'Edit your action' })).toBeNull();
  });

  test('Stop shows while a turn is written; a stopped turn offers only Write it again', async () => {
    const user = userEvent.setup();
    const unwritten = { lastChoice: TURN_TWO, storyLog: typed.slice(0, 4) };
    renderWith(<PlayingView />, { turn: writing(), story: unwritten });
    await user.click(screen.getByRole('button', { name: 'Stop' }));
    // Stopped, and nothing is being written any more.
    expect(store.getState().game.turn).toEqual({ phase: 'stopped' });
    expect(screen.getByText(/You stopped this paragraph/)).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Write it again (3 left)' })).toBeTruthy();
    expect(screen.queryByRole('region', { name: 'What do you do?' })).toBeNull();
    expect(screen.getByRole('button', { name: 'Submit' })).toHaveProperty('disabled', true);
    cleanup();
    renderWith(<PlayingView />, { turn: writing(), story: { ...unwritten, turnRewrites: 3 } });
    expect(screen.queryByRole('button', { name: 'Stop' })).toBeNull();
  });

  test('Story so far lists what the model is told, marks the shortened, and takes corrections and a note', async () => {
    const user = userEvent.setup();
    const summaries = Array.from(
      { length: 12 },
      (_, turn) => `Turn ${turn} happened. Then a long aside that only matters a little later on.`,
    );
    renderWith(<PlayingView />, { story: { storySummary: summaries } });
    // Closed, the panel has nothing in it: its code comes, and its context is worked out, on opening.
    expect(screen.queryByText(/What the storyteller is told/)).toBeNull();
    await user.click(screen.getByText('Story so far'));
    expect((await screen.findAllByText('shortened')).length).toBeGreaterThan(0);
    await user.click(screen.getByRole('button', { name: 'Correct entry 12' }));
    const field = screen.getByRole('textbox', { name: 'Correct this memory' });
    expect(field).toHaveProperty('value', summaries[11]);
    await user.clear(field);
    await user.type(field, 'Ada rang the bells herself.');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(store.getState().game.story.storySummary[11]).toBe('Ada rang the bells herself.');
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Correct entry 12' }));

    const note = screen.getByRole('textbox', { name: /Pinned note/ });
    expect(note).toHaveProperty('maxLength', 500);
    await user.type(note, 'The chapel is haunted.');
    await user.click(screen.getByRole('button', { name: 'Pin note' }));
    expect(store.getState().game.story.storyNote).toBe('The chapel is haunted.');
    expect(screen.getByText('Pinned')).toBeTruthy();

    // A note still being written survives closing the panel, and is pinned only when asked.
    await user.type(note, ' Mind the bells.');
    await user.click(screen.getByText('Story so far'));
    await waitFor(() => expect(screen.queryByRole('textbox', { name: /Pinned note/ })).toBeNull());
    await user.click(screen.getByText('Story so far'));
    const reopened = await screen.findByRole('textbox', { name: /Pinned note/ });
    expect(reopened).toHaveProperty('value', 'The chapel is haunted. Mind the bells.');
    expect(store.getState().game.story.storyNote).toBe('The chapel is haunted.');
    await user.click(screen.getByRole('button', { name: 'Pin note' }));
    expect(store.getState().game.story.storyNote).toBe('The chapel is haunted. Mind the bells.');
  });
});

test('Story so far says which lorebook entries the next turn is told', async () => {
  const user = userEvent.setup();
  const entry = (id: string, name: string, keywords: string[], always = false) => ({
    id,
    name,
    keywords,
    text: `${name} matters.`,
    always,
  });
  renderWith(<PlayingView />, {
    story: {
      lorebook: [entry('a', 'Two moons', ['moons'], true), entry('b', 'Salt guild', ['salt'])],
    },
  });
  await user.click(screen.getByText('Story so far'));
  expect(await screen.findByText('Lorebook entries told next turn: Two moons.')).toBeTruthy();
});

describe('Story sheet', () => {
  const entry = (kind: SheetKind, name: string, note: string, more: Partial<SheetEntry> = {}) => ({
    kind,
    name,
    note,
    closed: false,
    changedIn: 1,
    playerIn: null,
    ...more,
  });
  const SHEET = [
    entry('item', 'Brass key', 'opens the vault'),
    entry('person', 'Mara', 'dead: drowned at the crossing'),
    entry('thread', 'The letter', 'who sent it?', { closed: true }),
    entry('person', '<b>Oren</b>', 'a ferryman <script>alert(1)</script>'),
  ];

  test('groups the sheet by kind, marks the dead, and takes the player’s corrections', async () => {
    const user = userEvent.setup();
    renderWith(<PlayingView />, { story: { storySheet: { entries: SHEET, beforeLatest: [] } } });
    expect(screen.queryByText('Brass key')).toBeNull();
    await user.click(screen.getByText('Story sheet'));
    const people = await screen.findByRole('heading', { name: 'People' });
    const groups = screen.getAllByRole('heading', { level: 3 }).map((h) => h.textContent);
    expect(groups).toEqual(['People', 'Items', 'Closed threads', 'Add an entry']);
    const peopleList = within(people.parentElement!).getByRole('list');
    expect(within(peopleList).getByText('dead')).toBeTruthy();
    // The model's words are text, never markup.
    expect(within(peopleList).getByText('<b>Oren</b>')).toBeTruthy();
    expect(document.querySelector('.story-sheet script, .story-sheet b')).toBeNull();

    await user.click(screen.getByRole('button', { name: 'Correct Brass key' }));
    const field = screen.getByRole('textbox', {
      name: 'What the storyteller should know of Brass key',
    });
    await user.clear(field);
    await user.type(field, 'opens the vault and the crypt');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    const key = store.getState().game.story.storySheet.entries.find((e) => e.name === 'Brass key');
    const turn = store.getState().game.story.turnCount;
    expect(key).toMatchObject({ note: 'opens the vault and the crypt', playerIn: turn });
    expect(screen.getByText('yours')).toBeTruthy();

    await user.click(screen.getByRole('button', { name: 'Remove Mara' }));
    expect(store.getState().game.story.storySheet.entries.map((e) => e.name)).not.toContain('Mara');
    expect(screen.getByText(/Mara removed\./)).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Undo' }));
    expect(store.getState().game.story.storySheet.entries.map((e) => e.name)).toContain('Mara');
  });

  test('adds the player’s own entry, and asks for its name first', async () => {
    const user = userEvent.setup();
    renderWith(<PlayingView />, {});
    await user.click(screen.getByText('Story sheet'));
    expect(await screen.findByText(/Nothing yet/)).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Add to the sheet' }));
    expect(screen.getByRole('alert').textContent).toBe('Give the entry a name.');
    expect(store.getState().game.story.storySheet.entries).toEqual([]);
    await user.selectOptions(screen.getByRole('combobox', { name: 'Kind' }), 'place');
    await user.type(screen.getByRole('textbox', { name: 'Name' }), 'Old chapel');
    await user.type(screen.getByRole('textbox', { name: 'Note' }), 'the bells are under it');
    await user.click(screen.getByRole('button', { name: 'Add to the sheet' }));
    const turn = store.getState().game.story.turnCount;
    expect(store.getState().game.story.storySheet.entries).toEqual([
      entry('place', 'Old chapel', 'the bells are under it', { changedIn: turn, playerIn: turn }),
    ]);
    expect(screen.getByRole('heading', { name: 'Places' })).toBeTruthy();
  });

  test('in Korean', async () => {
    const user = userEvent.setup();
    renderWith(
      <PlayingView />,
      { story: { storySheet: { entries: SHEET.slice(0, 2), beforeLatest: [] } } },
      { language: 'kr' },
    );
    await user.click(screen.getByText('이야기 시트'));
    expect(await screen.findByRole('heading', { name: '인물' })).toBeTruthy();
    expect(screen.getByText('사망')).toBeTruthy();
    expect(screen.getByRole('button', { name: '시트에 더하기' })).toBeTruthy();
  });
});

describe('EndingView', () => {
  const RECAP = {
    wrapUpParagraph: 'Wexham slept soundly for the first time in a century.',
    bigMoment: 'Ringing the bell with the chapel on fire',
    frequentActivity: 'Talking her way out of trouble',
    characterTraitHighlight: 'Reckless curiosity',
    themeExploration: 'Bells of the Drowned Town',
    overallScore: 88,
    endingType: 'Heroic Victory',
  };
  const STATS = {
    playerStats: {
      moralScore: 30,
      riskScore: 45,
      traitConsistency: 60,
      creativity: 16,
      successRate: 75,
    },
    scoreBreakdown: { decisions: 80, consistency: 70, creativity: 60, morality: 90 },
    finalScore: 353,
  };
  const ENDED_STORY: Partial<Story> = {
    options: [],
    isFinal: true,
    turnCount: 9,
    recap: RECAP,
    moralChoices: ['moral', 'neutral'],
    outcomes: ['success', 'failure', 'success', 'partial', 'success'],
    // The stats and the score are the story's own.
    ...STATS,
  };
  const ENDED: Scene = { turn: { phase: 'ended' }, story: ENDED_STORY };

  test('shows the whole recap, the score with its formula, the bars and the stats', async () => {
    // The app puts the leaderboard's button in the slot (src/app/GameRoute.tsx).
    const saveResult = jest.fn((result: GameResult) => <SaveResultButton result={result} />);
    const { dispatch } = renderWith(<EndingView saveResult={saveResult} />, ENDED);
    const ending = screen.getByRole('article', { name: 'Adventure Complete' });
    expect(ending.classList.contains('ending-mood--heroic')).toBe(true);
    expect(document.activeElement).toBe(
      screen.getByRole('heading', { name: 'Adventure Complete' }),
    );
    expect(screen.getByText('Heroic Victory')).toBeTruthy();
    expect(screen.getByRole('img', { name: 'Portrait of Ada Quill' }).getAttribute('src')).toBe(
      '/characters/7.png',
    );
    expect(screen.getByText('Ada Quill')).toBeTruthy();
    expect(screen.getByText(RECAP.wrapUpParagraph)).toBeTruthy();

    for (const [label, value] of [
      ['Most Epic Moment', RECAP.bigMoment],
      ['Signature Move', RECAP.frequentActivity],
      ['Character Trait', RECAP.characterTraitHighlight],
      ['Theme Song', RECAP.themeExploration],
    ]) {
      expect(screen.getByText(label!).closest('div')!.textContent).toBe(`${label}${value}`);
    }

    const parts = endingScore({
      scoreBreakdown: STATS.scoreBreakdown,
      turnCount: 9,
      successRate: 75,
      endingType: 'Heroic Victory',
    });
    expect(parts).toEqual({ base: 210, bonus: 25.25, multiplier: 1.5, score: 353 });
    expect(screen.getByText('353')).toBeTruthy();
    expect(screen.getByText('round(round(210 + 25.25) × 1.5) = 353')).toBeTruthy();
    expect(
      screen.getByText('Base (decisions + consistency + creativity)').nextSibling!.textContent,
    ).toBe('210');
    expect(screen.getByText('Ending multiplier').nextSibling!.textContent).toBe('×1.5');

    expect(screen.getAllByRole('meter')).toHaveLength(4);
    for (const [name, value] of [
      ['Decision Quality', '80'],
      ['Character Consistency', '70'],
      ['Creative Problem Solving', '60'],
      ['Moral Compass', '90'],
    ]) {
      expect(screen.getByRole('meter', { name }).getAttribute('aria-valuenow')).toBe(value);
    }

    expect(screen.getByText('Moral Score').nextSibling!.textContent).toBe('+30');
    expect(screen.getByText('Risk Score').nextSibling!.textContent).toBe('45');
    expect(screen.getByText('Trait Consistency').nextSibling!.textContent).toBe('60');
    expect(screen.getByText('Success Rate').nextSibling!.textContent).toBe('75%');

    expect(screen.getByRole('button', { name: 'Save Adventure Results' })).toBeTruthy();
    expect(saveResult).toHaveBeenLastCalledWith(
      expect.objectContaining({
        score: 353,
        ending_type: 'Heroic Victory',
        character_name: 'Ada Quill',
        genre: 'Gothic mystery',
        turn_count: 9,
      }),
    );

    await userEvent.click(screen.getByRole('button', { name: 'Start New Game' }));
    expect(dispatch).toHaveBeenCalledWith(gameActions.newGameStarted());
    expect(selectGameStage(store.getState())).toBe('genreSelection');
  });

  test('a highlight the model left empty is left out, as on a published story', () => {
    renderWith(<EndingView />, {
      ...ENDED,
      story: { ...ENDED_STORY, recap: { ...RECAP, themeExploration: ' ' } },
    });
    expect(screen.getByText('Most Epic Moment')).toBeTruthy();
    expect(screen.queryByText('Theme Song')).toBeNull();
  });

  test('Return to Home leaves the game', async () => {
    const { dispatch } = renderWith(<EndingView />, ENDED);
    // Without the app's slot the view stands alone: no leaderboard button.
    expect(screen.queryByRole('button', { name: 'Save Adventure Results' })).toBeNull();
    await userEvent.click(screen.getByRole('button', { name: 'Return to Home' }));
    expect(dispatch).toHaveBeenCalledWith(gameActions.returnedHome());
    expect(selectGameStage(store.getState())).toBe('loadOrCreate');
  });

  test('in Korean the ending keeps its Korean name and the labels are Korean', () => {
    renderWith(
      <EndingView />,
      { ...ENDED, story: { ...ENDED_STORY, recap: { ...RECAP, endingType: '비극적 몰락' } } },
      { language: 'kr' },
    );
    expect(
      screen.getByRole('article', { name: '모험 완료' }).classList.contains('ending-mood--tragic'),
    ).toBe(true);
    expect(screen.getByText('비극적 몰락')).toBeTruthy();
    expect(screen.getByText('가장 장엄한 순간')).toBeTruthy();
    expect(screen.getByText('성공률').nextSibling!.textContent).toBe('75%');
    expect(screen.getByRole('button', { name: '새 게임 시작' })).toBeTruthy();
  });
});

describe('what the story’s requests cost, in Story so far', () => {
  const tally = (changes: Partial<TokenTally>): TokenTally => ({ ...NO_COST.total, ...changes });
  const COST: StoryCost = {
    turn: 4,
    lastTurn: tally({
      reported: 2,
      promptTokens: 2345,
      replyTokens: 678,
      reasoningTokens: 120,
      costUsd: 0.00042,
    }),
    total: tally({
      reported: 9,
      notReported: 1,
      promptTokens: 12345,
      replyTokens: 3456,
      reasoningTokens: 800,
      costUsd: 0.0213,
      unpriced: 2,
    }),
  };

  test('the latest turn’s tokens and the story’s, with the price only as far as it is known', async () => {
    const user = userEvent.setup();
    renderWith(<PlayingView />, { story: { cost: COST } });
    await user.click(screen.getByText('Story so far'));
    const turn = (await screen.findByText('Turn 4')).closest('div')!;
    expect(turn.textContent).toBe(
      'Turn 4' + '2,345 prompt + 678 reply tokens (120 of them thinking) · $0.00042',
    );
    const story = screen.getByText('This story').closest('div')!;
    // Two requests had no price: the dollars are a floor; one reported nothing at all.
    expect(story.textContent).toBe(
      'This story' +
        '12,345 prompt + 3,456 reply tokens (800 of them thinking) · at least $0.02 · 1 request not reported',
    );
  });

  test('a provider that reports nothing says so, in Korean too', async () => {
    const user = userEvent.setup();
    const silent = {
      turn: 0,
      lastTurn: tally({ notReported: 3 }),
      total: tally({ notReported: 3 }),
    };
    renderWith(<PlayingView />, { story: { cost: silent } }, { language: 'kr' });
    await user.click(screen.getByText('지금까지의 이야기'));
    const opening = (await screen.findByText('도입부')).closest('div')!;
    expect(opening.textContent).toBe('도입부' + '제공자가 토큰 사용량을 알려 주지 않았습니다');
  });

  test('a story with no request counted yet (saved before) shows no cost at all', async () => {
    const user = userEvent.setup();
    renderWith(<PlayingView />, {});
    await user.click(screen.getByText('Story so far'));
    await screen.findByRole('textbox', { name: /Pinned note/ });
    expect(screen.queryByText('This story')).toBeNull();
  });
});

test('a per-minute wait says what the request reserves of the minute, of the stated limit once known', async () => {
  const wait = {
    reason: 'rateLimited' as const,
    attempt: 1,
    retryAt: Date.now() + 5000,
    reserves: 3222,
  };
  renderWith(<PlayingView />, { turn: { phase: 'writing', streamed: '', thinking: false, wait } });
  expect(
    await screen.findByText(/This request reserves about 3,222 tokens of the minute's budget\./),
  ).toBeTruthy();
  const { provider, baseUrl, model } = store.getState().settings;
  act(() => {
    store.dispatch(
      providerSessionActions.minuteLimitRead({
        provider,
        baseUrl: baseUrlOf(providerById(provider), baseUrl),
        model: modelOf(providerById(provider), model),
        tokensPerMinute: 8000,
      }),
    );
  });
  expect(
    await screen.findByText(
      /This request reserves about 3,222 of the 8,000 tokens a minute allows\./,
    ),
  ).toBeTruthy();
});
