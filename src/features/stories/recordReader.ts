// Reading a stored or imported saved-story record (SPEC.md section 3, "Saved story"), and the
// rule of what may be saved (section 5): the record's own fields, and its story read by the
// game's parseStory. A record whose story cannot be read is named, never shortened to its last
// paragraph. The places, export and import read records; the record itself is built by
// storyRecord.ts. No I/O here.
import { isRecord } from '../../engine/guards';
import { initialStory, isStoryProblem, parseStory, type Story } from '../game';
import { MIN_PREVIOUS_PARAGRAPH_LENGTH, isFilled, type SavedStory } from './savedStory';

/** The record's own fields: copies of the story's that a list shows without reading the story. */
export type RecordFields = Pick<
  SavedStory,
  | 'chosenCharacter'
  | 'chosenGenre'
  | 'characterBio'
  | 'characterImage'
  | 'previousParagraph'
  | 'isFinal'
  | 'endingType'
>;

/** SPEC.md section 5: what a saved story must hold. */
export const REQUIRED_STORY_FIELDS = [
  'chosenCharacter',
  'chosenGenre',
  'characterBio',
  'characterImage',
  'previousParagraph',
] as const;

/** Never kept in a saved story or an export: the key belongs to the session only. */
const FORBIDDEN_GAME_FIELDS = ['apiKey'];

/** The record's own fields: the rest of a version-1 record is the story. */
const TOP_LEVEL_FIELDS = new Set<string>([
  'id',
  'walletAddress',
  'lastSaved',
  ...REQUIRED_STORY_FIELDS,
  'isFinal',
  'endingType',
  'game',
  'revision',
  'branchOf',
  // The record's own link to the cloud: kept by MyStoriesDB, never exported or imported.
  'cloud',
  ...FORBIDDEN_GAME_FIELDS,
]);

/** Why a story may not be saved (SPEC.md section 5); the save is refused and logged. */
export type SaveRefusal =
  | { reason: 'notAnObject' }
  | { reason: 'missingField'; field: (typeof REQUIRED_STORY_FIELDS)[number] }
  | { reason: 'previousParagraphTooShort'; length: number };

/** The save rule of SPEC.md section 5 over a record's fields; null when it may be saved. */
export function saveRefusalOf(fields: unknown): SaveRefusal | null {
  if (!isRecord(fields)) return { reason: 'notAnObject' };
  const missing = REQUIRED_STORY_FIELDS.find((field) => !isFilled(fields[field]));
  if (missing) return { reason: 'missingField', field: missing };
  const paragraph = fields.previousParagraph as string;
  if (paragraph.length < MIN_PREVIOUS_PARAGRAPH_LENGTH) {
    return { reason: 'previousParagraphTooShort', length: paragraph.length };
  }
  return null;
}

/**
 * What is wrong with a kept record, named, so that it is never silently shortened: an entry of
 * one of its lists is missing (`list`), or the story in it is not one the game can resume.
 */
export type RecordProblem =
  | { reason: 'partMissing'; list: string; index: number }
  | { reason: 'storyDamaged'; detail: string };

export const isRecordProblem = (value: unknown): value is RecordProblem =>
  isRecord(value) && (value.reason === 'partMissing' || value.reason === 'storyDamaged');

function isCount(value: unknown): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value >= 0;
}

function text(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

/** The record's own copies of the story's fields (characterImage is the portrait's address). */
const RECORD_STORY_FIELDS = [...REQUIRED_STORY_FIELDS, 'isFinal'] as const;

/** The record's own fields of any value, each read as its type or empty. */
export function recordFieldsOf(value: Record<string, unknown>): RecordFields {
  return {
    chosenCharacter: text(value.chosenCharacter),
    chosenGenre: text(value.chosenGenre),
    characterBio: text(value.characterBio),
    characterImage: text(value.characterImage),
    previousParagraph: text(value.previousParagraph),
    isFinal: value.isFinal === true,
    endingType: text(value.endingType),
  };
}

/**
 * Any stored or imported value in the current shape, or what is wrong with it. Version-1
 * records kept the whole game state flat beside the story fields: whatever is not a record
 * field goes into `game`. The story is read by the game's parseStory, so only its own fields
 * are kept (never the API key), and the record's fields, the ones the list shows, win over the
 * story's copies. A record with no story in it at all holds the empty story.
 */
export function readRecord(value: Record<string, unknown>): Omit<SavedStory, 'id'> | RecordProblem {
  const flatGame = Object.fromEntries(
    Object.entries(value).filter(([field]) => !TOP_LEVEL_FIELDS.has(field)),
  );
  const kept = { ...flatGame, ...(isRecord(value.game) ? value.game : {}) };
  const story = parseStory({
    ...kept,
    ...Object.fromEntries(
      RECORD_STORY_FIELDS.filter((field) => value[field] !== undefined).map((field) => [
        field,
        value[field],
      ]),
    ),
  });
  let game: Story;
  if (!isStoryProblem(story)) game = story;
  else if (Object.keys(kept).length === 0) game = initialStory;
  else return { reason: 'storyDamaged', detail: JSON.stringify(story) };
  return {
    walletAddress: text(value.walletAddress),
    lastSaved: text(value.lastSaved),
    ...recordFieldsOf(value),
    game,
    // Kept only where a record has them; the store decides both when it writes (storyRevision.ts).
    ...(isCount(value.revision) && { revision: value.revision }),
    ...((isCount(value.branchOf) || value.branchOf === null) && { branchOf: value.branchOf }),
  };
}
