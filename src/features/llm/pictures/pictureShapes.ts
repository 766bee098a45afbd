/**
 * The shapes a picture is asked in (issue 41), as each provider's API names them: what the
 * request sends (pictureClient.ts) and what a picture's place keeps while it comes (pictureRatio,
 * which the pictures' views read without the request's code).
 */

/** The picture's shape: beside the text, a landscape; square and portrait where a page wants. */
export type PictureShape = 'landscape' | 'square' | 'portrait';

export const OPENAI_SIZES: Readonly<Record<PictureShape, string>> = {
  landscape: '1536x1024',
  square: '1024x1024',
  portrait: '1024x1536',
};
export const TOGETHER_SIZES: Readonly<Record<PictureShape, { width: number; height: number }>> = {
  landscape: { width: 1024, height: 768 },
  square: { width: 1024, height: 1024 },
  portrait: { width: 768, height: 1024 },
};
export const ASPECT_RATIOS: Readonly<Record<PictureShape, string>> = {
  landscape: '3:2',
  square: '1:1',
  portrait: '2:3',
};

/**
 * The aspect ratio of a landscape picture as the provider draws it (CSS aspect-ratio): what a
 * picture's place keeps while it comes. Together draws 1024x768; the others 3:2.
 */
export function pictureRatio(providerId: string): string {
  const { width, height } =
    providerId === 'together' ? TOGETHER_SIZES.landscape : { width: 3, height: 2 };
  return `${width} / ${height}`;
}
