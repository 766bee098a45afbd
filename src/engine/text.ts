/**
 * How texts are shown: cleaned of characters that hide text, and long ones shortened (SPEC.md
 * sections 2 and 9).
 */

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

/**
 * Characters that show nothing yet can hide or reverse the text around them: bidi embeddings,
 * overrides and isolates (U+202A-U+202E, U+2066-U+2069), zero-width spaces, soft hyphens, tag
 * characters, Hangul fillers (Unicode's default-ignorable code points), control characters
 * other than whitespace, and lone surrogate halves (two of them, once what stood between goes,
 * would make one character: a hidden tag, say). The joiners and variation selectors stay:
 * emoji and scripts need them.
 */
const HIDDEN_CHARACTER =
  /(?!\u200C|\u200D|\p{Variation_Selector})\p{Default_Ignorable_Code_Point}|(?!\s)\p{Cc}|\p{Cs}/gu;

/** Text from a model or a stored story as it may be shown: without hidden characters. */
export function withoutHiddenCharacters(text: string): string {
  return text.replace(HIDDEN_CHARACTER, '');
}

/** Whether the text shows something a player can read: a letter or a digit, not hidden. */
export function isReadable(text: string): boolean {
  return /[\p{L}\p{N}]/u.test(withoutHiddenCharacters(text));
}
