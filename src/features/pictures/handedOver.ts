/**
 * The pictures this page has just drawn and kept, handed by their flow (sagas/drawing.ts) to
 * their view (views/StoryPicture.tsx) by story and turn. The view shows the Blob it is handed at
 * once, rather than read back from MyStoriesDB what was written there a moment before: that read
 * was a transaction, a request and one more render on the main thread, in every turn with a
 * picture (issue 41, part 6). A picture is let go once its view has it, or once MyStoriesDB
 * lets it go (its paragraph written again), and every one when the story in play changes
 * (storyPictures.ts): what waits is the story in play's, as it is kept now, the last few at
 * most. Not state: a Blob is no event's payload, and the store says only that a picture is
 * shown; this is where its bytes are while it is new. A picture the view was not handed is read
 * from MyStoriesDB, as after a reload.
 */
const WAITING_AT_MOST = 4;
const waiting = new Map<string, Blob>();
const keyOf = (storyId: number, turn: number) => `${storyId}/${turn}`;

/** Hands the view the picture just kept of this story and turn (in place of an older one). */
export function handOverPicture(storyId: number, turn: number, blob: Blob): void {
  const key = keyOf(storyId, turn);
  waiting.delete(key);
  waiting.set(key, blob);
  for (const oldest of waiting.keys()) {
    if (waiting.size <= WAITING_AT_MOST) break;
    waiting.delete(oldest);
  }
}

/** The picture handed over for this story and turn, if one waits; it stays until taken. */
export const pictureHandedOver = (storyId: number, turn: number): Blob | undefined =>
  waiting.get(keyOf(storyId, turn));

/** The view has the picture, or it is kept no more: it waits no more. */
export function letGoOfHandedPicture(storyId: number, turn: number): void {
  waiting.delete(keyOf(storyId, turn));
}

/** Another story is in play: none of the last one's pictures waits. */
export function letGoOfHandedPictures(): void {
  waiting.clear();
}
