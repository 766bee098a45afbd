import { useId } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import type { PlayerStats, ScoreBreakdown } from '../../../engine/types';

const BARS: ReadonlyArray<[keyof ScoreBreakdown, string]> = [
  ['decisions', 'game.ending.decisions'],
  ['consistency', 'game.ending.consistency'],
  ['creativity', 'game.ending.creativity'],
  ['morality', 'game.ending.morality'],
];

/** The recap's four ratings, each 0 to 100, as labelled meters. */
export function PerformanceBars({ scoreBreakdown }: { scoreBreakdown: ScoreBreakdown }) {
  const headingId = useId();
  return (
    <section className="ending-section" aria-labelledby={headingId}>
      <h2 id={headingId}>
        <FormattedMessage id="game.ending.performance" />
      </h2>
      <ul className="meters">
        {BARS.map(([key, labelId]) => (
          <Meter key={key} labelId={labelId} value={scoreBreakdown[key]} />
        ))}
      </ul>
    </section>
  );
}

function Meter({ labelId, value }: { labelId: string; value: number }) {
  const intl = useIntl();
  const id = useId();
  const shown = Math.round(Math.min(100, Math.max(0, value)));
  return (
    <li className="meter">
      <span className="meter__label">
        <span id={id}>
          <FormattedMessage id={labelId} />
        </span>
        <span className="meter__value" aria-hidden="true">
          {shown}
        </span>
      </span>
      <span
        className="meter__track"
        role="meter"
        aria-labelledby={id}
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={shown}
        aria-valuetext={intl.formatMessage({ id: 'game.ending.meterValue' }, { value: shown })}
      >
        <span className="meter__fill" style={{ width: `${shown}%` }} />
      </span>
    </li>
  );
}

/** Moral Score (-100..100), Risk Score, Trait Consistency and the success rate in percent. */
export function EndingStats({ playerStats }: { playerStats: PlayerStats }) {
  const intl = useIntl();
  const headingId = useId();
  const stats: Array<[string, string]> = [
    [
      'game.ending.moralScore',
      intl.formatNumber(Math.round(playerStats.moralScore), { signDisplay: 'exceptZero' }),
    ],
    ['game.ending.riskScore', intl.formatNumber(Math.round(playerStats.riskScore))],
    ['game.ending.traitConsistency', intl.formatNumber(Math.round(playerStats.traitConsistency))],
    [
      'game.ending.successRate',
      intl.formatNumber(playerStats.successRate / 100, {
        style: 'percent',
        maximumFractionDigits: 0,
      }),
    ],
  ];
  return (
    <section className="ending-section" aria-labelledby={headingId}>
      <h2 id={headingId}>
        <FormattedMessage id="game.ending.stats" />
      </h2>
      <dl className="ending-stats">
        {stats.map(([labelId, value]) => (
          <div key={labelId} className="ending-stats__item">
            <dt>
              <FormattedMessage id={labelId} />
            </dt>
            <dd>{value}</dd>
          </div>
        ))}
      </dl>
    </section>
  );
}
