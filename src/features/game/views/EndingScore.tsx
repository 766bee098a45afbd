import { useId } from 'react';
import { FormattedMessage, FormattedNumber, useIntl } from 'react-intl';
import type { EndingScore as EndingScoreParts } from '../../../engine/score';

interface EndingScoreProps {
  /** The game's result's score (gameResultOf), read, never worked out here. */
  score: number;
  /** The formula's terms, shown as the way to that score. */
  parts: EndingScoreParts;
  /** How many turns were written again: shown beside the score, as on the board. */
  rewrites: number;
}

/** The adventure score and how it was reached (SPEC.md section 9, Ending score). */
export function EndingScore({ score, parts, rewrites }: EndingScoreProps) {
  const intl = useIntl();
  const headingId = useId();
  const number = (value: number) => intl.formatNumber(value, { maximumFractionDigits: 2 });
  return (
    <section className="ending-section ending-score" aria-labelledby={headingId}>
      <h2 id={headingId}>
        <FormattedMessage id="game.ending.score.heading" />
      </h2>
      <p className="ending-score__value">
        <FormattedNumber value={score} />
      </p>
      <p className="ending-score__rewrites">
        <FormattedMessage id="game.ending.rewrites" values={{ count: rewrites }} />
      </p>
      <dl className="ending-score__parts">
        <div>
          <dt>
            <FormattedMessage id="game.ending.score.base" />
          </dt>
          <dd>{number(parts.base)}</dd>
        </div>
        <div>
          <dt>
            <FormattedMessage id="game.ending.score.bonus" />
          </dt>
          <dd>{number(parts.bonus)}</dd>
        </div>
        <div>
          <dt>
            <FormattedMessage id="game.ending.score.multiplier" />
          </dt>
          <dd>×{number(parts.multiplier)}</dd>
        </div>
      </dl>
      <p className="ending-score__formula">
        <FormattedMessage
          id="game.ending.score.formula"
          values={{
            base: number(parts.base),
            bonus: number(parts.bonus),
            multiplier: number(parts.multiplier),
            score: number(score),
          }}
        />
      </p>
    </section>
  );
}
