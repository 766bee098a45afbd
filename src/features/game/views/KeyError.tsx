import { FormattedMessage } from 'react-intl';
import type { Problem } from '../gameSlice';
import type { KeyFormError } from './keyDraft';
import { LimitReset } from './LimitReset';
import { LocalNetworkSlot, isLocalNetworkRefusal } from './localNetworkSlots';
import { ProblemDetail } from './ProblemDetail';
import { useProviderName } from './providerName';

interface KeyErrorProps {
  /** The form's own field check when it has one, the key check's error otherwise. */
  error: KeyFormError;
  /** Whether the error is the form's own: then nothing from the provider is shown. */
  fromForm: boolean;
  /** What the provider said when the key check failed, if it did. */
  detail: Problem | null;
  /** The provider and model the form shows, for messages the detail does not name. */
  providerId: string;
  model: string;
}

/**
 * Why the key was not taken, in the interface language: one of the form's own field checks, or
 * what the key check met (a wallet not verified, a refused key, a retired model, no credit, a
 * daily cap, a server out of reach, the browser's Local Network Access refused), with when a
 * limit resets and the provider's own words beneath.
 */
export function KeyError({ error, fromForm, detail, providerId, model }: KeyErrorProps) {
  const providerName = useProviderName();
  if (!fromForm && detail && isLocalNetworkRefusal(detail)) {
    // The browser refused, not the provider: its own words, and nothing of the provider's.
    return (
      <div className="setup-error" role="alert">
        <LocalNetworkSlot problem={detail} withCause className="setup-error__detail" />
      </div>
    );
  }
  return (
    <div className="setup-error" role="alert">
      <p>
        <FormattedMessage
          id={`game.key.error.${error}`}
          values={{
            provider: providerName(detail?.provider ?? providerId),
            model: detail?.model ?? model,
            origin: detail?.origin ?? '',
          }}
        />
      </p>
      {!fromForm && typeof detail?.resetsAt === 'number' && (
        <LimitReset resetsAt={detail.resetsAt} />
      )}
      {!fromForm && detail && (
        <ProblemDetail
          problem={detail}
          // The messages above already say what a refused key or model means.
          withReason={error === 'keyCheckFailed'}
          className="setup-error__detail"
        />
      )}
    </div>
  );
}
