/**
 * Local models from a public site (DESIGN.md): a page the browser counts as public (or on the
 * local network) may reach the player's own computer or network only with their permission
 * (Local Network Access, Chrome 142 and later). The browser checks it before CORS and fails the
 * fetch the same way, so a server out of reach is asked about here: a refused permission is the
 * cause, and the CORS hint (OLLAMA_ORIGINS) could not help.
 */
import { call } from 'typed-redux-saga';
import {
  addressSpaceOfHost,
  addressSpaceOfUrl,
  localNetworkPermission,
  permissionSpaceFor,
} from '../../llm';
import type { Problem } from '../gameSlice';
import { fromContext } from './sagaContext';

/**
 * `problem`, or the refused permission behind it: only for a server this page needs the
 * permission to reach, and only when the browser says it is denied. Granted, not yet asked, or
 * a browser that knows no such permission: the problem stays as it is, CORS hint and all.
 */
export function* withLocalNetworkCause(problem: Problem) {
  if (problem.reason !== 'providerUnreachable' || problem.origin === null) return problem;
  const access = yield* fromContext('localNetwork');
  if (!access) return problem;
  const space = permissionSpaceFor(
    addressSpaceOfHost(access.pageHost),
    addressSpaceOfUrl(problem.origin),
  );
  if (!space) return problem;
  const state = yield* call(localNetworkPermission, access, space);
  if (state !== 'denied') return problem;
  // A page that is not a secure context is never given the permission: the browser denies it
  // without asking, and only the site's https address can help.
  const reason = access.secureContext ? 'localNetworkDenied' : 'localNetworkInsecure';
  return { ...problem, reason, ownServer: false } satisfies Problem;
}
