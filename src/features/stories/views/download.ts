/** Hands the player a text file, as a download the browser saves where it saves downloads. */
export function downloadText(fileName: string, text: string, type: string): void {
  const url = URL.createObjectURL(new Blob([text], { type: `${type};charset=utf-8` }));
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.hidden = true;
  document.body.append(link);
  link.click();
  link.remove();
  // The click has started the download; the URL is not needed after this task.
  setTimeout(() => URL.revokeObjectURL(url), 0);
}

/** A file name from a character's name: letters and digits of any script, joined by '-'. */
export function storyFileName(characterName: string, id: number, extension: string): string {
  const slug = characterName
    .trim()
    .replace(/[^\p{L}\p{N}]+/gu, '-')
    .replace(/^-+|-+$/g, '');
  return `taleweaver-${slug || 'story'}-${id}.${extension}`;
}
