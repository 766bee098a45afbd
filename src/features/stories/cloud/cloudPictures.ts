// A cloud story's pictures, through the backend (migration 20261128000000_story_pictures.sql):
// one picture goes up at a time, its bytes as base64; the list of what the cloud keeps is read
// without the bytes, and a picture comes down whole, checked as an imported one is
// (picturesFile.ts). Row-level security makes them the signed-in wallet's only (and anyone's to
// read once the story is published, which the published page does on its own).
import type { BackendClient } from '../../../api';
import { bytesToBase64 } from '../pictures/base64';
import { readExportedPictures, type ImportedPicture } from '../pictures/picturesFile';
import type { StoryPicture } from '../pictures/storyPicture';
import { checked } from './cloudList';

/** A picture the cloud keeps, as its list names it: which turn, and which drawing of it. */
export interface CloudPictureEntry {
  turn: number;
  createdAt: string;
}

interface PictureRow {
  turn: number;
  moment: string;
  media_type: string;
  data: string;
  bytes: number;
  width: number;
  height: number;
  alt: string;
  model: string;
  created_at: string;
}

/** The same instant however it is written (the database's timestamptz, or the browser's ISO). */
export const sameInstant = (a: string, b: string) => Date.parse(a) === Date.parse(b);

/** Keeps one picture with cloud story `storyId`, replacing the one its turn had. */
export async function savePictureToCloud(
  client: BackendClient,
  storyId: string,
  picture: StoryPicture,
): Promise<void> {
  checked(
    await client.rpc('save_story_picture', {
      p_story_id: storyId,
      p_turn: picture.turn,
      p_moment: picture.moment,
      p_media_type: picture.mediaType,
      p_data: bytesToBase64(new Uint8Array(await picture.blob.arrayBuffer())),
      p_width: picture.width,
      p_height: picture.height,
      p_alt: picture.alt,
      p_model: picture.model,
      p_created_at: picture.createdAt,
    }),
  );
}

/** What the cloud keeps of a story's pictures, without their bytes. */
export async function listCloudPictures(
  client: BackendClient,
  storyId: string,
): Promise<CloudPictureEntry[]> {
  const { data } = checked(
    await client
      .from('story_pictures')
      .select('turn,created_at')
      .eq('story_id', storyId)
      .order('turn'),
  );
  return ((data ?? []) as Pick<PictureRow, 'turn' | 'created_at'>[]).map((row) => ({
    turn: row.turn,
    createdAt: row.created_at,
  }));
}

/**
 * One picture of a cloud story, whole and checked as an import's is; null when the cloud has
 * none at that turn, or one the browser would not keep.
 */
export async function fetchCloudPicture(
  client: BackendClient,
  storyId: string,
  turn: number,
): Promise<ImportedPicture | null> {
  const { data } = checked(
    await client
      .from('story_pictures')
      .select('turn,moment,media_type,data,bytes,width,height,alt,model,created_at')
      .eq('story_id', storyId)
      .eq('turn', turn),
  );
  const [row] = (data ?? []) as PictureRow[];
  if (!row) return null;
  const { pictures } = readExportedPictures([
    {
      turn: row.turn,
      moment: row.moment,
      mediaType: row.media_type,
      width: row.width,
      height: row.height,
      bytes: row.bytes,
      alt: row.alt,
      model: row.model,
      createdAt: new Date(row.created_at).toISOString(),
      // PostgreSQL's own base64 breaks lines; the browser's never does.
      data: row.data.replace(/\s+/g, ''),
    },
  ]);
  return pictures[0] ?? null;
}

export async function deleteCloudPicture(
  client: BackendClient,
  storyId: string,
  turn: number,
): Promise<void> {
  checked(await client.from('story_pictures').delete().eq('story_id', storyId).eq('turn', turn));
}
