/**
 * @jest-environment jsdom
 */
import { act, screen, within, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ReactElement } from 'react';
import { Route, Routes } from 'react-router-dom';
import en from '../../../src/app/intl/messages/en.json';
import kr from '../../../src/app/intl/messages/kr.json';
import type { AppStore, RootState } from '../../../src/app/store';
import { WORDS_EN } from '../../../src/engine/data/words.en';
import { WORDS_KR } from '../../../src/engine/data/words.kr';
import {
  gameActions,
  initialGameState,
  type Turn,
  type Writing,
} from '../../../src/features/game/gameSlice';
import { selectGameStage } from '../../../src/features/game/turn/gameSelectors';
import { ApiKeyView } from '../../../src/features/game/views/ApiKeyView';
import { GenreView } from '../../../src/features/game/views/GenreView';
import { LoadingView } from '../../../src/features/game/views/LoadingView';
import { LoadOrCreateView } from '../../../src/features/game/views/LoadOrCreateView';
import { NameView, joinCharacterName } from '../../../src/features/game/views/NameView';
import { PortraitView } from '../../../src/features/game/views/PortraitView';
import { keyFingerprint, providerSessionActions } from '../../../src/features/llm';
import { initialSettingsState, type SettingsState } from '../../../src/features/settings';
import { gameAt, type GameAt } from '../../fixtures/games';
import { problem } from '../../fixtures/problems';
import { initialWalletState, type WalletState } from '../../../src/features/wallet';
import { verifiedWallet } from '../../fixtures/walletSessions';
import { httpModelClient } from '../../../src/features/llm';
import { renderWithProviders } from '../../support/render';

const ADDRESS = '0xabcdef0123456789abcdef0123456789abcdef01';
const VERIFIED: WalletState = verifiedWallet(ADDRESS);
const DISCONNECTED: WalletState = initialWalletState;

/** A fetch that never answers: a key check started by the game saga stays in progress. */
const pendingFetch = (() => new Promise<Response>(() => undefined)) as typeof fetch;

interface Setup {
  game?: GameAt;
  wallet?: WalletState;
  settings?: Partial<SettingsState>;
  language?: 'en' | 'kr';
}

let store: AppStore | undefined;
afterEach(() => store?.stop());

async function renderView(ui: ReactElement, setup: Setup = {}) {
  const language = setup.language ?? 'en';
  const preloaded: Partial<RootState> = {
    // No key in the session unless told, as a new game has it.
    game: gameAt({ apiKey: initialGameState.apiKey, ...setup.game }),
    wallet: setup.wallet ?? VERIFIED,
    settings: { ...initialSettingsState, language, ...setup.settings },
  };
  ({ store } = renderWithProviders(
    <Routes>
      <Route path="/" element={ui} />
      <Route path="/game" element={<p>The game page</p>} />
    </Routes>,
    {
      preloadedState: preloaded,
      context: { model: httpModelClient(pendingFetch) },
      language,
      route: '/',
    },
  ));
  return store;
}

const game = () => store!.getState().game;
const stage = () => selectGameStage(store!.getState());

describe('API key view (SPEC.md section 2, view 1)', () => {
  test('without a verified wallet the form is replaced by the connect message', async () => {
    await renderView(<ApiKeyView />, { wallet: DISCONNECTED });
    expect(screen.getByText('Please connect your wallet to continue.')).toBeTruthy();
    expect(
      screen.getByText('You need to connect and verify your wallet before using the API.'),
    ).toBeTruthy();
    expect(screen.queryByLabelText('API key')).toBeNull();
    expect(screen.queryByRole('button', { name: 'Submit' })).toBeNull();
  });

  test("a key sent without a verified wallet says 'Please connect your wallet first'", async () => {
    // The wallet's verification lapsed between the form's Submit and the check (SPEC.md 8).
    await renderView(<ApiKeyView />, { wallet: DISCONNECTED });
    act(() => {
      store!.dispatch(gameActions.apiKeyRejected({ error: 'walletNotVerified' }));
    });
    expect(screen.getByRole('alert').textContent).toBe(
      'Please connect your wallet first to use the API.',
    );
  });

  test('the key kept from an earlier visit is filled in', async () => {
    window.localStorage.setItem('apiKey', 'gsk_kept');
    try {
      await renderView(<ApiKeyView />);
      const field = screen.getByLabelText<HTMLInputElement>('API key');
      expect(field.value).toBe('gsk_kept');
      await userEvent.type(field, '_more');
      expect(field.value).toBe('gsk_kept_more');
      // The key is in the field, never in the page's markup.
      expect(document.body.innerHTML).not.toContain('gsk_kept');
    } finally {
      window.localStorage.removeItem('apiKey');
    }
  });

  test('shows provider, model, key, privacy note and the portal link', async () => {
    await renderView(<ApiKeyView />);
    expect(screen.getByRole('heading', { name: 'Enter your Groq API key' })).toBeTruthy();
    expect((screen.getByLabelText('Provider') as HTMLSelectElement).value).toBe('groq');
    const model = screen.getByLabelText('Model') as HTMLSelectElement;
    // The default described until Groq's own list is read, then the built-in models.
    expect(within(model).getAllByRole('option')).toHaveLength(4);
    expect(model.value).toBe('');
    expect(model.selectedOptions[0]?.textContent).toBe('Default');
    expect(
      screen.getByText("The default is chosen from the provider's own list of models."),
    ).toBeTruthy();
    expect(screen.getByLabelText('API key').getAttribute('type')).toBe('password');
    expect(screen.queryByLabelText('Base URL')).toBeNull();
    expect(screen.getByText(/Your key stays in this browser/)).toBeTruthy();
    const portal = screen.getByRole('link', { name: /Get a Groq API key/ });
    expect(portal.getAttribute('href')).toBe('https://console.groq.com/keys');
    expect(portal.getAttribute('target')).toBe('_blank');
    expect(portal.getAttribute('rel')).toContain('noopener');
  });

  test('an empty key shows the message and dispatches nothing', async () => {
    await renderView(<ApiKeyView />);
    const dispatched = jest.spyOn(store!, 'dispatch');
    await userEvent.type(screen.getByLabelText('API key'), '   ');
    await userEvent.click(screen.getByRole('button', { name: 'Submit' }));
    expect(screen.getByRole('alert').textContent).toContain('Please enter your API key.');
    // Nothing is sent: at most the key screen's word to the model-list flow (no key typed).
    const sent = dispatched.mock.calls.map(([action]) => action as { type: string });
    expect(sent.filter((action) => action.type !== providerSessionActions.keyTyped.type)).toEqual(
      [],
    );
    expect(game().keyCheck).toEqual({ status: 'idle' });
  });

  test('Submit remembers the model settings and starts the key check', async () => {
    await renderView(<ApiKeyView />);
    await userEvent.selectOptions(screen.getByLabelText('Model'), 'openai/gpt-oss-20b');
    await userEvent.type(screen.getByLabelText('API key'), ' gsk_test ');
    await userEvent.click(screen.getByRole('button', { name: 'Submit' }));

    expect(game().keyCheck).toEqual({ status: 'checking' });
    expect(store!.getState().settings).toMatchObject({
      provider: 'groq',
      model: 'openai/gpt-oss-20b',
      baseUrl: '',
    });
    const button = screen.getByRole('button', { name: 'Verifying...' }) as HTMLButtonElement;
    expect(button.disabled).toBe(true);
  });

  test('the local preset: Base URL, a model text field, no key needed, the CORS hint', async () => {
    await renderView(<ApiKeyView />);
    await userEvent.selectOptions(screen.getByLabelText('Provider'), 'local');
    expect(screen.getByText(/OLLAMA_ORIGINS/)).toBeTruthy();
    // A page on this computer needs no Local Network Access permission: nothing about it.
    expect(screen.queryByRole('note')).toBeNull();
    const baseUrl = screen.getByLabelText('Base URL') as HTMLInputElement;
    expect(baseUrl.value).toBe('http://localhost:11434/v1');
    const model = screen.getByLabelText('Model') as HTMLInputElement;
    expect(model.tagName).toBe('INPUT');
    // Left empty for the default, which the key check chooses from the server's own list.
    expect(model.value).toBe('');
    expect(model.placeholder).toBe('Default');
    await userEvent.type(model, 'qwen2.5');
    await userEvent.click(screen.getByRole('button', { name: 'Submit' }));

    expect(game().keyCheck).toEqual({ status: 'checking' });
    expect(store!.getState().settings).toMatchObject({
      provider: 'local',
      model: 'qwen2.5',
      baseUrl: 'http://localhost:11434/v1',
    });
  });

  test('the remembered provider, model and base URL are filled in', async () => {
    await renderView(<ApiKeyView />, {
      settings: { provider: 'custom', model: 'my-model', baseUrl: 'http://10.0.0.2:8000/v1' },
    });
    expect((screen.getByLabelText('Provider') as HTMLSelectElement).value).toBe('custom');
    expect((screen.getByLabelText('Model') as HTMLInputElement).value).toBe('my-model');
    expect((screen.getByLabelText('Base URL') as HTMLInputElement).value).toBe(
      'http://10.0.0.2:8000/v1',
    );
  });

  test('a rejected key shows the catalogue message with the detail beneath', async () => {
    await renderView(<ApiKeyView />, {
      game: {
        keyCheck: {
          status: 'refused',
          error: 'invalidApiKey',
          detail: problem({ reason: 'invalidApiKey', providerMessage: 'Invalid API Key' }),
        },
      },
    });
    const alert = screen.getByRole('alert');
    expect(alert.textContent).toBe(
      'Invalid API key. Please check and try again.Groq said: Invalid API Key',
    );

    act(() => {
      store!.dispatch(gameActions.apiKeyRejected({ error: 'keyCheckFailed' }));
    });
    expect(screen.getByRole('alert').textContent).toBe(
      'An error occurred while validating your API key.',
    );
  });

  test("a retired model says so, with the provider's own words beneath", async () => {
    const gone =
      'The model `llama-3.3-70b-versatile` does not exist or you do not have access to it.';
    await renderView(<ApiKeyView />, {
      game: {
        keyCheck: {
          status: 'refused',
          error: 'modelUnavailable',
          detail: problem({ reason: 'modelUnavailable', providerMessage: gone, status: 404 }),
        },
      },
    });
    const alert = screen.getByRole('alert');
    expect(alert.textContent).toContain('This model is not available from Groq: choose another.');
    expect(alert.textContent).toContain(`Groq said: ${gone}`);
    expect(within(alert).getByText(gone).tagName).toBe('Q');
  });

  test('an unreachable local server gets the CORS hint, in Korean in the Korean interface', async () => {
    const unreachable = problem({
      reason: 'providerUnreachable',
      provider: 'local',
      origin: 'http://localhost:11434',
      ownServer: true,
    });
    await renderView(<ApiKeyView />, {
      language: 'kr',
      settings: { provider: 'local' },
      game: {
        keyCheck: { status: 'refused', error: 'providerUnreachable', detail: unreachable },
      },
    });
    const alert = screen.getByRole('alert');
    expect(alert.textContent).toContain(
      '로컬 모델 (Ollama, LM Studio, llama.cpp)에 연결할 수 없습니다.',
    );
    expect(alert.textContent).toContain('OLLAMA_ORIGINS');
    expect(alert.textContent).toContain(window.location.origin);
    // Every line is in Korean: no sentence of the English catalogue slips in.
    expect(alert.textContent).not.toMatch(/could not|reach|allow|server/i);
  });

  test("the provider's own list replaces the built-in one once the key has read it", async () => {
    await renderView(<ApiKeyView />, {
      settings: { provider: 'groq', model: 'openai/gpt-oss-120b' },
    });
    await userEvent.type(screen.getByLabelText('API key'), 'gsk_test');
    act(() => {
      store!.dispatch(
        providerSessionActions.modelListRead({
          source: {
            provider: 'groq',
            baseUrl: 'https://api.groq.com/openai/v1',
            keyFingerprint: keyFingerprint('gsk_test'),
          },
          models: [
            { id: 'openai/gpt-oss-120b', label: 'GPT-OSS 120B' },
            { id: 'moonshotai/kimi-k3', label: 'moonshotai/kimi-k3' },
          ],
        }),
      );
    });
    const options = within(screen.getByLabelText('Model')).getAllByRole('option');
    expect(options.map((option) => option.getAttribute('value'))).toEqual([
      'openai/gpt-oss-120b',
      'moonshotai/kimi-k3',
    ]);
    expect(options[0]?.textContent).toBe('GPT-OSS 120B (default)');
  });

  test('an accepted key moves to /game', async () => {
    await renderView(<ApiKeyView />);
    act(() => {
      store!.dispatch(gameActions.apiKeyAccepted('gsk_test'));
    });
    expect(await screen.findByText('The game page')).toBeTruthy();
  });

  test('back on / mid-session, a newly accepted key moves to /game too', async () => {
    await renderView(<ApiKeyView />, { game: { turn: { phase: 'home' }, apiKey: 'old' } });
    expect(screen.queryByText('The game page')).toBeNull();
    act(() => {
      store!.dispatch(gameActions.apiKeySubmitted('gsk_new'));
    });
    expect(screen.queryByText('The game page')).toBeNull();
    act(() => {
      store!.dispatch(gameActions.apiKeyAccepted('gsk_new'));
    });
    expect(await screen.findByText('The game page')).toBeTruthy();
  });
});

describe('load or create view (view 2)', () => {
  test('Start New Game goes to the genre; the saved list is truthfully empty', async () => {
    await renderView(<LoadOrCreateView />, { game: { turn: { phase: 'home' }, apiKey: 'k' } });
    expect(screen.getByRole('heading', { name: 'New Adventure' })).toBeTruthy();
    expect(screen.getByRole('heading', { name: 'Continue Adventure' })).toBeTruthy();
    expect(screen.getByText('No saved stories available')).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'View Saved Games' }));
    expect(document.activeElement).toBe(screen.getByRole('region', { name: 'Saved stories' }));
    await userEvent.click(screen.getByRole('button', { name: 'Start New Game' }));
    expect(stage()).toBe('genreSelection');
  });
});

describe('genre view (view 3)', () => {
  test('a preset fills the field and Submit Genre moves to the portrait', async () => {
    await renderView(<GenreView />, { game: { turn: { phase: 'choosingGenre' } } });
    expect(screen.getByRole('heading', { name: 'Select a genre:' })).toBeTruthy();
    const presets = within(screen.getByRole('list')).getAllByRole('button');
    expect(presets).toHaveLength(WORDS_EN.genres.length);

    const preset = WORDS_EN.genres[3]!;
    await userEvent.click(screen.getByRole('button', { name: preset }));
    expect((screen.getByLabelText('Your own genre') as HTMLInputElement).value).toBe(preset);
    expect(screen.getByRole('button', { name: preset }).getAttribute('aria-pressed')).toBe('true');

    await userEvent.click(screen.getByRole('button', { name: 'Submit Genre' }));
    expect(stage()).toBe('characterImageSelection');
    expect(game().story.chosenGenre).toBe(preset);
  });

  test('a blank genre is ignored', async () => {
    await renderView(<GenreView />, { game: { turn: { phase: 'choosingGenre' } } });
    const submit = screen.getByRole('button', { name: 'Submit Genre' }) as HTMLButtonElement;
    expect(submit.disabled).toBe(true);
    await userEvent.type(screen.getByLabelText('Your own genre'), '   {Enter}');
    expect(submit.disabled).toBe(true);
    expect(stage()).toBe('genreSelection');

    await userEvent.type(screen.getByLabelText('Your own genre'), 'Gaslamp fantasy{Enter}');
    expect(game().story.chosenGenre).toBe('Gaslamp fantasy');
  });

  test('in Korean the heading and the presets are Korean', async () => {
    await renderView(<GenreView />, { game: { turn: { phase: 'choosingGenre' } }, language: 'kr' });
    expect(screen.getByRole('heading', { name: '장르를 선택하세요:' })).toBeTruthy();
    expect(screen.getByRole('button', { name: '장르 제출' })).toBeTruthy();
    // The Korean presets come with the Korean interface's chunk (languageWords.ts).
    expect(await screen.findByRole('button', { name: WORDS_KR.genres[0]! })).toBeTruthy();
    expect(screen.getAllByRole('button', { pressed: false })).toHaveLength(WORDS_KR.genres.length);
    expect(screen.queryByRole('button', { name: WORDS_EN.genres[0]! })).toBeNull();
  });
});

describe('portrait view (view 4)', () => {
  test('32 numbered thumbnails; the chosen one becomes the character image', async () => {
    await renderView(<PortraitView />, { game: { turn: { phase: 'choosingPortrait' } } });
    const thumbs = within(screen.getByRole('list', { name: 'Portraits' })).getAllByRole('button');
    expect(thumbs).toHaveLength(32);
    expect(thumbs[0]!.getAttribute('aria-pressed')).toBe('true');
    expect(screen.getByAltText('Portrait 32').getAttribute('src')).toBe('/characters/32.png');

    await userEvent.click(screen.getByRole('button', { name: 'Portrait 5' }));
    expect(screen.getByRole('button', { name: 'Portrait 5' }).getAttribute('aria-pressed')).toBe(
      'true',
    );
    expect(thumbs[0]!.getAttribute('aria-pressed')).toBe('false');
    expect(screen.getByAltText('Your character: portrait 5').getAttribute('src')).toBe(
      '/characters/5.png',
    );

    await userEvent.click(screen.getByRole('button', { name: 'Choose me' }));
    expect(game().story.chosenImage).toBe(5);
    expect(stage()).toBe('characterSelection');
  });
});

describe('name view (view 5)', () => {
  test('Random fills both names; Submit moves to loading with the joined name', async () => {
    await renderView(<NameView />, { game: { turn: { phase: 'naming' } } });
    expect(screen.getByRole('heading', { name: 'Select a character:' })).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'Random' }));
    const first = (screen.getByLabelText('First Name') as HTMLInputElement).value;
    const last = (screen.getByLabelText('Last Name') as HTMLInputElement).value;
    expect(first).not.toBe('');
    expect(last).not.toBe('');

    await userEvent.click(screen.getByRole('button', { name: 'Submit' }));
    expect(stage()).toBe('loading');
    expect(game().story.chosenCharacter).toBe(`${first} ${last}`);
  });

  test('both names are required', async () => {
    await renderView(<NameView />, { game: { turn: { phase: 'naming' } } });
    await userEvent.type(screen.getByLabelText('First Name'), 'Ada');
    await userEvent.click(screen.getByRole('button', { name: 'Submit' }));
    expect(screen.getByRole('alert').textContent).toContain(
      'Please enter both a first and a last name',
    );
    expect(stage()).toBe('characterSelection');

    await userEvent.type(screen.getByLabelText('Last Name'), 'Lovelace');
    await userEvent.click(screen.getByRole('button', { name: 'Submit' }));
    expect(game().story.chosenCharacter).toBe('Ada Lovelace');
  });

  test('a Korean name is family name first, without a space', () => {
    expect(joinCharacterName('민준', '김', 'kr')).toBe('김민준');
    expect(joinCharacterName('John', 'Smith', 'kr')).toBe('John Smith');
    expect(joinCharacterName(' Ada ', 'Lovelace ', 'en')).toBe('Ada Lovelace');
  });
});

describe('loading view (view 6)', () => {
  /** The opening being written, `changes` in it. */
  const opening = (changes: Partial<Writing & { progress: number }> = {}): Turn => ({
    phase: 'opening',
    progress: 0,
    streamed: '',
    thinking: false,
    wait: null,
    ...changes,
  });
  const loading = (turn: Turn) =>
    renderView(<LoadingView />, { game: { turn, story: { chosenCharacter: 'Ada Lovelace' } } });

  test('one filled block per 10 percent', async () => {
    await loading(opening({ progress: 40 }));
    const bar = screen.getByRole('progressbar', { name: 'Generating the story...' });
    expect(bar.getAttribute('aria-valuenow')).toBe('40');
    const blocks = bar.querySelectorAll('.story-progress__block');
    expect(blocks).toHaveLength(10);
    expect(bar.querySelectorAll('[data-filled="true"]')).toHaveLength(4);
    expect(screen.getByText('40%')).toBeTruthy();
  });

  test('a rate-limit wait counts down and can be cancelled', async () => {
    await loading(
      opening({
        progress: 25,
        wait: { reason: 'rateLimited', attempt: 1, retryAt: Date.now() + 5000 },
      }),
    );
    // What the wait says comes with its own code, the first time one is shown.
    await waitFor(() =>
      expect(screen.getByRole('status').textContent).toMatch(
        /Groq's per-minute limit for openai\/gpt-oss-120b is reached\. Trying again in 5 s/,
      ),
    );
    await userEvent.click(screen.getByRole('button', { name: 'Stop' }));
    // No wait and nothing being written any more: home.
    expect(game().turn).toEqual({ phase: 'home' });
    expect(stage()).toBe('loadOrCreate');
  });

  test('an unreadable reply says which attempt it is on', async () => {
    await loading(opening({ wait: { reason: 'unreadableReply', attempt: 3, retryAt: null } }));
    expect(screen.getByRole('status').textContent).toContain(
      'The story came back garbled. Asking again (attempt 3)…',
    );
  });

  test('a failed opening offers Try again, another model and Return to Home', async () => {
    await loading({ phase: 'openingFailed', problem: problem({ reason: 'retriesExhausted' }) });
    // SPEC.md section 8's words, only because the retries ran out; a model whose replies keep
    // coming back unreadable may be swapped for another of the provider's (issue 30).
    const said = screen.getByRole('alert').textContent ?? '';
    expect(said.startsWith('Max retry attempts reached, unable to fetch data.')).toBe(true);
    expect(await screen.findByRole('combobox', { name: 'Another model' })).toBeTruthy();
    expect(said.endsWith('Try againReturn to Home')).toBe(true);
    expect(screen.queryByRole('progressbar')).toBeNull();
    await userEvent.click(screen.getByRole('button', { name: 'Try again' }));
    // No failure any more: the opening is being written again.
    expect(game().turn).toMatchObject({ phase: 'opening' });
    expect(screen.getByRole('progressbar')).toBeTruthy();

    act(() => {
      store!.dispatch(
        gameActions.turnFailed(
          problem({ status: 400, providerMessage: '`response_format` does not support streaming' }),
        ),
      );
    });
    const alert = screen.getByRole('alert').textContent;
    // Not the spec's retry message: nothing was retried.
    expect(alert).not.toContain('Max retry attempts');
    expect(alert).toContain('The story could not be started.');
    expect(alert).toContain('Groq could not write this part (error 400).');
    expect(alert).toContain('Groq said: `response_format` does not support streaming');
    await userEvent.click(screen.getByRole('button', { name: 'Return to Home' }));
    expect(stage()).toBe('loadOrCreate');
  });
});

test('every setup view message exists in both English and Korean', () => {
  const prefixes = ['game.key.', 'game.start.', 'game.genre.', 'game.portrait.', 'game.name.'];
  const ours = (catalogue: Record<string, string>) =>
    Object.keys(catalogue)
      .filter(
        (id) =>
          [...prefixes, 'game.loading.', 'game.wait.'].some((prefix) => id.startsWith(prefix)) ||
          id === 'llm.provider.local.hint',
      )
      .sort();
  expect(ours(en).length).toBeGreaterThan(40);
  expect(ours(kr)).toEqual(ours(en));
});
