import { FormattedMessage } from 'react-intl';
import { addressSpaceOfUrl } from '../../llm';
import type { Problem, ProblemReason } from '../gameSlice';
import { useProviderName } from './providerName';

/** Each cause in the catalogues' words; some are the spec's messages, said elsewhere too. */
const REASON_MESSAGE: Readonly<Record<ProblemReason, string>> = {
  invalidApiKey: 'game.key.error.invalidApiKey',
  modelUnavailable: 'game.key.error.modelUnavailable',
  providerUnreachable: 'game.problem.providerUnreachable',
  localNetworkDenied: 'game.problem.localNetworkDenied',
  localNetworkInsecure: 'game.problem.localNetworkInsecure',
  noAnswer: 'game.problem.noAnswer',
  retriesExhausted: 'game.loading.failed',
  replyCutOff: 'game.problem.replyCutOff',
  dailyLimit: 'game.problem.dailyLimit',
  noCredit: 'game.problem.noCredit',
  requestTooLarge: 'game.problem.requestTooLarge',
  providerError: 'game.problem.providerError',
  unexpected: 'game.problem.unexpected',
};

interface ProblemDetailProps {
  problem: Problem;
  /** Say the cause in the game's words too (off where the main message already says it). */
  withReason?: boolean;
  className: string;
}

/** Whether the player's server is on their computer or their network, for the words. */
export const localSpaceOf = (origin: string | null): 'loopback' | 'local' =>
  addressSpaceOfUrl(origin ?? '') === 'local' ? 'local' : 'loopback';

/**
 * The lines under an error message (DESIGN.md: alerts become in-page messages, in the
 * interface language): the cause in the game's words, the CORS hint for the player's own
 * server (or, when the browser's Local Network Access permission is refused, where to allow
 * it), and the provider's own message, quoted as it said it.
 */
export function ProblemDetail({ problem, withReason = true, className }: ProblemDetailProps) {
  const provider = useProviderName()(problem.provider);
  const values = {
    provider,
    model: problem.model,
    origin: problem.origin ?? '',
    status: problem.status ?? 0,
    metric: problem.limitMetric ?? 'other',
    space: localSpaceOf(problem.origin),
  };
  return (
    <>
      {withReason && (
        <p className={className}>
          <FormattedMessage id={REASON_MESSAGE[problem.reason]} values={values} />
        </p>
      )}
      {problem.reason === 'providerUnreachable' && problem.ownServer && (
        <p className={className}>
          <FormattedMessage
            id="game.problem.corsHint"
            values={{ pageOrigin: window.location.origin }}
          />
        </p>
      )}
      {problem.reason === 'localNetworkDenied' && (
        <p className={className}>
          <FormattedMessage id="game.problem.localNetworkHowToAllow" values={values} />
        </p>
      )}
      {problem.providerMessage && (
        <p className={className}>
          <FormattedMessage
            id="game.problem.providerSaid"
            values={{
              provider,
              // The provider's words as it sent them (in English), marked as a quote.
              message: (
                <q className="problem-quote" lang="en">
                  {problem.providerMessage}
                </q>
              ),
            }}
          />
        </p>
      )}
    </>
  );
}
