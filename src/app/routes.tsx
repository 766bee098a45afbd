import { lazy } from 'react';
import { Navigate, Route, Routes } from 'react-router-dom';
import { HomePage } from './HomePage';
import { Layout } from './layout/Layout';

// Each page beyond the home screen is its own chunk, fetched when first visited.
const GamePage = lazy(() =>
  import(/* webpackChunkName: "game" */ '../features/game/GamePage').then((m) => ({
    default: m.GamePage,
  })),
);
const LeaderboardPage = lazy(() =>
  import(/* webpackChunkName: "leaderboard" */ '../features/leaderboard/LeaderboardPage').then(
    (m) => ({ default: m.LeaderboardPage }),
  ),
);
const ProfilePage = lazy(() =>
  import(/* webpackChunkName: "profile" */ '../features/profile/ProfilePage').then((m) => ({
    default: m.ProfilePage,
  })),
);

/** SPEC.md section 2, Routes: /, /game, /profile, /leaderboard; anything else goes to /. */
export function AppRoutes() {
  return (
    <Routes>
      <Route element={<Layout />}>
        <Route index element={<HomePage />} />
        <Route path="game" element={<GamePage />} />
        <Route path="leaderboard" element={<LeaderboardPage />} />
        <Route path="profile" element={<ProfilePage />} />
        <Route path="*" element={<Navigate to="/" replace />} />
      </Route>
    </Routes>
  );
}
