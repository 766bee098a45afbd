import { FormattedMessage } from 'react-intl';
import type { Problem } from '../gameSlice';

interface ProblemDetailProps {
  problem: Problem;
  /** Say the cause in the game's words too (off where the main message already says it). */
  withReason?: boolean;
  className: string;
}

/**
 * The lines under an error message (issue 11): the cause in the interface language, the CORS
 * hint for the player's own server, and the provider's own message, quoted as it said it.
 */
export function ProblemDetail({ problem, withReason = true, className }: ProblemDetailProps) {
  const values = {
    provider: problem.provider,
    model: problem.model,
    origin: problem.origin ?? '',
    status: problem.status ?? 0,
  };
  return (
    <>
      {withReason && (
        <p className={className}>
          <FormattedMessage id={`game.problem.${problem.reason}`} values={values} />
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
              provider: problem.provider,
              // The provider's words as it sent them (usually English), marked as a quote.
              message: <q className="problem-quote">{problem.providerMessage}</q>,
            }}
          />
        </p>
      )}
    </>
  );
}
