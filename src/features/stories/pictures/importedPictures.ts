/**
 * An imported story's pictures kept under its new id (sagas/importing.ts), fetched with the
 * story files' code (storyFiles.ts) and only for a file that carries pictures: the checks a
 * kept picture goes through are no part of a game that imports nothing.
 */
import { type StoriesDb, toStorageError } from '../browserDb';
import { keepPicture } from '../pictureStore';
import type { SkippedPicture } from '../storyImportError';
import type { ImportedPicture } from './picturesFile';

/** Keeps the pictures one by one; returns the ones not kept, each with its reason. */
export async function keepImportedPictures(
  db: StoriesDb,
  storyId: number,
  pictures: readonly ImportedPicture[],
): Promise<SkippedPicture[]> {
  const notKept: SkippedPicture[] = [];
  for (const { index, ...picture } of pictures) {
    try {
      const kept = await keepPicture(db, { ...picture, storyId });
      if (!kept.kept) notKept.push({ index, turn: picture.turn, reason: kept.reason });
    } catch (error) {
      console.warn('An imported picture was not kept', toStorageError(error));
      notKept.push({ index, turn: picture.turn, reason: 'storageFailed' });
    }
  }
  return notKept;
}
