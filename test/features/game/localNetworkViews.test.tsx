/**
 * @jest-environment jsdom
 * @jest-environment-options {"url": "https://taleweaver.example/"}
 */
/**
 * The key screen on a public site with a model server on the player's own computer or network
 * (DESIGN.md, "Local models from a public site"): before the check it says the browser will
 * ask and that Allow is the answer; a refused permission is named as such, with where to allow
 * it, instead of the CORS hint; what the player typed stays. The page is at a public https
 * address (this file's jsdom URL).
 */
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Route, Routes } from 'react-router-dom';
import type { AppStore, RootState } from '../../../src/app/store';
import { initialGameState } from '../../../src/features/game/gameSlice';
import { ApiKeyView } from '../../../src/features/game/views/ApiKeyView';
import { TurnError } from '../../../src/features/game/views/TurnError';
import { httpModelClient, type LocalNetworkAccess } from '../../../src/features/llm';
import { initialSettingsState, type SettingsState } from '../../../src/features/settings';
import { gameAt, type GameAt } from '../../fixtures/games';
import { problem } from '../../fixtures/problems';
import { verifiedWallet } from '../../fixtures/walletSessions';
import { renderWithProviders } from '../../support/render';

const ADDRESS = '0xabcdef0123456789abcdef0123456789abcdef01';
const LOCAL_NAME = 'Local model (Ollama, LM Studio, llama.cpp)';

/** Chromium's fetch when the permission (or CORS) stops the request. */
const failedFetch: typeof fetch = () => Promise.reject(new TypeError('Failed to fetch'));

/** This page as the browser has it, with the permission denied. */
const deniedHere: LocalNetworkAccess = {
  pageHost: 'taleweaver.example',
  secureContext: true,
  permissions: { query: async ({ name }) => ({ name, state: 'denied' }) as PermissionStatus },
};

interface Setup {
  game?: GameAt;
  settings?: Partial<SettingsState>;
  language?: 'en' | 'kr';
}

let store: AppStore | undefined;
afterEach(() => store?.stop());

function renderKeyView(setup: Setup = {}) {
  const language = setup.language ?? 'en';
  const preloaded: Partial<RootState> = {
    game: gameAt({ apiKey: initialGameState.apiKey, ...setup.game }),
    wallet: verifiedWallet(ADDRESS),
    settings: { ...initialSettingsState, language, ...setup.settings },
  };
  ({ store } = renderWithProviders(
    <Routes>
      <Route path="/" element={<ApiKeyView />} />
      <Route path="/game" element={<p>The game page</p>} />
    </Routes>,
    {
      preloadedState: preloaded,
      context: { model: httpModelClient(failedFetch), localNetwork: deniedHere },
      language,
      route: '/',
    },
  ));
}

const note = () => screen.queryByRole('note');
/** The notice, once its words (a part of their own) are in. */
const noticeText = async () => (await screen.findByRole('note')).textContent;

describe('before the check: what the browser will ask', () => {
  test('the Local preset on a public page: the browser will ask, choose Allow', async () => {
    renderKeyView();
    expect(note()).toBeNull();
    await userEvent.selectOptions(screen.getByLabelText('Provider'), 'local');
    expect(await noticeText()).toBe(
      'http://localhost:11434 is on your own computer: when you submit, your browser may ask ' +
        'to let this site access other apps and services on this device. Choose Allow, or the ' +
        'game cannot reach it.',
    );
    // It sits before the button that starts the check.
    const submit = screen.getByRole('button', { name: 'Submit' });
    expect(note()!.compareDocumentPosition(submit) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
  });

  test('a server on the local network is named as such, and the words follow the Base URL', async () => {
    renderKeyView({ settings: { provider: 'custom', model: 'qwen3', baseUrl: '' } });
    expect(note()).toBeNull();
    const baseUrl = screen.getByLabelText('Base URL');
    await userEvent.type(baseUrl, 'http://192.168.1.20:1234/v1');
    expect(await noticeText()).toContain('is on your own network');
    expect(note()?.textContent).toContain('access devices on your local network');
    await userEvent.clear(baseUrl);
    await userEvent.type(baseUrl, 'https://llm.example.com/v1');
    expect(note()).toBeNull();
  });

  test('in Korean in the Korean interface', async () => {
    renderKeyView({ language: 'kr', settings: { provider: 'local', model: 'llama3.2' } });
    expect(await noticeText()).toContain('http://localhost:11434은(는) 내 컴퓨터에 있습니다.');
    expect(note()?.textContent).toContain('허용을 선택해야 게임이 연결할 수 있습니다.');
    expect(note()?.textContent).not.toMatch(/browser|Allow|computer/);
  });

  test('a plain http page: the browser will not let it, the https address is the way', async () => {
    Object.defineProperty(window, 'isSecureContext', { value: false, configurable: true });
    try {
      renderKeyView({ settings: { provider: 'local', model: 'llama3.2' } });
      expect(await noticeText()).toBe(
        `This page is not on https, so your browser does not let it reach ${LOCAL_NAME} on ` +
          'your own computer. Open the game at its https:// address.',
      );
    } finally {
      delete (window as { isSecureContext?: boolean }).isSecureContext;
    }
  });

  test('a hosted provider needs no permission: nothing is said', () => {
    renderKeyView({ settings: { provider: 'groq' } });
    expect(note()).toBeNull();
  });
});

describe('a refused permission: said as such, with where to allow it, not CORS', () => {
  test('submitted: the permission message, and the form keeps what was typed', async () => {
    renderKeyView({ settings: { provider: 'local', model: 'llama3.2' } });
    const model = screen.getByLabelText('Model');
    await userEvent.clear(model);
    await userEvent.type(model, 'qwen3:8b');
    await userEvent.click(screen.getByRole('button', { name: 'Submit' }));

    const alert = await screen.findByRole('alert');
    await within(alert).findByText(/Site settings/);
    expect(alert.textContent).toBe(
      `Your browser blocks this site from reaching apps on your computer, so nothing reached ${LOCAL_NAME}.` +
        'To allow it in Chrome: click the icon left of the address (View site information), ' +
        'open Site settings and set “Apps on device” (in earlier versions “Local network ' +
        'access”) to Allow. Then try again.',
    );
    expect(alert.textContent).not.toMatch(/CORS|OLLAMA_ORIGINS/);
    // Nothing is lost: the same server and model, ready to submit again.
    expect((screen.getByLabelText('Base URL') as HTMLInputElement).value).toBe(
      'http://localhost:11434/v1',
    );
    expect((screen.getByLabelText('Model') as HTMLInputElement).value).toBe('qwen3:8b');
    expect(screen.getByRole('button', { name: 'Submit' })).toBeTruthy();
  });

  test('a server on the local network: the Local network setting, in Korean', async () => {
    renderKeyView({
      language: 'kr',
      settings: { provider: 'custom', model: 'qwen3', baseUrl: 'http://192.168.1.20:1234/v1' },
      game: {
        keyCheck: {
          status: 'refused',
          error: 'localNetworkDenied',
          detail: problem({
            reason: 'localNetworkDenied',
            provider: 'custom',
            model: 'qwen3',
            origin: 'http://192.168.1.20:1234',
          }),
        },
      },
    });
    const alert = screen.getByRole('alert');
    await within(alert).findByText(/로컬 네트워크 액세스를 차단하고 있어/);
    await within(alert).findByText(/사이트 설정/);
    expect(alert.textContent).toContain('‘로컬 네트워크’ 항목');
    expect(alert.textContent).not.toMatch(/CORS|OLLAMA_ORIGINS|browser|Allow/);
  });

  test('a plain http page: the https address, not the site settings', async () => {
    renderKeyView({
      settings: { provider: 'local', model: 'llama3.2' },
      game: {
        keyCheck: {
          status: 'refused',
          error: 'localNetworkInsecure',
          detail: problem({
            reason: 'localNetworkInsecure',
            provider: 'local',
            origin: 'http://localhost:11434',
          }),
        },
      },
    });
    const alert = screen.getByRole('alert');
    await within(alert).findByText(/not on https/);
    expect(alert.textContent).toBe(
      `This page is not on https, so your browser does not let it reach ${LOCAL_NAME} on your ` +
        'own computer. Open the game at its https:// address.',
    );
  });

  test('a server out of reach with the permission granted keeps the CORS hint', () => {
    renderKeyView({
      settings: { provider: 'local', model: 'llama3.2' },
      game: {
        keyCheck: {
          status: 'refused',
          error: 'providerUnreachable',
          detail: problem({
            reason: 'providerUnreachable',
            provider: 'local',
            origin: 'http://localhost:11434',
            ownServer: true,
          }),
        },
      },
    });
    const alert = screen.getByRole('alert');
    expect(alert.textContent).toContain('OLLAMA_ORIGINS');
    expect(alert.textContent).toContain('https://taleweaver.example');
    expect(alert.textContent).not.toContain('Site settings');
  });
});

test('mid-game, a turn the browser refused to send says so under the turn’s message', async () => {
  ({ store } = renderWithProviders(
    <TurnError
      detail={problem({
        reason: 'localNetworkDenied',
        provider: 'local',
        model: 'llama3.2',
        origin: 'http://127.0.0.1:11434',
      })}
      onRetry={() => undefined}
    />,
    { route: '/' },
  ));
  const howTo = await screen.findByText(/Site settings/);
  expect(howTo.className).toBe('turn-error__detail');
  const cause = screen.getByText(
    /Your browser blocks this site from reaching apps on your computer/,
  );
  expect(cause.className).toBe('turn-error__detail');
  expect(document.body.textContent).not.toMatch(/CORS|OLLAMA_ORIGINS/);
});
