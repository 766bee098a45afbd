/**
 * The language model's part of the saga context (DESIGN.md, where side effects live): what the
 * game's flows reach the provider with. The app puts it together with the other features' parts
 * (src/app/sagaContext.ts); a test hands in its own.
 */
import { contextReader, type ClockContext } from '../../shared/sagaContext';
import type { ConnectPage } from './connectPage';
import type { LocalNetworkAccess } from './localNetwork';
import type { ModelClient } from './modelClient';
import type { TypedKey } from './typedKey';

export interface LlmContext {
  /** The language-model provider's client (the one edge the tests fake). */
  model: ModelClient;
  /** The page's Content-Security-Policy, for a Custom or Local provider's origin. */
  connectPage: ConnectPage | null;
  /**
   * Where the page is and the player's Local Network Access permission, to tell a refused
   * permission from CORS when their own server cannot be reached (null: no page to ask).
   */
  localNetwork: LocalNetworkAccess | null;
  /** The key the player is typing on the key screen, known to the store by its fingerprint. */
  typedKey: TypedKey;
}

/** One value of the context the language model's own flows read, typed by its key. */
export const fromContext = contextReader<LlmContext & ClockContext>();
