/**
 * @jest-environment jsdom
 *
 * Issue 40, part 3, on the key screen: what a turn reserves of a per-minute token budget, as
 * free tiers count it (the prompt and the reply's whole output limit). Of the minute's limit
 * once the provider has stated it for the model that will play; never a limit guessed; nothing
 * for a server that takes no key. In English and in Korean.
 */
import { screen } from '@testing-library/react';
import type { AppStore } from '../../../src/app/store';
import { initialGameState } from '../../../src/features/game/gameSlice';
import { ApiKeyView } from '../../../src/features/game/views/ApiKeyView';
import {
  baseUrlOf,
  initialProviderSessionState,
  mostATurnReserves,
  providerById,
  type ProviderSessionState,
} from '../../../src/features/llm';
import { initialSettingsState } from '../../../src/features/settings';
import { verifiedWallet } from '../../fixtures/walletSessions';
import { renderWithProviders } from '../../support/render';

const GROQ = providerById('groq');
const MODEL = GROQ.defaultModel;

let store: AppStore | null = null;
afterEach(() => {
  store?.stop();
  store = null;
});

function renderKeyScreen(
  language: 'en' | 'kr',
  provider: string,
  providerSession: ProviderSessionState = initialProviderSessionState,
) {
  store = renderWithProviders(<ApiKeyView />, {
    preloadedState: {
      game: initialGameState,
      wallet: verifiedWallet('0xabcdef0123456789abcdef0123456789abcdef01'),
      settings: { ...initialSettingsState, language, provider, model: '' },
      providerSession,
    },
    language,
    route: '/',
  }).store;
}

const STATED: ProviderSessionState = {
  ...initialProviderSessionState,
  minuteLimit: {
    provider: 'groq',
    baseUrl: baseUrlOf(GROQ),
    model: MODEL,
    tokensPerMinute: 8000,
  },
};

test('the most a turn reserves, a number the request planner gives', () => {
  const most = mostATurnReserves(GROQ, MODEL, []);
  // Groq's gpt-oss: a 2,000-token prompt at most, a turn's 1,000 and the reasoning allowance.
  expect(most).toBeGreaterThan(3000);
  expect(most).toBeLessThanOrEqual(4000);
});

test('before Groq has stated a limit: what a turn reserves, and no limit guessed', () => {
  renderKeyScreen('en', 'groq');
  const most = mostATurnReserves(GROQ, MODEL, []).toLocaleString('en-US');
  const said = screen.getByText(
    `A turn reserves up to about ${most} tokens of a per-minute budget: its prompt and all the room its reply may take.`,
  );
  // Heard with the model field it is about.
  const field = screen.getByLabelText('Model', { selector: 'select' });
  expect(field.getAttribute('aria-describedby')?.split(' ')).toContain(said.id);
  expect(screen.queryByText(/8,000/)).toBeNull();
});

test.each([
  [
    'en',
    (most: string) =>
      `A turn reserves up to about ${most} of the 8,000 tokens a minute Groq allows ${MODEL}: its prompt and all the room its reply may take.`,
  ],
  [
    'kr',
    (most: string) =>
      `한 턴은 Groq의 ${MODEL} 분당 한도 8,000 토큰 중 최대 약 ${most} 토큰을 예약합니다: 프롬프트와 응답에 허용되는 최대 길이입니다.`,
  ],
] as const)('once the limit is stated (%s): what a turn reserves of it', (language, words) => {
  renderKeyScreen(language, 'groq', STATED);
  const most = mostATurnReserves(GROQ, MODEL, []).toLocaleString('en-US');
  expect(screen.getByText(words(most))).toBeTruthy();
});

test('a limit stated for another model is not this one’s', () => {
  const other = {
    ...STATED,
    minuteLimit: { ...STATED.minuteLimit!, model: 'llama-3.1-8b-instant' },
  };
  renderKeyScreen('en', 'groq', other);
  expect(screen.queryByText(/8,000/)).toBeNull();
});

test('a server on the player’s own computer counts no minutes: nothing is said', () => {
  renderKeyScreen('en', 'local');
  expect(screen.queryByText(/A turn reserves/)).toBeNull();
});
