/**
 * A story's pictures going up (issue 41), the cloud place's pictures part: one more part the
 * pipeline writes to the wallet's cloud, in the same rounds as the saves (sending.ts) and under
 * the same failure policy. A story's pictures are set beside the cloud's once its record is there
 * (after each of its saves went up, after a picture of it was kept, and for every story of the
 * wallet that keeps pictures when sending starts): each picture the cloud does not keep, or keeps
 * an older drawing of, goes up once; one the browser let go (its paragraph written again, told
 * by stories/pictureForgotten) is deleted there too, and only such a one: a picture the browser
 * merely lacks (it did not come down, it was never drawn here) stays in the cloud. A picture the
 * cloud refused (past a bound, or its row's own data) stays in the browser, is said at the end of
 * a round, and is not sent again.
 */
import { call } from 'typed-redux-saga';
import { getStory } from '../../browserPlace';
import { picturesOf, storiesWithPictures } from '../../pictureStore';
import { sameWallet } from '../../savedStory';
import { storiesDb } from '../../sagas/storiesState';
import { signedInClient, type CloudPlace } from '../cloudPlace';
import {
  deleteCloudPicture,
  listCloudPictures,
  sameInstant,
  savePictureToCloud,
} from '../cloudPictures';
import type { PictureRefusal } from '../cloudModel';
import { CloudError } from '../cloudStories';

/** Where the cloud keeps browser story `localId`, or null while it keeps nothing of it. */
function* cloudIdOf(localId: number, place: CloudPlace, owner: string) {
  const heard = place.links.get(localId);
  if (heard && heard.revision > 0) return heard.id;
  const db = yield* storiesDb();
  const saved = yield* call(getStory, db, localId);
  if (!saved?.cloud || saved.cloud.revision === 0) return null;
  if (!sameWallet(saved.walletAddress, owner)) return null;
  return saved.cloud.id;
}

/**
 * Why the cloud will never take this drawing, however often it is sent: past a bound (a body
 * too large for the server, 413, is one), or its row's own data or constraints refused
 * (SQLSTATE classes 22 and 23; not 23503, its story gone, which is the story's). Null for
 * anything else, of the moment (no answer, the minute's writes, the session over) or of the
 * story or the backend (row-level security, a missing function): those stop the round, which
 * waits as a save would.
 */
function refusalOf(error: unknown): PictureRefusal | null {
  if (!(error instanceof CloudError)) return null;
  if (error.problem === 'picturesRefused' || error.problem === 'tooLarge') return 'picturesRefused';
  const ofTheRow = error.code !== null && /^2[23]/.test(error.code) && error.code !== '23503';
  return error.problem === 'failed' && ofTheRow ? 'pictureFailed' : null;
}

/**
 * Sets one story's pictures beside the cloud's. A picture the cloud refused (refusalOf) is left
 * in the browser, not sent again, and why is kept for the round's end to say
 * (place.refusalsUntold); any other failure's CloudError is thrown (the round stops, and waits
 * as a save would).
 */
export function* sendPicturesOf(localId: number, place: CloudPlace) {
  const { client, owner } = yield* call(signedInClient);
  const cloudId = yield* call(cloudIdOf, localId, place, owner);
  // Not in the cloud yet: its first save that goes up sends them.
  if (cloudId === null) return;
  const db = yield* storiesDb();
  const pictures = yield* call(picturesOf, db, localId);
  let kept = place.pictures.get(cloudId);
  if (!kept) {
    const listed = yield* call(listCloudPictures, client, cloudId);
    kept = new Map(listed.map((entry) => [entry.turn, entry.createdAt]));
    place.pictures.set(cloudId, kept);
  }
  for (const picture of pictures) {
    const there = kept.get(picture.turn);
    if (there !== undefined && sameInstant(there, picture.createdAt)) continue;
    const drawing = `${cloudId} ${picture.turn} ${picture.createdAt}`;
    if (place.picturesRefused.has(drawing)) continue;
    try {
      yield* call(savePictureToCloud, client, cloudId, picture);
      kept.set(picture.turn, picture.createdAt);
    } catch (error) {
      const refusal = refusalOf(error);
      if (refusal === null) throw error;
      console.warn('A picture was not kept with the wallet', error);
      place.picturesRefused.add(drawing);
      place.refusalsUntold.add(refusal);
    }
  }
  // The pictures the browser let go, unless one was drawn again since.
  const here = new Set(pictures.map((picture) => picture.turn));
  for (const turn of place.picturesForgotten.get(localId) ?? []) {
    if (here.has(turn)) continue;
    yield* call(deleteCloudPicture, client, cloudId, turn);
    kept.delete(turn);
  }
  place.picturesForgotten.delete(localId);
}

/**
 * Every story due, one at a time: each leaves the list once its pictures are set beside the
 * cloud's. Throws as sendPicturesOf does, the stories not yet done still due.
 */
export function* sendDuePictures(place: CloudPlace) {
  for (const localId of [...place.picturesDue]) {
    yield* call(sendPicturesOf, localId, place);
    place.picturesDue.delete(localId);
  }
}

/** When sending starts: every story here that keeps pictures is set beside the cloud's. */
export function* picturesDueFromBrowser(place: CloudPlace) {
  const db = yield* storiesDb();
  try {
    for (const id of yield* call(storiesWithPictures, db)) place.picturesDue.add(id);
  } catch (error) {
    // The browser's storage failed: the save flows say so; pictures wait for the next start.
    console.warn('Reading the stories with pictures failed', error);
  }
}
