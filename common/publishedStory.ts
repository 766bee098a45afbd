/**
 * The published story's page, /story/<id> (DESIGN.md, "Cloud saves and published stories"):
 * what the SPA's page (src/features/stories/published) and the Node server's Open Graph tags
 * (server/storyPage.ts) must agree on.
 */

/** A story's id as the database keeps it (stories.id, a UUID); no other path is a story. */
const STORY_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export const isStoryId = (value: string): boolean => STORY_ID.test(value);

/** The page's path, as the leaderboard links it and the server answers it. */
export const storyPath = (id: string): string => `/story/${id}`;

/** The page's title: the character's name and the genre, "Mira · Fantasy". */
export function storyTitle(characterName: string, genre: string): string {
  return [characterName.trim(), genre.trim()].filter((part) => part !== '').join(' · ');
}
