/** webpack's error when a lazy chunk (JavaScript or CSS) cannot be downloaded. */
export function isChunkLoadError(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  return error.name === 'ChunkLoadError' || /Loading (CSS )?chunk .* failed/i.test(error.message);
}
