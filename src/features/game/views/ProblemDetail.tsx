import { FormattedMessage } from 'react-intl';
import type { Problem, ProblemReason } from '../gameSlice';
import { LocalNetworkSlot } from './localNetworkSlots';
import { useProviderName } from './providerName';

/**
 * Each cause in the catalogues' words; some are the spec's messages, said elsewhere too. A
 * refused Local Network Access is said with its own part of the messages (LocalNetworkLines).
 */
const REASON_MESSAGE: Readonly<
  Record<Exclude<ProblemReason, 'localNetworkDenied' | 'localNetworkInsecure'>, string>
> = {
  invalidApiKey: 'game.key.error.invalidApiKey',
  modelUnavailable: 'game.key.error.modelUnavailable',
  providerUnreachable: 'game.problem.providerUnreachable',
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
  };
  if (problem.reason === 'localNetworkDenied' || problem.reason === 'localNetworkInsecure') {
    return (
      <LocalNetworkSlot
        problem={problem}
        withCause={withReason}
        causeClassName={className}
        className={className}
      />
    );
  }
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
