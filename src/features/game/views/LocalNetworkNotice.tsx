import { FormattedMessage } from 'react-intl';
import {
  addressSpaceOfHost,
  addressSpaceOfUrl,
  baseUrlOf,
  connectOriginOf,
  permissionSpaceFor,
  type ProviderPreset,
} from '../../llm';

interface LocalNetworkNoticeProps {
  preset: ProviderPreset;
  /** The base URL the form holds (for the presets that let the player name one). */
  baseUrl: string;
}

/**
 * Before the key check, for a server on the player's own computer or network that this page
 * needs the browser's Local Network Access permission to reach (DESIGN.md, "Local models from
 * a public site"): the browser is about to ask, and Allow is the answer. On a plain http page,
 * which the browser never lets reach it, that it cannot. Nothing at all where no permission is
 * asked: the hosted providers, or a page on the player's own computer.
 */
export function LocalNetworkNotice({ preset, baseUrl }: LocalNetworkNoticeProps) {
  const target = baseUrlOf(preset, baseUrl);
  const { hostname } = window.location;
  const space = permissionSpaceFor(addressSpaceOfHost(hostname), addressSpaceOfUrl(target));
  if (!space) return null;
  // A browser that does not say (no isSecureContext at all) is taken at its word: secure.
  const secure = window.isSecureContext !== false;
  return (
    <p className="setup-local-network" role="note">
      <FormattedMessage
        id={secure ? 'game.key.localNetwork.notice' : 'game.key.localNetwork.insecure'}
        values={{ space, origin: connectOriginOf(target) ?? target }}
      />
    </p>
  );
}
