import { FormattedDate, FormattedMessage, FormattedNumber } from 'react-intl';
import { ProfileError } from './ProfileError';
import { useGetProfileStatsQuery } from './profileApi';
import type { ProfileStats } from './profileStats';

/** SPEC.md section 2, Profile: Game Statistics, loaded for the signed-in wallet. */
export function GameStatisticsPanel({ address }: { address: string }) {
  const { data, isError, refetch } = useGetProfileStatsQuery(address);
  return (
    <section className="panel profile-panel profile-stats" aria-labelledby="profile-stats">
      <h2 id="profile-stats">
        <FormattedMessage id="profile.stats.heading" />
      </h2>
      {data ? (
        <GameStatistics stats={data} />
      ) : isError ? (
        <ProfileError messageId="profile.error.stats" onRetry={refetch} />
      ) : (
        <p className="muted" role="status">
          <FormattedMessage id="profile.stats.loading" />
        </p>
      )}
    </section>
  );
}

const TOTALS = [
  { key: 'totalGames', label: 'profile.stats.totalGames' },
  { key: 'totalScore', label: 'profile.stats.totalScore' },
  { key: 'totalTurns', label: 'profile.stats.totalTurns' },
  { key: 'highScore', label: 'profile.stats.highScore' },
] as const;

export function GameStatistics({ stats }: { stats: ProfileStats }) {
  return (
    <>
      <dl className="stat-grid">
        {TOTALS.map(({ key, label }) => (
          <div className="stat" key={key}>
            <dt className="stat__label">
              <FormattedMessage id={label} />
            </dt>
            <dd className="stat__value">
              <FormattedNumber value={stats[key]} />
            </dd>
          </div>
        ))}
      </dl>
      <h3 className="recent-games__heading">
        <FormattedMessage id="profile.stats.recent" />
      </h3>
      {stats.recentGames.length === 0 ? (
        <p className="muted">
          <FormattedMessage id="profile.stats.empty" />
        </p>
      ) : (
        <table className="recent-games">
          <thead>
            <tr>
              <th scope="col">
                <FormattedMessage id="profile.stats.date" />
              </th>
              <th scope="col" className="numeric">
                <FormattedMessage id="profile.stats.score" />
              </th>
              <th scope="col" className="numeric">
                <FormattedMessage id="profile.stats.turns" />
              </th>
            </tr>
          </thead>
          <tbody>
            {stats.recentGames.map((game, index) => (
              <tr key={`${game.date}-${index}`}>
                <td>
                  <GameDate iso={game.date} />
                </td>
                <td className="numeric">
                  <FormattedNumber value={game.score} />
                </td>
                <td className="numeric">
                  <FormattedNumber value={game.turns} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </>
  );
}

function GameDate({ iso }: { iso: string }) {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return <>{iso}</>;
  return (
    <time dateTime={iso}>
      <FormattedDate value={date} year="numeric" month="short" day="numeric" />
    </time>
  );
}
