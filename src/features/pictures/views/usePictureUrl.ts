import { useEffect, useState } from 'react';
import { openStoriesDb, openedOnce, pictureAt } from '../../stories';

/** MyStoriesDB for the page's pictures, opened once (and again if the browser drops it). */
const storiesDb = openedOnce(openStoriesDb);

/**
 * A kept picture, as a blob: URL the page may show (issue 41, part 5: never the provider's
 * address), made when it is shown and let go when it is not: null while it is read; 'gone' when
 * MyStoriesDB no longer keeps it (its story deleted, as a finished story is once its result is
 * on the leaderboard) or cannot be read.
 */
export function usePictureUrl(storyId: number | null, turn: number): string | 'gone' | null {
  const [url, setUrl] = useState<string | 'gone' | null>(null);
  useEffect(() => {
    if (storyId === null) return undefined;
    let made: string | null = null;
    let left = false;
    storiesDb()
      .then((db) => pictureAt(db, storyId, turn))
      .then((picture) => {
        if (left) return;
        if (!picture) {
          setUrl('gone');
          return;
        }
        made = URL.createObjectURL(picture.blob);
        setUrl(made);
      })
      .catch((error: unknown) => {
        console.warn('A picture could not be read', error);
        if (!left) setUrl('gone');
      });
    return () => {
      left = true;
      if (made !== null) URL.revokeObjectURL(made);
      setUrl(null);
    };
  }, [storyId, turn]);
  return url;
}
