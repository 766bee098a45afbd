/**
 * Which messages come with the home screen's own code (the entry point) and which with the
 * pages and parts loaded after it: by the id's first word. The home screen's code shows only
 * these; every other message arrives with the code that shows it (catalogues.ts), so / does
 * not download the game's, the leaderboard's and the profile's words before it paints.
 */
const HOME_MESSAGE_PREFIXES: ReadonlySet<string> = new Set([
  'app',
  'nav',
  'home',
  'language',
  'common',
  'error',
  'wallet',
]);

export const isHomeMessage = (id: string): boolean =>
  HOME_MESSAGE_PREFIXES.has(id.slice(0, id.indexOf('.')));
