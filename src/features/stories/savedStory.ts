// The saved story record (SPEC.md section 3, "Saved story") and the rules that decide which
// records may be saved and which are listed (SPEC.md section 5). No I/O here.
import type { Story } from '../game';

/**
 * Which write of a record a tab last saw. `revision` counts the record's writes; `lastSaved`
 * tells a record apart from one deleted and made again under the same id.
 */
export interface RecordStamp {
  revision: number;
  lastSaved: string;
}

/**
 * Where a story is kept with its wallet (cloud saves, cloud/cloudPlace.ts) and how far: the
 * cloud's revision this record matches, and this record's revision last sent there. A record
 * saved since (`revision > sent`) has a save still to go up.
 */
export interface CloudLink {
  /** The story's id in the cloud (a UUID; the page of a published story is /story/<id>). */
  id: string;
  revision: number;
  sent: number;
}

/** A story as kept in MyStoriesDB. */
export interface SavedStory {
  id: number;
  walletAddress: string;
  /** ISO timestamp of the last save. */
  lastSaved: string;
  chosenCharacter: string;
  chosenGenre: string;
  characterBio: string;
  characterImage: string;
  previousParagraph: string;
  isFinal: boolean;
  endingType: string;
  /**
   * The story itself, as the game resumes it (story log, options, stats, summaries...), read by
   * the game's parseStory; a record with no story in it holds the empty story.
   */
  game: Story;
  /**
   * How many times the record has been written (storyRevision.ts). Records saved before there
   * were revisions have none: they read as 0.
   */
  revision?: number;
  /** The story this one split from when two tabs played it on (storyRevision.ts), or null. */
  branchOf?: number | null;
  /** Kept with the wallet too, once a save has gone up or the story came down from there. */
  cloud?: CloudLink;
}

/**
 * What the game hands to saveStory: no lastSaved yet, and an id only if saved before, with the
 * write of that record this tab last saw (`basedOn`). The store decides revision and branchOf.
 */
export type StoryDraft = Omit<
  SavedStory,
  'id' | 'lastSaved' | 'walletAddress' | 'revision' | 'branchOf' | 'cloud'
> & {
  id?: number;
  walletAddress?: string;
  basedOn?: RecordStamp;
  /** A story brought down from the cloud comes with its link; a save otherwise keeps the record's. */
  cloud?: CloudLink;
};

/** Owner of the stories saved without a connected wallet (SPEC.md section 5). */
export const ANONYMOUS_WALLET = 'anonymous';
/** SPEC.md section 9. */
export const MIN_PREVIOUS_PARAGRAPH_LENGTH = 20;

export function isFilled(value: unknown): value is string {
  return typeof value === 'string' && value.trim() !== '';
}

/** The listing rule of SPEC.md section 5 (the genre is not part of it). */
export function isListable(story: SavedStory): boolean {
  return (
    isFilled(story.chosenCharacter) &&
    isFilled(story.characterBio) &&
    isFilled(story.characterImage) &&
    typeof story.previousParagraph === 'string' &&
    story.previousParagraph.length >= MIN_PREVIOUS_PARAGRAPH_LENGTH
  );
}

export function walletOwner(wallet: string | null | undefined): string {
  return isFilled(wallet) ? wallet : ANONYMOUS_WALLET;
}

export function sameWallet(a: unknown, b: unknown): boolean {
  return typeof a === 'string' && typeof b === 'string' && a.toLowerCase() === b.toLowerCase();
}

/**
 * A new story's id in the cloud, a random UUID, given at its first save so that its result and
 * its page can name it before it ever goes up. crypto.randomUUID needs a secure context (a page
 * over plain http on a LAN address has none); getRandomValues does not.
 */
export function newStoryId(): string {
  if (typeof globalThis.crypto.randomUUID === 'function') return globalThis.crypto.randomUUID();
  const bytes = globalThis.crypto.getRandomValues(new Uint8Array(16));
  bytes[6] = ((bytes[6] ?? 0) & 0x0f) | 0x40;
  bytes[8] = ((bytes[8] ?? 0) & 0x3f) | 0x80;
  const hex = Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
