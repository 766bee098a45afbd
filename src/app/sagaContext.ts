/**
 * The saga context the app composes from each feature's part (DESIGN.md, where side effects
 * live): every feature declares what its flows read beside its sagas, and only the app knows
 * them all. The browser's page fills it in src/index.tsx (browserContext); a store made without
 * some part (a test's) gets the same defaults the page would, except the wallet extension,
 * which a test brings when it signs in.
 */
import type { BackendContext } from '../api';
import type { GameContext } from '../features/game';
import type { LlmContext } from '../features/llm';
import type { PicturesContext } from '../features/pictures';
import type { StoriesContext } from '../features/stories';
import type { WalletContext } from '../features/wallet';
// The browser's own parts by their modules, as the store takes the slices: the app's store (and
// a script that makes one, such as the bench's) never loads a feature's views with them.
import { browserModelClient } from '../features/llm/browserModelClient';
import { browserConnectPage } from '../features/llm/connectPage';
import { browserLocalNetworkAccess } from '../features/llm/localNetwork';
import { pageTypedKey } from '../features/llm/typedKey';
import { browserStoriesContext } from '../features/stories/browserContext';
import { browserWalletEnvironment } from '../features/wallet/environment';
import { systemClock } from '../shared/sagaContext';

export type SagaContext = GameContext &
  LlmContext &
  StoriesContext &
  PicturesContext &
  WalletContext &
  BackendContext;

/**
 * What a store fills in for itself when it is made without it (the backend, the wallet session
 * and the slices' injection are each store's own: makeStore puts them in; the browser's picture
 * client comes with the pictures' flows, whose loader puts it in unless a test gave one).
 */
export type ContextDefaults = Omit<
  SagaContext,
  'walletEnvironment' | 'backend' | 'walletSession' | 'injectSlice' | 'pictureClient'
>;

/**
 * The defaults: the model over HTTP (downloaded with the game's flows), a random source that
 * is not replayed, the page's clock, no kept API key, no page policy and no page to ask about
 * its local network (there may be no page), the key screen's key as typed (held in the page's
 * memory), and the browser's own MyStoriesDB and tab channel.
 */
export function contextDefaults(): ContextDefaults {
  return {
    model: browserModelClient(),
    random: Math.random,
    clock: systemClock,
    storage: null,
    connectPage: null,
    localNetwork: null,
    typedKey: pageTypedKey,
    ...browserStoriesContext(),
  };
}

/**
 * The page's context: the defaults with the wallet extension, localStorage, the policy and the
 * page's Local Network Access.
 */
export function browserContext(
  win: Window,
): Omit<SagaContext, 'backend' | 'walletSession' | 'injectSlice' | 'pictureClient'> {
  return {
    ...contextDefaults(),
    walletEnvironment: browserWalletEnvironment(win),
    storage: win.localStorage,
    // Read now: the cookie as the server saw it when it wrote this page's policy.
    connectPage: browserConnectPage(win),
    localNetwork: browserLocalNetworkAccess(win),
  };
}

/** `context` with the defaults where it leaves a part out (or leaves it undefined). */
export function withDefaults(context: Partial<SagaContext> = {}): Partial<SagaContext> {
  const given = Object.fromEntries(
    Object.entries(context).filter(([, value]) => value !== undefined),
  ) as Partial<SagaContext>;
  return { ...contextDefaults(), ...given };
}
