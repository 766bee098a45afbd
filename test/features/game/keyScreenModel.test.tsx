/**
 * @jest-environment jsdom
 *
 * Issue 38, part 4, on the key screen: until the provider's own list is known, the model field
 * describes the default and shows no model id; the list is read once the key has been typed
 * (the app's own model-list flow, its quiet passing at once here), and from then on the
 * field shows the model that will play, which is the one the key check then asks for. An
 * account without gpt-5.6-terra, in English and in Korean; a key the provider refuses while
 * asked for its models is told early, and the form still goes.
 */
import { act, screen, waitFor } from '@testing-library/react';
import { Route, Routes } from 'react-router-dom';
import type { AppStore } from '../../../src/app/store';
import { initialGameState } from '../../../src/features/game/gameSlice';
import { ApiKeyView } from '../../../src/features/game/views/ApiKeyView';
import {
  MODEL_LIST_QUIET_MS,
  ProviderError,
  type CheckApiKeyRequest,
  type ModelClient,
} from '../../../src/features/llm';
import { initialSettingsState } from '../../../src/features/settings';
import { verifiedWallet } from '../../fixtures/walletSessions';
import { renderWithProviders } from '../../support/render';
import { systemClock, type Clock } from '../../../src/shared/sagaContext';

const ADDRESS = '0xabcdef0123456789abcdef0123456789abcdef01';
const KEY = 'sk-proj-key-screen-test';

/** OpenAI's list for a project without gpt-5.6-terra (as GET /v1/models answers). */
const WITHOUT_TERRA = {
  object: 'list',
  data: ['gpt-5.4', 'gpt-5.6-sol', 'gpt-5.4-mini', 'gpt-5.6-luna', 'whisper-1'].map((id) => ({
    id,
    object: 'model',
    created: 1773705600,
    owned_by: 'system',
  })),
};

interface ListingClient extends ModelClient {
  /** The keys the list was asked with. */
  listedWith: string[];
  /** The models the key check asked for. */
  checked: string[];
  /** Answers the list request that is waiting. */
  answer(list: unknown | Error): Promise<void>;
}

/** A client whose list waits for the test to answer it, and whose key check passes. */
function listingClient(): ListingClient {
  const listedWith: string[] = [];
  const checked: string[] = [];
  let settle: ((answer: unknown) => void) | null = null;
  return {
    listedWith,
    checked,
    listModels({ apiKey }) {
      listedWith.push(apiKey);
      return new Promise((resolve, reject) => {
        settle = (answer) => (answer instanceof Error ? reject(answer) : resolve(answer));
      });
    },
    checkKey(request: Omit<CheckApiKeyRequest, 'fetch'>) {
      checked.push(request.model);
      return Promise.resolve();
    },
    complete: () => Promise.reject(new Error('no story in this test')),
    async answer(list) {
      await act(async () => {
        settle?.(list);
        await Promise.resolve();
      });
    },
  };
}

let store: AppStore;
afterEach(() => store.stop());

function renderKeyScreen(language: 'en' | 'kr', model: ListingClient, provider = 'openai') {
  // The typing stops as the key is pasted: the model list's quiet passes at once (its timing is
  // the saga test's); every other wait stays where it is.
  const clock: Clock = {
    ...systemClock,
    sleep: (ms) => (ms === MODEL_LIST_QUIET_MS ? Promise.resolve() : new Promise(() => {})),
  };
  const rendered = renderWithProviders(
    <Routes>
      <Route path="/" element={<ApiKeyView />} />
      <Route path="/game" element={<p>The game page</p>} />
    </Routes>,
    {
      preloadedState: {
        game: initialGameState,
        wallet: verifiedWallet(ADDRESS),
        settings: { ...initialSettingsState, language, provider },
      },
      context: { model, clock },
      language,
      route: '/',
    },
  );
  store = rendered.store;
  return rendered;
}

const WORDS = {
  en: {
    model: 'Model',
    apiKey: 'API key',
    submit: 'Submit',
    unread: 'Default',
    playing: 'GPT-5.4 mini (default)',
    theDefault: 'The default is the newest GPT-5.x mini on your account.',
  },
  kr: {
    model: '모델',
    apiKey: 'API 키',
    submit: '제출',
    unread: '기본값',
    playing: 'GPT-5.4 mini (기본값)',
    theDefault: '기본값은 내 계정의 최신 GPT-5.x mini입니다.',
  },
} as const;

const selected = (field: HTMLSelectElement) => field.selectedOptions[0]?.textContent ?? '';
/** Any OpenAI model id, as a player would read it in the field. */
const MODEL_ID = /gpt-\d(\.\d+)?-|gpt-\d\.\d/i;

describe.each(['en', 'kr'] as const)(
  'the key screen in %s, an account without gpt-5.6-terra',
  (lang) => {
    const say = WORDS[lang];

    test('no model id before the list is known; the model that will play once it is, and that model is checked', async () => {
      const model = listingClient();
      const { user } = renderKeyScreen(lang, model);
      const field = screen.getByLabelText<HTMLSelectElement>(say.model);

      // Before any key: the default in words, no id (the built-in models are offered beneath).
      expect(field.value).toBe('');
      expect(selected(field)).toBe(say.unread);
      expect(screen.queryByText(/\((default|기본값)\)/)).toBeNull();
      // Beneath, in words: what the default is.
      const theDefault = screen.getByText(say.theDefault);
      expect(field.getAttribute('aria-describedby')?.split(' ')).toContain(theDefault.id);
      expect(theDefault.textContent).not.toMatch(MODEL_ID);

      await user.click(screen.getByLabelText(say.apiKey));
      await user.paste(KEY);
      // The typing has stopped: the list is asked for, and still no id is shown.
      await waitFor(() => expect(model.listedWith).toEqual([KEY]));
      expect(field.value).toBe('');
      expect(selected(field)).toBe(say.unread);

      await model.answer(WITHOUT_TERRA);
      expect(field.value).toBe('gpt-5.4-mini');
      expect(selected(field)).toBe(say.playing);
      expect(screen.getByText(say.theDefault)).toBeTruthy();
      // The options are the account's chat models, gpt-5.6-terra not among them.
      const offered = [...field.options].map((option) => option.value);
      expect(offered).not.toContain('gpt-5.6-terra');
      expect(offered).not.toContain('');
      expect(offered).not.toContain('whisper-1');

      // Submitted as shown: the key check asks for the model the field named, the list is not
      // read again, and nothing was replaced.
      await user.click(screen.getByRole('button', { name: say.submit }));
      expect(await screen.findByText('The game page')).toBeTruthy();
      expect(model.checked).toEqual(['gpt-5.4-mini']);
      expect(model.listedWith).toEqual([KEY]);
      expect(store.getState().settings.model).toBe('gpt-5.4-mini');
      expect(store.getState().providerSession.modelReplaced).toBeNull();
    });
  },
);

test('a key refused while asked for the models is told early; the default stays described, and the form still goes', async () => {
  const model = listingClient();
  const { user } = renderKeyScreen('en', model);
  await user.click(screen.getByLabelText('API key'));
  await user.paste('sk-wrong');
  await waitFor(() => expect(model.listedWith).toEqual(['sk-wrong']));
  await model.answer(new ProviderError(401, 'Incorrect API key provided'));

  const field = screen.getByLabelText<HTMLSelectElement>('Model');
  const refused = screen.getByText('OpenAI did not accept this key: check it before you submit.');
  expect(field.getAttribute('aria-describedby')?.split(' ')).toContain(refused.id);
  expect(field.value).toBe('');
  expect(selected(field)).toBe(WORDS.en.unread);
  const submit = screen.getByRole<HTMLButtonElement>('button', { name: 'Submit' });
  expect(submit.disabled).toBe(false);
  // Typing the key again clears the word: the next read decides.
  await user.type(screen.getByLabelText('API key'), 'x');
  expect(screen.queryByText(/did not accept this key/)).toBeNull();
});

test("a Custom server's image model (issue 41) is named with the key and kept; a preset has no such field", async () => {
  const model = listingClient();
  const { user } = renderKeyScreen('en', model, 'custom');
  await user.type(screen.getByLabelText('Image model (for pictures)'), 'flux-schnell');
  // Another provider looked at and left: the name is the player's, not the preset's, and stays.
  await user.selectOptions(screen.getByLabelText('Provider'), 'openai');
  expect(screen.queryByLabelText('Image model (for pictures)')).toBeNull();
  await user.selectOptions(screen.getByLabelText('Provider'), 'custom');
  expect(screen.getByLabelText<HTMLInputElement>('Image model (for pictures)').value).toBe(
    'flux-schnell',
  );
  await user.type(screen.getByLabelText('Model'), 'llama-3.3-70b');
  await user.type(screen.getByLabelText('Base URL'), 'https://studio.example.test/v1');

  await user.click(screen.getByRole('button', { name: 'Submit' }));
  await model.answer({ object: 'list', data: [{ id: 'llama-3.3-70b', object: 'model' }] });
  expect(await screen.findByText('The game page')).toBeTruthy();
  expect(store.getState().settings).toMatchObject({
    provider: 'custom',
    model: 'llama-3.3-70b',
    imageModel: 'flux-schnell',
  });
  store.stop();

  // OpenAI's image models come from its own list: its form names none.
  renderKeyScreen('en', listingClient());
  expect(screen.queryByLabelText('Image model (for pictures)')).toBeNull();
});
