/**
 * What the key screen and a failed turn say about Local Network Access (DESIGN.md, "Local
 * models from a public site"), downloaded with its own words (the 'localNetwork' message part)
 * only where a page may need the player's permission: a whole game against a hosted provider,
 * or from a page on the player's own computer, never fetches it (localNetworkSlots.tsx).
 */
import { FormattedMessage } from 'react-intl';
import {
  addressSpaceOfHost,
  addressSpaceOfUrl,
  baseUrlOf,
  connectOriginOf,
  permissionSpaceFor,
  type ProviderPreset,
} from '../../llm';
import type { Problem } from '../gameSlice';
import { useProviderName } from './providerName';
import './localNetwork.css';

export interface LocalNetworkNoticeProps {
  preset: ProviderPreset;
  /** The base URL the form holds (for the presets that let the player name one). */
  baseUrl: string;
}

/**
 * Before the key check, for a server on the player's own computer or network that this page
 * needs the browser's permission to reach: the browser is about to ask, and Allow is the
 * answer. On a plain http page, which the browser never lets reach it, that it cannot. Nothing
 * where no permission is asked.
 */
function LocalNetworkNotice({ preset, baseUrl }: LocalNetworkNoticeProps) {
  const providerName = useProviderName();
  const target = baseUrlOf(preset, baseUrl);
  const space = permissionSpaceFor(
    addressSpaceOfHost(window.location.hostname),
    addressSpaceOfUrl(target),
  );
  if (!space) return null;
  // A browser that does not say (no isSecureContext at all) is taken at its word: secure.
  const secure = window.isSecureContext !== false;
  return (
    <p className="setup-local-network" role="note">
      <FormattedMessage
        id={secure ? 'localNetwork.notice' : 'localNetwork.insecure'}
        values={{ space, origin: connectOriginOf(target), provider: providerName(preset.id) }}
      />
    </p>
  );
}

export interface LocalNetworkLinesProps {
  /** A problem whose reason is localNetworkDenied or localNetworkInsecure. */
  problem: Problem;
  /** Say what the browser did (off where the message above says it), with this class. */
  withCause: boolean;
  causeClassName?: string;
  /** The class of the line that says, for a refused permission, how to allow it in Chrome. */
  className: string;
}

/** A refused permission: what the browser did, and (when the player can) how to allow it. */
function LocalNetworkLines({
  problem,
  withCause,
  causeClassName,
  className,
}: LocalNetworkLinesProps) {
  const provider = useProviderName()(problem.provider);
  const denied = problem.reason === 'localNetworkDenied';
  // The words name the player's computer, or their network, as the server's address says.
  const space = addressSpaceOfUrl(problem.origin ?? '') === 'local' ? 'local' : 'loopback';
  return (
    <>
      {withCause && (
        <p className={causeClassName}>
          <FormattedMessage
            id={denied ? 'localNetwork.denied' : 'localNetwork.insecure'}
            values={{ space, provider }}
          />
        </p>
      )}
      {denied && (
        <p className={className}>
          <FormattedMessage id="localNetwork.howToAllow" values={{ space }} />
        </p>
      )}
    </>
  );
}

export type LocalNetworkWordsProps = LocalNetworkNoticeProps | LocalNetworkLinesProps;

/** The notice before the check, or a refused permission's lines (localNetworkSlots.tsx). */
export function LocalNetworkWords(props: LocalNetworkWordsProps) {
  return 'problem' in props ? <LocalNetworkLines {...props} /> : <LocalNetworkNotice {...props} />;
}
