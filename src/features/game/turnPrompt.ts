/**
 * What a turn's prompt is built from, read from the game: the story so far (the hero, the
 * memory, the story sheet, the lorebook entries it mentions, the pinned note), the latest paragraph and the resolved choice. One place for the turn
 * saga, which asks the model with it, and for the 'Story so far' panel, which shows what that
 * prompt tells. Pure: no store, no I/O.
 */
import type { PlayerStats } from '../../engine/types';
import { loreTold, sheetTold, type CharacterSketch, type TurnInput, type TurnUse } from '../llm';
import type { ResolvedChoice, Story } from './gameModel';

/** The parts of the game a story prompt is told. */
export type StoryTold = Pick<
  Story,
  | 'chosenCharacter'
  | 'characterGender'
  | 'characterBio'
  | 'characterTraits'
  | 'chosenGenre'
  | 'storySummary'
  | 'storyNote'
  | 'storySheet'
  | 'lorebook'
  | 'storyLog'
  | 'previousParagraph'
>;

/** SPEC.md section 4: from turn 7 every turn asks the model whether to conclude. */
export const FIRST_ENDING_TURN = 7;

export const sketchOf = (game: StoryTold): CharacterSketch => ({
  name: game.chosenCharacter,
  gender: game.characterGender,
  bio: game.characterBio,
  traits: game.characterTraits,
});

const paragraphsOf = (game: StoryTold) =>
  game.storyLog.flatMap((entry) => (entry.kind === 'paragraph' ? [entry.text] : []));

/**
 * What every story prompt (a turn, the recap) is told of the story so far; `choice`, a turn's
 * choice, may bring lorebook entries its words mention.
 */
export function storySoFar(game: StoryTold, choice = '') {
  const sheet = sheetTold(game.storySheet.entries, paragraphsOf(game));
  const texts = { storyLog: game.storyLog, lastParagraph: game.previousParagraph, choice };
  return {
    character: sketchOf(game),
    genre: game.chosenGenre,
    summaries: game.storySummary,
    note: game.storyNote,
    sheet,
    lore: loreTold(game.lorebook, texts, sheet),
  };
}

/** The prompt a turn is asked with: from turn 7 the model may end the story. */
export const turnUse = (turn: number): TurnUse =>
  turn >= FIRST_ENDING_TURN ? 'conclusionCheck' : 'nextSegment';

export function turnInput(
  game: StoryTold,
  playerStats: PlayerStats,
  choice: Pick<ResolvedChoice, 'option' | 'outcome' | 'scenarioType' | 'turn'>,
): TurnInput {
  return {
    ...storySoFar(game, choice.option.text),
    previousParagraph: game.previousParagraph,
    choice: choice.option,
    outcome: choice.outcome,
    scenarioType: choice.scenarioType,
    turnCount: choice.turn,
    playerStats,
  };
}
