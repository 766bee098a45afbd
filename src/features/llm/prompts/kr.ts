/**
 * Korean prompts for the nine uses of SPEC.md section 7, written for Korean players rather than
 * translated: the story is a third-person Korean narrative, options end in '~한다'. Reply keys
 * and the machine values (risk, alignment, gender, outcome, scenario type) stay English so the
 * parser reads them; everything the player reads is asked for in Korean.
 */
import type {
  Alignment,
  Outcome,
  PlayerStats,
  Risk,
  ScenarioType,
  StoryOption,
} from '../../../engine/types';
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
  '당신은 텍스트 어드벤처 게임의 이야기꾼입니다. 설명이나 코드 블록 없이 JSON 객체 하나로만 ' +
  '답하세요. 키는 요청한 영어 이름 그대로 쓰고, 이야기 내용은 자연스러운 한국어로 씁니다.';

const OUTCOME_LABEL: Readonly<Record<Outcome, string>> = {
  success: '성공',
  partial: '부분 성공',
  failure: '실패',
};

const OUTCOME_MEANING: Readonly<Record<Outcome, string>> = {
  success: '행동이 뜻대로 통한다',
  partial: '절반만 통한다. 얻는 것은 있지만 대가를 치르거나 새 문제가 생긴다',
  failure: '행동이 실패해 상황이 나빠진다. 그래도 이야기는 계속된다',
};

const SCENARIO_MEANING: Readonly<Record<ScenarioType, string>> = {
  standard: '여정이 나아간다. 새로운 장소, 단서, 만남',
  dilemma: '둘 다 옳거나 둘 다 그른 길 사이의 딜레마, 깔끔한 답은 없다',
  consequence: '예전의 선택이 보상이나 대가가 되어 돌아온다',
  challenge: '위험한 적이나 장애물, 시련이 주인공을 한계까지 몰아붙인다',
  companion: '동료가 합류하거나, 도움을 청하거나, 이 순간을 좌우한다',
  betrayal: '믿었던 누군가가 주인공에게 등을 돌린다',
  moral_choice: '옳은 일과 쉽거나 이득이 되는 일 사이의 분명한 선택',
};

const GENDER_LABEL: Readonly<Record<string, string>> = {
  male: '남성',
  female: '여성',
  'non-binary': '논바이너리',
};

const RISK_LABEL: Readonly<Record<Risk, string>> = { low: '낮음', medium: '보통', high: '높음' };

const ALIGNMENT_LABEL: Readonly<Record<Alignment, string>> = {
  moral: '도덕적',
  immoral: '비도덕적',
  neutral: '중립',
};

const STORY_WORDS = `${L.storyWords.min}~${L.storyWords.max}단어`;
const VOICE = '3인칭 소설체로 생생하고 구체적으로';
const OPTION_SHAPE =
  '{"text":"…","risk":"low|medium|high","alignment":"moral|immoral|neutral","traitAlignment":"…"}';

function genderLabel(gender: string): string {
  return GENDER_LABEL[gender] ?? gender;
}

function heroLines(hero: CharacterSketch): string {
  return (
    `주인공: ${hero.name} (${genderLabel(hero.gender)})\n` +
    `성격: ${hero.traits.join(', ')}\n소개: ${hero.bio}`
  );
}

/** The story's memory as the model is told it, and the player's pinned note, if any. */
const SHEET_HEADINGS: Readonly<Record<SheetGroup, string>> = {
  person: '인물',
  item: '지닌 물건',
  place: '장소',
  thread: '열린 이야기',
  condition: '상태',
  closed: '닫힌 이야기',
};

/** 이야기 시트: 종류별로 한 줄, 죽은 인물은 사망으로 표시합니다. */
function sheetLines(sheet: readonly SheetEntry[]): string {
  if (sheet.length === 0) return '';
  const lines = SHEET_TOLD_ORDER.flatMap((group) => {
    const told = sheet.filter((entry) => sheetGroup(entry) === group);
    if (told.length === 0) return [];
    const entries = told.map((entry) => {
      const name = isDead(entry) ? `${entry.name}(사망)` : entry.name;
      return entry.note === '' ? name : `${name}: ${entry.note}`;
    });
    return [`- ${SHEET_HEADINGS[group]}: ${entries.join('; ')}`];
  });
  return `\n이야기 시트(이야기에서 정해진 사실입니다. 이를 지키고, 죽은 인물은 죽은 채로 두세요):\n${lines.join('\n')}`;
}

/** 플레이어의 설정집: 플레이어가 정한 이 세계의 사실입니다. */
function loreLines(lore: readonly ToldLoreEntry[]): string {
  if (lore.length === 0) return '';
  const lines = lore.map((entry) => `- ${entry.name}: ${entry.text}`);
  return `\n플레이어의 설정집(이 세계의 사실입니다. 이야기가 이를 어기지 않게 하세요):\n${lines.join('\n')}`;
}

function storySoFar(
  context: readonly ContextEntry[],
  note = '',
  sheet: readonly SheetEntry[] = [],
  lore: readonly ToldLoreEntry[] = [],
): string {
  const story =
    context.length === 0
      ? '지금까지의 줄거리: (아직 없음)'
      : `지금까지의 줄거리(오래된 순):\n${context.map((entry) => `- ${entry.text}`).join('\n')}`;
  const withSheet = story + sheetLines(sheet) + loreLines(lore);
  return note === ''
    ? withSheet
    : `${withSheet}\n플레이어가 고정한 메모(이야기가 이를 따르게 하되, 주사위 결과는 절대 바꾸지 마세요): ${note}`;
}

/** 이야기 답이 시트에서 바꾸는 것(engine/storySheet.ts가 읽습니다). */
const SHEET_RULE =
  `sheetChanges: 이번 답이 이야기 시트에서 바꾸는 것, 최대 ${SHEET_CHANGES_ASKED}개, 바뀐 것만 ` +
  '(없으면 []): 만난 인물(주인공과의 관계), 얻은 물건, 알게 된 장소, 열린 이야기나 임무, ' +
  '상처나 저주는 add, 달라진 것은 update(인물이 죽으면 note를 "사망"으로 시작), 잃거나 쓴 ' +
  '물건, 나은 상태, 해결된 이야기는 remove. name은 이야기 속 이름 그대로, note는 ' +
  `${SHEET_NOTE_MAX_WORDS}단어 이내. op와 kind는 영어 값 그대로 적으세요.`;

const SHEET_CHANGE_SHAPE =
  '{"op":"add|update|remove","kind":"person|item|place|thread|condition","name":"…","note":"…"}';

function standing(stats: PlayerStats): string {
  return (
    `도덕성 ${stats.moralScore}(-100~100), 모험 성향 ${stats.riskScore}, ` +
    `성격 일관성 ${stats.traitConsistency}, 창의성 ${stats.creativity}, ` +
    `성공률 ${stats.successRate}%`
  );
}

function describeChoice(choice: StoryOption): string {
  const trait = choice.traitAlignment ? `, '${choice.traitAlignment}' 성격이 드러남` : '';
  return (
    `"${choice.text}" (위험도 ${RISK_LABEL[choice.risk]}, ` +
    `${ALIGNMENT_LABEL[choice.alignment]}${trait})`
  );
}

function optionRules(count: { min: number; max: number }): string {
  return (
    `options: 주인공이 다음에 할 수 있는 서로 다른 행동 ${count.min}~${count.max}개. ` +
    `각각 ${L.optionWords.min}~${L.optionWords.max}단어의 한국어 문장으로, ` +
    '"~한다"로 끝맺으세요. 위험도와 도덕성을 골고루 섞고, risk와 alignment 값은 영어 그대로 ' +
    '씁니다. traitAlignment에는 그 행동이 드러내는 성격 하나를 위 목록에서 글자 그대로 옮기거나 ' +
    '""를 넣으세요.'
  );
}

function answerWith(shape: string): string {
  return `다음 키만 담은 JSON 객체 하나로 답하세요:\n${shape}`;
}

export function genderFromName({ name }: GenderFromNameInput): string {
  return (
    `이름: ${name}\n이 이름의 주인으로 가장 그럴듯한 성별을 male, female, non-binary 중에서 ` +
    '고르세요(애매하면 non-binary). 값은 영어로 씁니다.\n' +
    answerWith('{"gender":"male|female|non-binary"}')
  );
}

export function characterProfile({ name, genre, gender }: CharacterProfileInput): string {
  const genderLine = gender
    ? `성별: ${genderLabel(gender)}(바꾸지 마세요).`
    : '성별: 이름을 보고 정하세요.';
  return (
    `${genre} 텍스트 어드벤처의 주인공을 만들어 주세요.\n이름: ${name}. ${genderLine}\n` +
    `characterQuirks: 인상적인 성격 특성 ${L.quirks}개, 각각 1~3단어.\n` +
    `characterBio: ${L.bioMaxWords}단어 이내. 어떤 사람인지, 무엇을 위해 움직이는지, ` +
    '숨겨진 비밀이나 약점까지.\n' +
    `characterFacialFeatures: 눈에 띄는 얼굴 특징 ${L.facialFeatures}개, 각각 짧은 구절로.\n` +
    '값은 모두 한국어로 쓰되, characterGender만 male, female, non-binary 중 하나를 영어로.\n' +
    answerWith(
      '{"characterQuirks":["…"],"characterGender":"male|female|non-binary",' +
        '"characterBio":"…","characterFacialFeatures":["…"]}',
    )
  );
}

export function openingScene({ character, genre, lore = [] }: OpeningSceneInput): string {
  return (
    `${genre} 텍스트 어드벤처의 첫 장면을 한국어로 써 주세요.\n${heroLines(character)}${loreLines(lore)}\n` +
    `storyStart: ${STORY_WORDS}, ${VOICE}. 첫 문장부터 끌어당기세요. 어떤 곳에서 무엇이 ` +
    '걸려 있는지 보여 주고, 주인공의 성격이 드러나게 하며, 결정을 내려야 하는 순간에서 멈춥니다.\n' +
    `${optionRules(L.openingOptions)}\n` +
    `newStorySummary: ${SUMMARY_RULE}\n${SHEET_RULE}\n` +
    answerWith(
      `{"storyStart":"…","options":[${OPTION_SHAPE}],"newStorySummary":"…",` +
        `"sheetChanges":[${SHEET_CHANGE_SHAPE}]}`,
    )
  );
}

export function openingSummary({ characterName, genre, storyStart }: OpeningSummaryInput): string {
  return (
    `${characterName}의 ${genre} 모험 도입부를 한국어 ${L.summaryMaxWords}단어 이내로 ` +
    '요약하세요. 3인칭 과거형으로, 나중에 중요해질 이름과 장소, 걸려 있는 것을 남기세요.\n' +
    `도입부: ${storyStart}\n` +
    answerWith('{"newStorySummary":"…"}')
  );
}

/** The summary a story reply carries after its options (DESIGN.md: one request per turn). */
const SUMMARY_RULE =
  `이 장면을 한국어 ${L.summaryMaxWords}단어 이내로, 3인칭 과거형으로 요약. 첫 문장에는 선택과 ` +
  '그 결과를 담고, 이어서 나중에 중요해질 것을 남기세요.';

/** What the next segment and the conclusion check share: the story, the choice, the dice. */
function turnBrief(input: TurnInput, context: readonly ContextEntry[]): string {
  const { character, outcome, scenarioType } = input;
  return (
    `${input.genre} 텍스트 어드벤처를 한국어로 이어 씁니다. ${input.turnCount}번째 턴.\n` +
    `${heroLines(character)}\n현재 상태: ${standing(input.playerStats)}\n` +
    `${storySoFar(context, input.note, input.sheet, input.lore)}\n직전 장면: ${input.previousParagraph}\n` +
    `${character.name}의 선택: ${describeChoice(input.choice)}\n` +
    `주사위 결과: ${OUTCOME_LABEL[outcome]}("${outcome}") — ${OUTCOME_MEANING[outcome]}. ` +
    '이 결과를 그대로 보여 주고, 누그러뜨리거나 뒤집지 마세요.\n' +
    `이번 장면 유형: "${scenarioType}" — ${SCENARIO_MEANING[scenarioType]}.\n`
  );
}

function nextSegmentPrompt(input: TurnInput): ContextPrompt {
  const { outcome, scenarioType } = input;
  const prompt = (context: readonly ContextEntry[]) =>
    turnBrief(input, context) +
    `storySegment: ${STORY_WORDS}, ${VOICE}. 선택의 결과를 먼저 보여 주고 ` +
    '이 장면 유형에 맞는 상황을 펼친 뒤, 다음 결정의 순간에서 멈추세요.\n' +
    `${optionRules(L.turnOptions)}\n` +
    `storySummary: ${SUMMARY_RULE}\n${SHEET_RULE}\n` +
    `outcome은 "${outcome}", scenarioType은 "${scenarioType}" 그대로 적으세요.\n` +
    answerWith(
      `{"storySegment":"…","options":[${OPTION_SHAPE}],"storySummary":"…",` +
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
    '이번 턴에서 이야기를 끝낼지 정하세요. 핵심 갈등이 매듭지어졌거나 운명이 정해졌다면 ' +
    '끝냅니다(결정적인 실패라면 비극으로 끝날 수도 있습니다). 절정이 지나갔다면 끝내는 쪽으로 ' +
    '기우세요.\n' +
    `storySegment: ${STORY_WORDS}, ${VOICE}. 선택의 결과부터 보여 주세요.\n` +
    '끝낸다면: isFinal은 true, storySegment는 이야기를 매듭짓는 결말, options는 [].\n' +
    '이어 간다면: isFinal은 false, storySegment는 이 장면 유형에 맞는 상황을 펼친 뒤 다음 ' +
    `결정의 순간에서 멈추고,\n${optionRules(L.turnOptions)}\n` +
    `storySummary: ${SUMMARY_RULE}\n${SHEET_RULE}\n` +
    answerWith(
      `{"storySegment":"…","options":[${OPTION_SHAPE}],"isFinal":true|false,` +
        `"storySummary":"…","sheetChanges":[${SHEET_CHANGE_SHAPE}]}`,
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
  const choiceLine = choiceText ? `${characterName}의 선택: ${choiceText}\n` : '';
  return (
    `${characterName}의 모험 중 이 장면을 한국어 ${L.summaryMaxWords}단어 이내로 요약하세요. ` +
    '3인칭 과거형으로 쓰세요. 첫 문장에는 선택과 그 결과를 담고(지난 장면은 이 문장만으로 ' +
    '전해집니다), 이어서 나중에 중요해질 것을 남기세요.\n' +
    `${choiceLine}장면: ${storySegment}\n` +
    answerWith('{"storySummary":"…"}')
  );
}

function tally<T extends string>(
  values: readonly T[],
  labels: Readonly<Record<T, string>>,
): string {
  return (Object.keys(labels) as T[])
    .map((value) => `${labels[value]} ${values.filter((v) => v === value).length}`)
    .join(', ');
}

export function recap(input: RecapInput): string {
  const { character } = input;
  const prompt = (context: readonly ContextEntry[]) =>
    `${character.name}의 ${input.genre} 모험이 ${input.turnCount}턴 만에 끝났습니다.\n` +
    `${heroLines(character)}\n${storySoFar(context, input.note, input.sheet, input.lore)}\n` +
    `결말: ${input.finalParagraph}\n` +
    `선택: ${tally(input.moralChoices, ALIGNMENT_LABEL)}. ` +
    `결과: ${tally(input.outcomes, OUTCOME_LABEL)}.\n` +
    `최종 상태: ${standing(input.playerStats)}\n` +
    '모험의 회고를 한국어로 써 주세요.\n' +
    `wrapUpParagraph: 이야기를 마무리하는 ${L.wrapUpWords.min}~${L.wrapUpWords.max}단어의 ` +
    '문단, 3인칭 과거형.\n' +
    'bigMoment: 가장 극적이었던 순간, 한 문장.\n' +
    'frequentActivity: 주인공의 주특기, 곧 가장 자주 한 행동을 짧은 구절로.\n' +
    'characterTraitHighlight: 이 여정을 규정한 성격과 그것이 드러난 방식.\n' +
    'themeExploration: 이야기의 주제를 주제곡 제목처럼 짓고, 그 이유를 한 줄로.\n' +
    'overallScore: 1~100, 주인공을 얼마나 잘 이끌었는지.\n' +
    'scoreBreakdown: 각 0~100. decisions(선택의 질), consistency(성격에 충실했는지), ' +
    'creativity(창의적인 문제 해결), morality(도덕적 나침반).\n' +
    'endingType: 영웅적 승리, 피로스의 승리, 안티히어로의 승리, 비극적 몰락, 씁쓸한 결말 중 ' +
    '하나, 또는 더 어울리는 다른 결말 유형을 한국어로.\n' +
    answerWith(
      '{"wrapUpParagraph":"…","bigMoment":"…","frequentActivity":"…",' +
        '"characterTraitHighlight":"…","themeExploration":"…","overallScore":1-100,' +
        '"scoreBreakdown":{"decisions":0-100,"consistency":0-100,"creativity":0-100,' +
        '"morality":0-100},"endingType":"…"}',
    );
  return fitStoryContext(prompt, input, SYSTEM_PROMPT);
}

const TURN_PROMPTS = { nextSegment: nextSegmentPrompt, conclusionCheck: conclusionCheckPrompt };

export const krPrompts: PromptBuilders = {
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
