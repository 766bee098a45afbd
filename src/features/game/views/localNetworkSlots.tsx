/**
 * Where the key screen and the problem lines make room for Local Network Access's words
 * (LocalNetworkWords.tsx), which come with their own code and messages only when needed: for
 * a Custom or Local server on a page that may need the player's permission, and for a refused
 * permission. The rest of a game never downloads them.
 */
import { lazy, Suspense } from 'react';
import { loadMessages } from '../../../shared/messageParts';
import type { ProviderPreset } from '../../llm';
import type { Problem } from '../gameSlice';
import type { LocalNetworkWordsProps } from './LocalNetworkWords';

const Words = lazy(async () => {
  const [module] = await Promise.all([
    import(/* webpackChunkName: "local-network" */ './LocalNetworkWords'),
    loadMessages('localNetwork'),
  ]);
  return { default: module.LocalNetworkWords };
});

/** Local Network Access's notice or lines, once their code and words are in. */
export function LocalNetworkSlot(props: LocalNetworkWordsProps) {
  return (
    <Suspense fallback={null}>
      <Words {...props} />
    </Suspense>
  );
}

/**
 * Whether the key screen may have to say what the browser will ask, for a server the player
 * names: not on a page on this computer by the names it is usually opened at, since no server
 * is more private than it (LocalNetworkWords decides every other case, 127.0.0.2 included).
 */
export const mayNeedPermission = (preset: ProviderPreset) =>
  preset.editableBaseUrl && !['localhost', '127.0.0.1', '[::1]'].includes(location.hostname);

/** Whether a problem is the browser's Local Network Access refusing, not the server. */
export const isLocalNetworkRefusal = (problem: Problem | null) =>
  problem?.reason === 'localNetworkDenied' || problem?.reason === 'localNetworkInsecure';
