/** How long texts are shortened for display (SPEC.md sections 2 and 9). */

export const ELLIPSIS = '...';

/** Saved-story cards show the first 50 words of the last paragraph. */
export const PREVIEW_WORDS = 50;

/** Wallet addresses show 6 leading and 4 trailing characters. */
export const ADDRESS_HEAD_CHARS = 6;
export const ADDRESS_TAIL_CHARS = 4;

/** Leaderboard genres longer than 12 characters show the first 6 and the last 3. */
export const GENRE_MAX_CHARS = 12;
export const GENRE_HEAD_CHARS = 6;
export const GENRE_TAIL_CHARS = 3;

/**
 * The start of a saved story's last paragraph for its card: the first `wordLimit` words,
 * whitespace collapsed, always followed by an ellipsis. An empty paragraph gives ''.
 */
export function storyPreview(paragraph: string, wordLimit = PREVIEW_WORDS): string {
  const words = paragraph.split(/\s+/).filter((word) => word !== '');
  if (words.length === 0) return '';
  return words.slice(0, wordLimit).join(' ') + ELLIPSIS;
}

/** '0x1234567890abcdef' becomes '0x1234...cdef'; 10 characters or fewer are kept whole. */
export function shortenAddress(address: string): string {
  if (address.length <= ADDRESS_HEAD_CHARS + ADDRESS_TAIL_CHARS) return address;
  return address.slice(0, ADDRESS_HEAD_CHARS) + ELLIPSIS + address.slice(-ADDRESS_TAIL_CHARS);
}

/**
 * A genre for the leaderboard's Genre column. Counted in Unicode code points so Hangul and
 * emoji are never split into half characters.
 */
export function shortenGenre(genre: string): string {
  const chars = Array.from(genre);
  if (chars.length <= GENRE_MAX_CHARS) return genre;
  return (
    chars.slice(0, GENRE_HEAD_CHARS).join('') + ELLIPSIS + chars.slice(-GENRE_TAIL_CHARS).join('')
  );
}
