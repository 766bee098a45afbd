/**
 * English prompts for the nine uses of SPEC.md section 7. Each asks for one JSON object with
 * exactly the reply keys of that use; the story is told in the second person, present tense.
 */
import type { Outcome, PlayerStats, ScenarioType, StoryOption } from '../../../engine/types';
import type { ToldLoreEntry } from '../../../engine/lorebook';
import { SHEET_NOTE_MAX_WORDS, isDead, type SheetEntry } from '../../../engine/storySheet';
import {
  LENGTH_GUIDANCE as L,
  SHEET_CHANGES_ASKED,
  SHEET_TOLD_ORDER,
  sheetGroup,
  type SheetGroup,
  contextTold,
  fitStoryContext,
  type ContextEntry,
  type ContextPrompt,
} from './types';
import type {
  CharacterProfileInput,
  CharacterSketch,
  GenderFromNameInput,
  OpeningSceneInput,
  OpeningSummaryInput,
  PromptBuilders,
  RecapInput,
  SegmentSummaryInput,
  TurnInput,
} from './types';

export const SYSTEM_PROMPT =
  'You are the storyteller of a text-adventure game. Reply with exactly one JSON object and ' +
  'nothing else: no prose, no code fences. Use exactly the keys asked for.';

const OUTCOME_MEANING: Readonly<Record<Outcome, string>> = {
  success: 'it works as hoped',
  partial: 'it half works: some progress, at a cost or with a new complication',
  failure: 'it fails and things get worse, but the story goes on',
};

const SCENARIO_MEANING: Readonly<Record<ScenarioType, string>> = {
  standard: 'the journey moves on: a new place, clue or encounter',
  dilemma: 'a hard choice between two goods or two evils, with no clean way out',
  consequence: 'an earlier choice comes back to reward or haunt the hero',
  challenge: 'a dangerous foe, obstacle or trial tests the hero to the limit',
  companion: 'an ally joins, needs help, or shapes the moment',
  betrayal: 'someone the hero trusted turns against them',
  moral_choice: 'a clear choice between what is right and what is easy or profitable',
};

const STORY_WORDS = `${L.storyWords.min}-${L.storyWords.max} words`;
const VOICE = 'second person ("you"), present tense, vivid and concrete';
const OPTION_SHAPE =
  '{"text":"...","risk":"low|medium|high","alignment":"moral|immoral|neutral","traitAlignment":"..."}';

function heroLines(hero: CharacterSketch): string {
  return `Hero: ${hero.name} (${hero.gender}). Traits: ${hero.traits.join(', ')}.\nBio: ${hero.bio}`;
}

const SHEET_HEADINGS: Readonly<Record<SheetGroup, string>> = {
  person: 'People',
  item: 'Items held',
  place: 'Places',
  thread: 'Open threads',
  condition: 'Conditions',
  closed: 'Closed threads',
};

/** The story sheet as the model is told it: one line per kind, a dead person marked dead. */
function sheetLines(sheet: readonly SheetEntry[]): string {
  if (sheet.length === 0) return '';
  const lines = SHEET_TOLD_ORDER.flatMap((group) => {
    const told = sheet.filter((entry) => sheetGroup(entry) === group);
    if (told.length === 0) return [];
    const entries = told.map((entry) => {
      const name = isDead(entry) ? `${entry.name} (dead)` : entry.name;
      return entry.note === '' ? name : `${name}: ${entry.note}`;
    });
    return [`- ${SHEET_HEADINGS[group]}: ${entries.join('; ')}`];
  });
  return `\nStory sheet (what the story has established; keep to it, the dead stay dead):\n${lines.join('\n')}`;
}

/** The player's lorebook entries as the model is told them: the world as the player set it. */
function loreLines(lore: readonly ToldLoreEntry[]): string {
  if (lore.length === 0) return '';
  const lines = lore.map((entry) => `- ${entry.name}: ${entry.text}`);
  return `\nThe player's lorebook (facts of this world; keep the story true to them):\n${lines.join('\n')}`;
}

/** The story's memory as the model is told it, the sheet, and the player's pinned note. */
function storySoFar(
  context: readonly ContextEntry[],
  note = '',
  sheet: readonly SheetEntry[] = [],
  lore: readonly ToldLoreEntry[] = [],
): string {
  const story =
    context.length === 0
      ? 'Story so far: (nothing yet)'
      : `Story so far, oldest first:\n${context.map((entry) => `- ${entry.text}`).join('\n')}`;
  const withSheet = story + sheetLines(sheet) + loreLines(lore);
  return note === ''
    ? withSheet
    : `${withSheet}\nThe player's pinned note (hold the story to it, but it never changes a dice result): ${note}`;
}

/** What a story reply may change of the sheet (engine/storySheet.ts reads it). */
const SHEET_RULE =
  `sheetChanges: what this reply changes of the story sheet, at most ${SHEET_CHANGES_ASKED}, ` +
  'only what changed (or [] for nothing): add a person met (how they stand with the hero), ' +
  'an item gained, a place found, an open thread or quest, a wound or curse; update what ' +
  'changed (a person who dies: a note starting "dead"); remove an item lost or used, a ' +
  `condition healed, a thread resolved. name: as the story names it; note: at most ${SHEET_NOTE_MAX_WORDS} words.`;

const SHEET_CHANGE_SHAPE =
  '{"op":"add|update|remove","kind":"person|item|place|thread|condition","name":"...","note":"..."}';

function standing(stats: PlayerStats): string {
  return (
    `Moral ${stats.moralScore} (-100..100), risk-taking ${stats.riskScore}, ` +
    `trait consistency ${stats.traitConsistency}, creativity ${stats.creativity}, ` +
    `success rate ${stats.successRate}%`
  );
}

function describeChoice(choice: StoryOption): string {
  const trait = choice.traitAlignment ? `, plays to "${choice.traitAlignment}"` : '';
  return `"${choice.text}" (${choice.risk} risk, ${choice.alignment}${trait})`;
}

function optionRules(count: { min: number; max: number }): string {
  return (
    `options: ${count.min}-${count.max} distinct actions the hero could take next, each ` +
    `${L.optionWords.min}-${L.optionWords.max} words, in the imperative ("Slip past..."). ` +
    'Vary risk and alignment across them. traitAlignment: the one trait the option plays to, ' +
    'copied exactly from Traits, or "".'
  );
}

function answerWith(shape: string): string {
  return `Reply with ONE JSON object with exactly these keys:\n${shape}`;
}

export function genderFromName({ name }: GenderFromNameInput): string {
  return (
    `Which gender does the name "${name}" most likely belong to? ` +
    'Answer male, female or non-binary (non-binary when unclear).\n' +
    answerWith('{"gender":"male|female|non-binary"}')
  );
}

export function characterProfile({ name, genre, gender }: CharacterProfileInput): string {
  const genderLine = gender
    ? `Gender: ${gender} (keep it).`
    : 'Gender: read it from the name: male, female or non-binary.';
  return (
    `Create the hero of a ${genre} text adventure.\nName: ${name}. ${genderLine}\n` +
    `characterQuirks: ${L.quirks} memorable personality traits, 1-3 words each.\n` +
    `characterBio: at most ${L.bioMaxWords} words: who they are, what drives them, ` +
    'a secret or flaw.\n' +
    `characterFacialFeatures: ${L.facialFeatures} distinctive facial features, a few words each.\n` +
    answerWith(
      '{"characterQuirks":["..."],"characterGender":"male|female|non-binary",' +
        '"characterBio":"...","characterFacialFeatures":["..."]}',
    )
  );
}

export function openingScene({ character, genre, lore = [] }: OpeningSceneInput): string {
  return (
    `Open a ${genre} text adventure.\n${heroLines(character)}${loreLines(lore)}\n` +
    `storyStart: ${STORY_WORDS}, ${VOICE}. Hook at once: set the place and the stakes, ` +
    `let ${character.name}'s traits show, and stop at a moment of decision.\n` +
    `${optionRules(L.openingOptions)}\n` +
    `newStorySummary: ${SUMMARY_RULE}\n${SHEET_RULE}\n` +
    answerWith(
      `{"storyStart":"...","options":[${OPTION_SHAPE}],"newStorySummary":"...",` +
        `"sheetChanges":[${SHEET_CHANGE_SHAPE}]}`,
    )
  );
}

export function openingSummary({ characterName, genre, storyStart }: OpeningSummaryInput): string {
  return (
    `Summarise the opening of ${characterName}'s ${genre} adventure in at most ` +
    `${L.summaryMaxWords} words, third person, past tense. Keep the names, places and stakes ` +
    `that matter later.\nOpening: ${storyStart}\n` +
    answerWith('{"newStorySummary":"..."}')
  );
}

/** The summary a story reply carries after its options (DESIGN.md: one request per turn). */
const SUMMARY_RULE =
  `this segment in at most ${L.summaryMaxWords} words, third person, past tense; first ` +
  'sentence: the choice and its consequence; then anything that matters later.';

/** What the next segment and the conclusion check share: the story, the choice, the dice. */
function turnBrief(input: TurnInput, context: readonly ContextEntry[]): string {
  const { character, choice, outcome, scenarioType } = input;
  return (
    `Continue a ${input.genre} text adventure. Turn ${input.turnCount}.\n` +
    `${heroLines(character)}\nStanding: ${standing(input.playerStats)}\n` +
    `${storySoFar(context, input.note, input.sheet, input.lore)}\nLast scene: ${input.previousParagraph}\n` +
    `${character.name} chose: ${describeChoice(choice)}\n` +
    `The dice decided: "${outcome}" (${OUTCOME_MEANING[outcome]}). Show exactly this result; ` +
    'never soften or overturn it.\n' +
    `This turn's scene type: "${scenarioType}" (${SCENARIO_MEANING[scenarioType]}).\n`
  );
}

function nextSegmentPrompt(input: TurnInput): ContextPrompt {
  const { outcome, scenarioType } = input;
  const prompt = (context: readonly ContextEntry[]) =>
    turnBrief(input, context) +
    `storySegment: ${STORY_WORDS}, ${VOICE}. First the result of the choice, then the ` +
    `${scenarioType} situation; stop at the next decision.\n` +
    `${optionRules(L.turnOptions)}\n` +
    `storySummary: ${SUMMARY_RULE}\n${SHEET_RULE}\n` +
    `outcome and scenarioType: echo "${outcome}" and "${scenarioType}" unchanged.\n` +
    answerWith(
      `{"storySegment":"...","options":[${OPTION_SHAPE}],"storySummary":"...",` +
        `"outcome":"${outcome}","scenarioType":"${scenarioType}",` +
        `"sheetChanges":[${SHEET_CHANGE_SHAPE}]}`,
    );
  return prompt;
}

export const nextSegment = (input: TurnInput): string =>
  fitStoryContext(nextSegmentPrompt(input), input, SYSTEM_PROMPT);

function conclusionCheckPrompt(input: TurnInput): ContextPrompt {
  const prompt = (context: readonly ContextEntry[]) =>
    turnBrief(input, context) +
    'Decide whether the story ends on this turn. End it when the main conflict is settled ' +
    'or a fate is sealed (a decisive failure can end it tragically); once the climax has ' +
    'played out, lean towards ending.\n' +
    `storySegment: ${STORY_WORDS}, ${VOICE}, starting with the result of the choice.\n` +
    'If it ends: isFinal true, storySegment is an ending that closes the main thread, and ' +
    'options is [].\n' +
    `If not: isFinal false, storySegment builds the ${input.scenarioType} situation and stops ` +
    `at the next decision, and\n${optionRules(L.turnOptions)}\n` +
    `storySummary: ${SUMMARY_RULE}\n${SHEET_RULE}\n` +
    answerWith(
      `{"storySegment":"...","options":[${OPTION_SHAPE}],"isFinal":true|false,` +
        `"storySummary":"...","sheetChanges":[${SHEET_CHANGE_SHAPE}]}`,
    );
  return prompt;
}

export const conclusionCheck = (input: TurnInput): string =>
  fitStoryContext(conclusionCheckPrompt(input), input, SYSTEM_PROMPT);

export function segmentSummary({
  characterName,
  choiceText,
  storySegment,
}: SegmentSummaryInput): string {
  const choiceLine = choiceText ? `${characterName} chose: ${choiceText}\n` : '';
  return (
    `Summarise this segment of ${characterName}'s adventure in at most ${L.summaryMaxWords} ` +
    'words, third person, past tense. First sentence: the choice and its consequence (older ' +
    `turns are told by it alone); then anything that matters later.\n${choiceLine}` +
    `Segment: ${storySegment}\n` +
    answerWith('{"storySummary":"..."}')
  );
}

function tally<T extends string>(values: readonly T[], names: readonly T[]): string {
  return names.map((name) => `${name} ${values.filter((v) => v === name).length}`).join(', ');
}

export function recap(input: RecapInput): string {
  const { character } = input;
  const prompt = (context: readonly ContextEntry[]) =>
    `${character.name}'s ${input.genre} adventure has ended after ${input.turnCount} turns.\n` +
    `${heroLines(character)}\n${storySoFar(context, input.note, input.sheet, input.lore)}\n` +
    `Ending: ${input.finalParagraph}\n` +
    `Choices: ${tally(input.moralChoices, ['moral', 'immoral', 'neutral'])}. ` +
    `Outcomes: ${tally(input.outcomes, ['success', 'partial', 'failure'])}.\n` +
    `Standing: ${standing(input.playerStats)}\n` +
    'Write the recap:\n' +
    `wrapUpParagraph: ${L.wrapUpWords.min}-${L.wrapUpWords.max} words closing the tale, ` +
    'second person, past tense.\n' +
    'bigMoment: the most epic moment, one sentence.\n' +
    `frequentActivity: ${character.name}'s signature move, what they did most, a short phrase.\n` +
    'characterTraitHighlight: the trait that defined the journey, and how.\n' +
    "themeExploration: the story's theme as the title of its theme song, with a line why.\n" +
    'overallScore: 1-100, how well the hero was played.\n' +
    'scoreBreakdown: 0-100 each: decisions (quality of choices), consistency (true to the ' +
    'traits), creativity (inventive problem solving), morality (moral compass).\n' +
    'endingType: Heroic Victory, Pyrrhic Victory, Antihero Triumph, Tragic Downfall, ' +
    'Bittersweet Resolution, or another fitting type.\n' +
    answerWith(
      '{"wrapUpParagraph":"...","bigMoment":"...","frequentActivity":"...",' +
        '"characterTraitHighlight":"...","themeExploration":"...","overallScore":1-100,' +
        '"scoreBreakdown":{"decisions":0-100,"consistency":0-100,"creativity":0-100,' +
        '"morality":0-100},' +
        '"endingType":"..."}',
    );
  return fitStoryContext(prompt, input, SYSTEM_PROMPT);
}

const TURN_PROMPTS = { nextSegment: nextSegmentPrompt, conclusionCheck: conclusionCheckPrompt };

export const enPrompts: PromptBuilders = {
  contextOfTurn: (use, input) => contextTold(TURN_PROMPTS[use](input), input, SYSTEM_PROMPT),
  genderFromName,
  characterProfile,
  openingScene,
  openingSummary,
  nextSegment,
  conclusionCheck,
  segmentSummary,
  recap,
};
