import { FormattedDate, FormattedMessage, FormattedNumber, useIntl } from 'react-intl';
import type { SerializedError } from '@reduxjs/toolkit';
import { Link } from '../../shared/links';
import { storyPath } from '../../../common/publishedStory';
import type { BackendError } from '../../api';
import { toEnglishEndingType } from '../../engine/score';
import { shortenGenre } from '../../engine/text';
import { LEADERBOARD_SIZE, useGetLeaderboardQuery, type LeaderboardEntry } from './leaderboardApi';
import './leaderboard.css';

const HEADING_ID = 'leaderboard-heading';

/** The columns of SPEC.md section 2, Leaderboard, in order, with their headings. */
const COLUMNS = {
  rank: 'leaderboard.column.rank',
  character: 'leaderboard.column.character',
  genre: 'leaderboard.column.genre',
  score: 'leaderboard.column.score',
  turns: 'leaderboard.column.turns',
  ending: 'leaderboard.column.ending',
  date: 'leaderboard.column.date',
} as const;
type Column = keyof typeof COLUMNS;

/** /leaderboard: the top 20 results, readable without a wallet (SPEC.md section 6). */
export function LeaderboardPage() {
  const { data, error, isFetching, refetch } = useGetLeaderboardQuery();
  // While a retry runs, the loading line replaces the error.
  const showError = error !== undefined && !isFetching;

  return (
    <section className="panel leaderboard">
      <h1 id={HEADING_ID}>
        <FormattedMessage id="leaderboard.heading" />
      </h1>
      <p className="muted leaderboard-intro">
        <FormattedMessage id="leaderboard.intro" values={{ count: LEADERBOARD_SIZE }} />
      </p>
      {showError && <LoadError error={error} onRetry={refetch} />}
      {data && data.length > 0 && <LeaderboardTable entries={data} />}
      {data && data.length === 0 && (
        <p className="leaderboard-empty">
          <FormattedMessage id="leaderboard.empty" />
        </p>
      )}
      {!data && !showError && (
        <p className="leaderboard-loading" role="status">
          <FormattedMessage id="leaderboard.loading" />
        </p>
      )}
    </section>
  );
}

function LoadError({
  error,
  onRetry,
}: {
  error: BackendError | SerializedError;
  onRetry: () => void;
}) {
  return (
    <div className="leaderboard-error">
      <p role="alert">
        <span aria-hidden="true" className="error-icon">
          !
        </span>
        {error.message ? (
          <FormattedMessage
            id="leaderboard.error.withMessage"
            values={{ message: error.message }}
          />
        ) : (
          <FormattedMessage id="leaderboard.error.unexpected" />
        )}
      </p>
      <button type="button" className="button" onClick={onRetry}>
        <FormattedMessage id="common.retry" />
      </button>
    </div>
  );
}

function LeaderboardTable({ entries }: { entries: readonly LeaderboardEntry[] }) {
  const intl = useIntl();
  // Phones show each value under its column's name (see leaderboard.css).
  const label = (column: Column) => intl.formatMessage({ id: COLUMNS[column] });

  // Explicit roles keep the table's meaning for screen readers when phones stack the rows
  // (CSS display changes drop the native table semantics in some browsers).
  return (
    <div className="leaderboard-scroll" role="region" aria-labelledby={HEADING_ID} tabIndex={0}>
      <table className="leaderboard-table" role="table" aria-labelledby={HEADING_ID}>
        <thead role="rowgroup">
          <tr role="row">
            {Object.entries(COLUMNS).map(([key, id]) => (
              <th key={key} scope="col" role="columnheader" className={`cell-${key}`}>
                <FormattedMessage id={id} />
              </th>
            ))}
          </tr>
        </thead>
        <tbody role="rowgroup">
          {entries.map((entry, index) => {
            const rank = index + 1;
            return (
              <tr
                key={`${rank}-${entry.wallet_address}-${entry.created_at}`}
                role="row"
                className={rank <= 3 ? `top-${rank}` : undefined}
              >
                <td role="cell" className="cell-rank">
                  <RankBadge rank={rank} />
                </td>
                <td role="cell" className="cell-character">
                  <CharacterName entry={entry} />
                </td>
                <td role="cell" className="cell-genre" data-label={label('genre')}>
                  <span title={entry.genre}>{shortenGenre(entry.genre)}</span>
                </td>
                <td role="cell" className="cell-score" data-label={label('score')}>
                  <FormattedNumber value={entry.score} />
                  <Rewrites count={entry.rewrites} />
                </td>
                <td role="cell" className="cell-turns" data-label={label('turns')}>
                  <FormattedNumber value={entry.turn_count} />
                </td>
                <td role="cell" className="cell-ending" data-label={label('ending')}>
                  {/* SPEC.md section 2: Korean ending names are shown as the English ones. */}
                  {toEnglishEndingType(entry.ending_type)}
                </td>
                <td role="cell" className="cell-date" data-label={label('date')}>
                  <EntryDate iso={entry.created_at} />
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}

/** The character's name; while the result's story is published, a link to it. */
function CharacterName({ entry }: { entry: LeaderboardEntry }) {
  if (!entry.published_story_id) return <>{entry.character_name}</>;
  return (
    <Link className="leaderboard-story-link" to={storyPath(entry.published_story_id)}>
      {entry.character_name}
      <span className="visually-hidden">
        {', '}
        <FormattedMessage id="leaderboard.readStory" />
      </span>
      <span className="leaderboard-story-link__icon" aria-hidden="true">
        ❧
      </span>
    </Link>
  );
}

const MEDALS = [
  { name: 'gold', label: 'leaderboard.medal.gold' },
  { name: 'silver', label: 'leaderboard.medal.silver' },
  { name: 'bronze', label: 'leaderboard.medal.bronze' },
] as const;

/** The rank number; the top three also wear a medal (a shape and a name, not colour alone). */
function RankBadge({ rank }: { rank: number }) {
  const intl = useIntl();
  const medal = MEDALS[rank - 1];
  return (
    <span className={medal ? `rank-badge rank-badge--${medal.name}` : 'rank-badge'}>
      {medal && (
        <svg
          className="rank-medal"
          viewBox="0 0 24 28"
          width="22"
          height="26"
          role="img"
          aria-label={intl.formatMessage({ id: medal.label })}
        >
          <path className="rank-medal__ribbon" d="M5 0h5l3 9H8zM14 0h5l-3 9h-5z" />
          <circle className="rank-medal__disc" cx="12" cy="18" r="8.5" />
          <circle className="rank-medal__rim" cx="12" cy="18" r="6" fill="none" />
        </svg>
      )}
      <span className="rank-number">
        <FormattedNumber value={rank} />
      </span>
    </span>
  );
}

/**
 * Under the score, how many times the game had a turn written again: a rewrite never
 * changes the outcome, but a reader comparing scores should see it. A game without rewrites shows
 * nothing, keeping the column quiet.
 */
function Rewrites({ count }: { count: number }) {
  if (!count) return null;
  return (
    <span className="score-rewrites">
      <FormattedMessage id="leaderboard.rewrites" values={{ count }} />
    </span>
  );
}

function EntryDate({ iso }: { iso: string }) {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return <>{iso}</>;
  return (
    <time dateTime={iso}>
      <FormattedDate value={date} year="numeric" month="short" day="numeric" />
    </time>
  );
}
