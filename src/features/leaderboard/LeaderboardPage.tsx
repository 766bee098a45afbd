import { FormattedMessage } from 'react-intl';

/** /leaderboard: the top 20 results. The table arrives with the backend. */
export function LeaderboardPage() {
  return (
    <section className="panel">
      <h1>
        <FormattedMessage id="leaderboard.heading" />
      </h1>
      <p className="muted">
        <FormattedMessage id="leaderboard.unavailable" />
      </p>
    </section>
  );
}
