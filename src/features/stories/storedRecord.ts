// Reading a stored or imported saved-story record (SPEC.md section 3, "Saved story"), and the
// rule of what may be saved (section 5): the record's own fields, and its story read by the
// game's parseStory. Only MyStoriesDB and the
// import read records, so this stays out of the home screen's code. No I/O here.
import { isRecord } from '../../engine/guards';
import { initialStory, isStoryProblem, parseStory, type Story } from '../game';
import { MIN_PREVIOUS_PARAGRAPH_LENGTH, isFilled, type SavedStory } from './savedStory';

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

export type StoryProblem =
  | { reason: 'notAnObject' }
  | { reason: 'missingField'; field: (typeof REQUIRED_STORY_FIELDS)[number] }
  | { reason: 'previousParagraphTooShort'; length: number };

/** The save rule of SPEC.md section 5; null when the story may be saved. */
export function findStoryProblem(story: unknown): StoryProblem | null {
  if (!isRecord(story)) return { reason: 'notAnObject' };
  const missing = REQUIRED_STORY_FIELDS.find((field) => !isFilled(story[field]));
  if (missing) return { reason: 'missingField', field: missing };
  const paragraph = story.previousParagraph as string;
  if (paragraph.length < MIN_PREVIOUS_PARAGRAPH_LENGTH) {
    return { reason: 'previousParagraphTooShort', length: paragraph.length };
  }
  return null;
}

function isCount(value: unknown): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value >= 0;
}

function text(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

/** The record's own copies of the story's fields (characterImage is the portrait's address). */
const RECORD_STORY_FIELDS = [...REQUIRED_STORY_FIELDS, 'isFinal'] as const;

function storyIn(value: Record<string, unknown>): Story {
  const story = parseStory(value);
  return isStoryProblem(story) ? initialStory : story;
}

/**
 * Any stored or imported value in the current shape. Version-1 records kept the whole game state
 * flat beside the story fields: whatever is not a record field goes into `game`. The story is
 * read by the game's parseStory, so only its own fields are kept (never the API key), and the
 * record's fields, the ones the list shows, win over the story's copies.
 */
export function toSavedStoryShape(value: Record<string, unknown>): Omit<SavedStory, 'id'> {
  const flatGame = Object.fromEntries(
    Object.entries(value).filter(([field]) => !TOP_LEVEL_FIELDS.has(field)),
  );
  return {
    walletAddress: text(value.walletAddress),
    lastSaved: text(value.lastSaved),
    chosenCharacter: text(value.chosenCharacter),
    chosenGenre: text(value.chosenGenre),
    characterBio: text(value.characterBio),
    characterImage: text(value.characterImage),
    previousParagraph: text(value.previousParagraph),
    isFinal: value.isFinal === true,
    endingType: text(value.endingType),
    game: storyIn({
      ...flatGame,
      ...(isRecord(value.game) ? value.game : {}),
      ...Object.fromEntries(
        RECORD_STORY_FIELDS.filter((field) => value[field] !== undefined).map((field) => [
          field,
          value[field],
        ]),
      ),
    }),
    // Kept only where a record has them; the store decides both when it writes (storyRevision.ts).
    ...(isCount(value.revision) && { revision: value.revision }),
    ...((isCount(value.branchOf) || value.branchOf === null) && { branchOf: value.branchOf }),
  };
}
