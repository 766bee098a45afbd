// Export a saved story as Markdown or JSON, and import a JSON export back (beyond SPEC.md, which
// has neither; DESIGN.md, "Code layout"). An import is validated as strictly as a save: a foreign
// or broken file changes nothing.
import { isRecord } from '../../engine/guards';
import { StoryImportError } from './storyImportError';
import type { Recap, Story } from '../game';
import type { SavedStory } from './savedStory';
import { isRecordProblem, readRecord, saveRefusalOf } from './recordReader';

export const STORY_EXPORT_FORMAT = 'taleweaver-story';
export const STORY_EXPORT_VERSION = 1;

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

/** The JSON export: a versioned envelope, without the id (an import gets a new one). */
export function storyToJson(story: ExportableStory): string {
  // Read again as any stored record is (the story through parseStory: never the API key), and
  // without the id: an import is saved as a new story.
  const read = readRecord({ ...story });
  // A listed story is whole (a damaged one is listed without Export): this is never one.
  if (isRecordProblem(read))
    throw new Error(`Story ${story.id} cannot be exported: ${read.reason}`);
  const envelope = { format: STORY_EXPORT_FORMAT, version: STORY_EXPORT_VERSION, story: read };
  return JSON.stringify(envelope, null, 2);
}

/** Reads a JSON export back; throws a StoryImportError naming what is wrong. */
export function parseStoryJson(text: string): Omit<SavedStory, 'id'> {
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
  if (envelope.version !== STORY_EXPORT_VERSION) {
    throw new StoryImportError(
      'wrongFormat',
      `Unsupported story export version ${JSON.stringify(envelope.version)} (expected ${STORY_EXPORT_VERSION})`,
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
  return read;
}
