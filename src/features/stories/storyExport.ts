// Export a saved story as Markdown or JSON, and import a JSON export back (beyond SPEC.md, which
// has neither; DESIGN.md, "Code layout"). An import is validated as strictly as a save: a foreign
// or broken file changes nothing. Version 2 of the JSON export carries the story's pictures
// (issue 41), or none when the player asks for the smaller file; version 1 files, which have
// none, import as they always did. A bad picture is skipped with its reason, never the story.
import { isRecord } from '../../engine/guards';
import { type SkippedPicture, StoryImportError } from './storyImportError';
import type { Recap, Story } from '../game';
import type { StoriesDb } from './browserDb';
import type { SavedStory } from './savedStory';
import { isRecordProblem, readRecord, saveRefusalOf } from './recordReader';
import { picturesOf } from './pictureStore';
import {
  type ExportedPicture,
  type ImportedPicture,
  exportedPictures,
  readExportedPictures,
} from './pictures/picturesFile';

export const STORY_EXPORT_FORMAT = 'taleweaver-story';
/** The version written: 2 since a story's pictures go with it. */
export const STORY_EXPORT_VERSION = 2;
/** The versions read: 1 (no pictures) and 2. */
export const STORY_EXPORT_VERSIONS_READ: readonly unknown[] = [1, 2];

/** The words of the Markdown export, in the player's language (the UI passes them in). */
export interface StoryMarkdownLabels {
  genre: string;
  /** Prefix of a line with the player's choice. */
  choice: string;
  outcomes: { success: string; partial: string; failure: string };
  recap: string;
  endingType: string;
  overallScore: string;
  bigMoment: string;
  frequentActivity: string;
  characterTraitHighlight: string;
  themeExploration: string;
  /** The mark of a paragraph or typed action the player edited. */
  edited: string;
  /** The heading of the story's memory: what the model is told of the past, as corrected. */
  memory: string;
  /** The player's pinned note. */
  note: string;
}

type ExportableStory = Omit<SavedStory, 'id'> & { id?: number };

/** The recap as the story keeps it, with the record's ending type when it has none. */
function recapOf(story: ExportableStory): Partial<Recap> & { endingType: string } {
  return { endingType: story.endingType, ...story.game.recap };
}

/** A line from the model, kept from turning into a heading, quote or list by accident. */
function asMarkdownText(text: string): string {
  return text.trim().replace(/^([#>*+-]|\d+\.)/gm, '\\$1');
}

export function storyToMarkdown(story: ExportableStory, labels: StoryMarkdownLabels): string {
  const lines = [
    `# ${asMarkdownText(story.chosenCharacter)}`,
    '',
    `*${labels.genre}: ${asMarkdownText(story.chosenGenre)}*`,
    '',
    asMarkdownText(story.characterBio),
    '',
  ];
  for (const entry of story.game.storyLog) {
    const edited = entry.edited ? ` *(${labels.edited})*` : '';
    if (entry.kind === 'paragraph') {
      lines.push(`${asMarkdownText(entry.text)}${edited}`, '');
    } else {
      const outcome = entry.outcome ? ` (${labels.outcomes[entry.outcome]})` : '';
      lines.push(
        `> **${labels.choice}:** ${entry.text.trim().replace(/\s*\n\s*/g, ' ')}${outcome}${edited}`,
        '',
      );
    }
  }
  if (story.isFinal) lines.push(...recapMarkdown(recapOf(story), labels), '');
  lines.push(...memoryMarkdown(story.game, labels));
  return `${lines.join('\n').trimEnd()}\n`;
}

/**
 * The story's memory as the player left it: each summary the model is told, with the
 * player's corrections, and the pinned note. Nothing when the story has neither.
 */
function memoryMarkdown(story: Story, labels: StoryMarkdownLabels): string[] {
  const summaries = story.storySummary
    .filter((summary) => summary.trim() !== '')
    .map((summary) => summary.trim().replace(/\s*\n\s*/g, ' '));
  const note = story.storyNote.trim();
  if (summaries.length === 0 && note === '') return [];
  const lines = [`## ${labels.memory}`, ''];
  summaries.forEach((summary, index) => lines.push(`${index + 1}. ${asMarkdownText(summary)}`));
  if (summaries.length > 0 && note !== '') lines.push('');
  if (note !== '') lines.push(`**${labels.note}:** ${asMarkdownText(note)}`);
  return lines;
}

function recapMarkdown(recap: Record<string, unknown>, labels: StoryMarkdownLabels): string[] {
  const lines = [`## ${labels.recap}`, ''];
  if (typeof recap.wrapUpParagraph === 'string' && recap.wrapUpParagraph.trim()) {
    lines.push(asMarkdownText(recap.wrapUpParagraph), '');
  }
  const facts: Array<[string, unknown]> = [
    [labels.endingType, recap.endingType],
    [labels.overallScore, recap.overallScore],
    [labels.bigMoment, recap.bigMoment],
    [labels.frequentActivity, recap.frequentActivity],
    [labels.characterTraitHighlight, recap.characterTraitHighlight],
    [labels.themeExploration, recap.themeExploration],
  ];
  for (const [label, value] of facts) {
    if ((typeof value === 'string' && value.trim()) || typeof value === 'number') {
      lines.push(`- **${label}:** ${String(value).trim()}`);
    }
  }
  return lines;
}

/**
 * The JSON export: a versioned envelope, without the id (an import gets a new one), with the
 * story's pictures as storyFileOf reads them (none: the smaller file).
 */
export function storyToJson(
  story: ExportableStory,
  pictures: readonly ExportedPicture[] = [],
): string {
  // Read again as any stored record is (the story through parseStory: never the API key), and
  // without the id: an import is saved as a new story.
  const read = readRecord({ ...story });
  // A listed story is whole (a damaged one is listed without Export): this is never one.
  if (isRecordProblem(read))
    throw new Error(`Story ${story.id} cannot be exported: ${read.reason}`);
  const envelope = {
    format: STORY_EXPORT_FORMAT,
    version: STORY_EXPORT_VERSION,
    story: read,
    pictures,
  };
  return JSON.stringify(envelope, null, 2);
}

/**
 * A saved story's JSON export with its pictures, read from MyStoriesDB; `withPictures: false`
 * is the smaller file, the story alone.
 */
export async function storyFileOf(
  db: StoriesDb,
  story: SavedStory,
  { withPictures }: { withPictures: boolean },
): Promise<string> {
  const pictures = withPictures ? await exportedPictures(await picturesOf(db, story.id)) : [];
  return storyToJson(story, pictures);
}

/** A story file read back: the story, its pictures that can be kept, and the ones skipped. */
export interface StoryFile {
  story: Omit<SavedStory, 'id'>;
  pictures: ImportedPicture[];
  skipped: SkippedPicture[];
}

/** Reads a JSON export back; throws a StoryImportError naming what is wrong with the story. */
export function parseStoryJson(text: string): Omit<SavedStory, 'id'> {
  return parseStoryFile(text).story;
}

/**
 * Reads a JSON export back, its pictures too (storyExport version 2): throws a StoryImportError
 * naming what is wrong with the story; a bad picture is only skipped, with its reason.
 */
export function parseStoryFile(text: string): StoryFile {
  let envelope: unknown;
  try {
    envelope = JSON.parse(text);
  } catch (error) {
    throw new StoryImportError('notJson', `The file is not JSON: ${(error as Error).message}`);
  }
  if (!isRecord(envelope) || envelope.format !== STORY_EXPORT_FORMAT) {
    const format = isRecord(envelope) ? JSON.stringify(envelope.format) : typeof envelope;
    throw new StoryImportError(
      'wrongFormat',
      `Not a Taleweaver story export (format ${format}, expected "${STORY_EXPORT_FORMAT}")`,
    );
  }
  if (!STORY_EXPORT_VERSIONS_READ.includes(envelope.version)) {
    throw new StoryImportError(
      'wrongFormat',
      `Unsupported story export version ${JSON.stringify(envelope.version)} (expected ${STORY_EXPORT_VERSIONS_READ.join(' or ')})`,
    );
  }
  const story = envelope.story;
  const problem = saveRefusalOf(story);
  if (problem) {
    const detail =
      problem.reason === 'missingField'
        ? `missing ${problem.field}`
        : problem.reason === 'previousParagraphTooShort'
          ? `previousParagraph has ${problem.length} characters`
          : 'no story object';
    throw new StoryImportError('incomplete', `The story export is incomplete: ${detail}`);
  }
  if (!isRecord((story as Record<string, unknown>).game)) {
    throw new StoryImportError('incomplete', 'The story export is incomplete: missing game');
  }
  // Read by the game's parseStory: a file edited by hand comes back with its stats in range, and
  // one whose story cannot be read is refused, never imported as its last paragraph alone.
  const read = readRecord(story as Record<string, unknown>);
  if (isRecordProblem(read)) {
    throw new StoryImportError(
      'incomplete',
      `The story export's story cannot be read: ${read.reason}`,
    );
  }
  // Version 1 has no pictures; a version-2 file's are read whatever else it holds.
  const { pictures, skipped } =
    envelope.version === 1
      ? { pictures: [], skipped: [] }
      : readExportedPictures(envelope.pictures);
  return { story: read, pictures, skipped };
}
