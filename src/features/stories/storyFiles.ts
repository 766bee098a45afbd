/**
 * A story as a file (storyExport.ts: Markdown and JSON out, JSON back in), fetched the first time
 * a story is exported or imported: about 1 KB over the wire that a game without either never
 * needs.
 */
export const loadStoryFiles = () => import(/* webpackChunkName: "story-files" */ './storyExport');

/** The keeping of an imported story's pictures, in the same chunk: only a file with pictures. */
export const loadPictureKeeping = () =>
  import(/* webpackChunkName: "story-files" */ './pictures/importedPictures');
