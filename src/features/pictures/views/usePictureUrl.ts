import { useEffect, useState } from 'react';
import { openStoriesDb, pictureAt, selectCurrentRecord, type StoriesDb } from '../../stories';
import { useAppSelector } from '../../../shared/hooks';

/** MyStoriesDB for the page's pictures, opened once. */
let opened: Promise<StoriesDb> | null = null;
const storiesDb = () => {
  opened ??= openStoriesDb().catch((error: unknown) => {
    opened = null;
    throw error;
  });
  return opened;
};

/**
 * A kept picture of the story being played, as a blob: URL the page may show (issue 41, part 5:
 * never the provider's address), made when it is shown and let go when it is not; null while
 * it is read, or if it cannot be.
 */
export function usePictureUrl(turn: number, shown: boolean): string | null {
  const storyId = useAppSelector(selectCurrentRecord)?.id ?? null;
  const [url, setUrl] = useState<string | null>(null);
  useEffect(() => {
    if (!shown || storyId === null) return undefined;
    let made: string | null = null;
    let gone = false;
    storiesDb()
      .then((db) => pictureAt(db, storyId, turn))
      .then((picture) => {
        if (gone || !picture) return;
        made = URL.createObjectURL(picture.blob);
        setUrl(made);
      })
      .catch((error: unknown) => console.warn('A picture could not be read', error));
    return () => {
      gone = true;
      if (made !== null) URL.revokeObjectURL(made);
      setUrl(null);
    };
  }, [storyId, turn, shown]);
  return url;
}
