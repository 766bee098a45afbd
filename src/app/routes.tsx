import { lazy, type ComponentType } from 'react';
import { Navigate, Route, Routes } from 'react-router-dom';
import { HomePage } from './HomePage';
import { loadMessages } from './intl/catalogues';
import type { LaterMessagePart } from '../shared/messageParts';
import { Layout } from './layout/Layout';
import { injectBackendApi } from './store';

/** The backend API (RTK Query) joins the store with the first page that talks to it. */
const loadBackendApi = () =>
  import(/* webpackChunkName: "api" */ '../api/baseApi').then((m) => injectBackendApi(m.baseApi));

/**
 * A page as its own chunk, fetched when first visited, with the backend API and its part of
 * the messages ready for it.
 */
function backendPage(load: () => Promise<ComponentType>, ...messages: LaterMessagePart[]) {
  return lazy(async () => {
    const [Page] = await Promise.all([
      load(),
      loadBackendApi(),
      ...messages.map((part) => loadMessages(part)),
    ]);
    return { default: Page };
  });
}

const GamePage = backendPage(
  () => import(/* webpackChunkName: "game" */ './GameRoute').then((m) => m.GameRoute),
  'pages',
);
const LeaderboardPage = backendPage(
  () =>
    import(/* webpackChunkName: "leaderboard" */ '../features/leaderboard/LeaderboardPage').then(
      (m) => m.LeaderboardPage,
    ),
  'pages',
);
const PublishedStoryPage = backendPage(
  () =>
    import(/* webpackChunkName: "story" */ './PublishedStoryRoute').then(
      (m) => m.PublishedStoryRoute,
    ),
  'pages',
  'sharing',
);
const ProfilePage = backendPage(
  () =>
    import(/* webpackChunkName: "profile" */ '../features/profile/ProfilePage').then(
      (m) => m.ProfilePage,
    ),
  'profile',
);

/**
 * SPEC.md section 2, Routes: /, /game, /profile, /leaderboard; and a published story,
 * /story/<id> (DESIGN.md, "Cloud saves and published stories"). Anything else goes to /.
 */
export function AppRoutes() {
  return (
    <Routes>
      <Route element={<Layout />}>
        <Route index element={<HomePage />} />
        <Route path="game" element={<GamePage />} />
        <Route path="leaderboard" element={<LeaderboardPage />} />
        <Route path="profile" element={<ProfilePage />} />
        <Route path="story/:id" element={<PublishedStoryPage />} />
        <Route path="*" element={<Navigate to="/" replace />} />
      </Route>
    </Routes>
  );
}
