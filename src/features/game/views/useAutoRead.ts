import { useEffect, useRef } from 'react';
import type { StoryEntry } from '../gameSlice';
import type { ReadAloud } from './readAloud';

/** A finished paragraph of the story, with the key the log knows it by. */
export interface ReadableParagraph {
  key: string;
  text: string;
}

/** The model's paragraphs of a story log, keyed by their position in it, as the log keys them. */
export function paragraphsIn(entries: readonly StoryEntry[]): ReadableParagraph[] {
  return entries.flatMap((entry, index) =>
    entry.kind === 'paragraph' ? [{ key: String(index), text: entry.text }] : [],
  );
}

/**
 * The paragraph that has just arrived, if the story only grew by one: the story as it was,
 * then one paragraph more. A story opened from the saved list, a new game's cleared log, or
 * several paragraphs at once is not a paragraph arriving, and nothing is read for it.
 */
export function arrivedParagraph(
  before: readonly ReadableParagraph[],
  after: readonly ReadableParagraph[],
): ReadableParagraph | null {
  if (after.length !== before.length + 1) return null;
  const grew = before.every(
    (paragraph, index) =>
      after[index]?.key === paragraph.key && after[index].text === paragraph.text,
  );
  return grew ? (after[after.length - 1] ?? null) : null;
}

/**
 * Reads each new paragraph aloud as it arrives, while `enabled` (the player's 'Read new
 * paragraphs aloud' setting). The paragraphs already there when the screen opens, or when the
 * setting is ticked, are never read: only a paragraph that arrives after.
 */
export function useAutoRead(
  paragraphs: readonly ReadableParagraph[],
  enabled: boolean,
  { available, speak }: Pick<ReadAloud, 'available' | 'speak'>,
): void {
  // What the player has already had the chance to read, kept up to date even while off.
  const seen = useRef(paragraphs);
  useEffect(() => {
    const before = seen.current;
    seen.current = paragraphs;
    if (!enabled || !available) return;
    const arrived = arrivedParagraph(before, paragraphs);
    if (arrived) speak(arrived.key, arrived.text);
  }, [paragraphs, enabled, available, speak]);
}
