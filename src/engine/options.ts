/** The options a model offers each turn, made safe to show (SPEC.md sections 3 and 5). */
import type { Alignment, Risk, StoryOption } from './types';
import { isRecord } from './guards';
import { isReadable, withoutHiddenCharacters } from './text';

const RISK_CYCLE: readonly Risk[] = ['low', 'medium', 'high'];
const ALIGNMENT_CYCLE: readonly Alignment[] = ['moral', 'immoral', 'neutral'];

// An innermost parenthesised remark, ASCII or full-width brackets in any pairing.
const INNERMOST_PARENTHETICAL = /[(（][^()（）]*[)）]/g;
const SPACE_BEFORE_PUNCTUATION = / ([.,!?;:。、])/g;

/** 'Climb the wall (high risk, moral)' → 'Climb the wall' (SPEC.md section 5). */
export function stripParentheticals(text: string): string {
  let stripped = text;
  for (;;) {
    const next = stripped.replace(INNERMOST_PARENTHETICAL, '');
    if (next === stripped) break;
    stripped = next;
  }
  return stripped.replace(/ {2,}/g, ' ').replace(SPACE_BEFORE_PUNCTUATION, '$1').trim();
}

/**
 * Words naming each level. Longer words read anywhere in a Korean token ('위험도높음');
 * English words must start a token, so 'below' is not 'low' and 'immoral' is not 'moral'.
 * One-syllable Korean words ('상', '악') count only as a whole token.
 */
type Vocabulary<T> = ReadonlyArray<readonly [T, readonly string[]]>;

const RISK_WORDS: Vocabulary<Risk> = [
  ['low', ['low', '낮음', '낮은', '저위험', '하']],
  ['medium', ['medium', 'moderate', 'mid', '중간', '보통', '중위험', '중']],
  ['high', ['high', '높음', '높은', '고위험', '상']],
];

// Immoral comes first: '비도덕적' contains '도덕적'.
const ALIGNMENT_WORDS: Vocabulary<Alignment> = [
  ['immoral', ['immoral', 'unethical', 'evil', '비도덕적', '부도덕', '비윤리적', '악한', '악']],
  ['moral', ['moral', 'ethical', 'good', '도덕적', '윤리적', '선한', '선']],
  ['neutral', ['neutral', '중립']],
];

function tokenMatches(token: string, word: string): boolean {
  if (token === word) return true;
  if (word.length < 2) return false;
  return /^[a-z]+$/.test(word) ? token.startsWith(word) : token.includes(word);
}

function readWord<T>(word: unknown, vocabulary: Vocabulary<T>, fallback: T): T {
  if (typeof word !== 'string') return fallback;
  const tokens = word
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean);
  for (const token of tokens) {
    for (const [value, words] of vocabulary) {
      if (words.some((candidate) => tokenMatches(token, candidate))) return value;
    }
  }
  return fallback;
}

/** A model's risk word, English or Korean, as a Risk; anything unknown is medium. */
export function toRisk(word: unknown): Risk {
  return readWord(word, RISK_WORDS, 'medium');
}

/** A model's alignment word, English or Korean, as an Alignment; anything unknown is neutral. */
export function toAlignment(word: unknown): Alignment {
  return readWord(word, ALIGNMENT_WORDS, 'neutral');
}

// Key spellings models use for each field, compared case-insensitively.
const TEXT_KEYS = [
  'text',
  'description',
  'option',
  'content',
  'choice',
  '텍스트',
  '선택지',
  '내용',
];
const RISK_KEYS = ['risk', 'risklevel', 'risk_level', '위험도', '위험'];
const ALIGNMENT_KEYS = ['alignment', 'moralalignment', 'moral_alignment', 'morality', '도덕성'];
const TRAIT_KEYS = ['traitalignment', 'trait_alignment', 'trait', '특성'];

/** The value of the first of `keys` the entry has, ignoring the case of its keys. */
function field(entry: Record<string, unknown>, keys: readonly string[]): unknown {
  const byLowerKey = new Map<string, unknown>();
  for (const [key, value] of Object.entries(entry)) {
    const lower = key.toLowerCase();
    if (!byLowerKey.has(lower)) byLowerKey.set(lower, value);
  }
  for (const key of keys) {
    if (byLowerKey.has(key)) return byLowerKey.get(key);
  }
  return undefined;
}

/**
 * An option as the player sees it, or null when it has nothing to read: its text without hidden
 * characters and remarks must keep a letter or digit, or it would be a blank button.
 */
function toStoryOption(entry: unknown): StoryOption | null {
  if (!isRecord(entry)) return null;
  const rawText = field(entry, TEXT_KEYS);
  const risk = field(entry, RISK_KEYS);
  if (typeof rawText !== 'string' || typeof risk !== 'string') return null;
  const text = stripParentheticals(withoutHiddenCharacters(rawText));
  if (!isReadable(text)) return null;
  const trait = field(entry, TRAIT_KEYS);
  return {
    text,
    risk: toRisk(risk),
    alignment: toAlignment(field(entry, ALIGNMENT_KEYS)),
    // A trait with nothing to read would be a blank tag.
    traitAlignment:
      typeof trait === 'string' && isReadable(trait) ? withoutHiddenCharacters(trait).trim() : '',
  };
}

/** The candidate entries: a list, an object keyed by number or name, or one bare option. */
function entriesOf(raw: unknown): unknown[] {
  if (Array.isArray(raw)) return raw;
  if (!isRecord(raw)) return [];
  return toStoryOption(raw) ? [raw] : Object.values(raw);
}

/**
 * The model's options as StoryOptions (SPEC.md section 5): entries without readable text or a
 * risk string are dropped (a reply left with none is asked for again, as one without options
 * is); three or more sharing a risk get low, medium, high by position; two or more all sharing
 * an alignment get moral, immoral, neutral by position.
 */
export function normalizeOptions(raw: unknown): StoryOption[] {
  const options = entriesOf(raw)
    .map(toStoryOption)
    .filter((option): option is StoryOption => option !== null);

  const riskCounts = new Map<Risk, number>();
  for (const { risk } of options) riskCounts.set(risk, (riskCounts.get(risk) ?? 0) + 1);
  const risksCrowded = [...riskCounts.values()].some((count) => count >= 3);

  const firstAlignment = options[0]?.alignment;
  const alignmentsUniform =
    options.length >= 2 && options.every(({ alignment }) => alignment === firstAlignment);

  return options.map((option, index) => ({
    ...option,
    risk: risksCrowded ? (RISK_CYCLE[index % 3] ?? 'medium') : option.risk,
    alignment: alignmentsUniform ? (ALIGNMENT_CYCLE[index % 3] ?? 'neutral') : option.alignment,
  }));
}
