/**
 * When a text mentions a lorebook keyword (issue 40: "case-insensitive, whole words; in Korean,
 * the word with or without a particle"). A keyword matches where no letter or digit comes
 * right before it, and after it either no letter or digit, or, in Korean, the particles a noun
 * takes and nothing more: 용 is mentioned in 용이, 용에게는 and 용이었다, not in 용기 (courage).
 *
 * Korean particles (조사) change with the sound they follow: 이 after a final consonant (받침),
 * 가 after a vowel; 으로 after a consonant other than ㄹ, 로 after a vowel or ㄹ. The rule is
 * kept, so that 마리 is not found in 마리아 (the vocative 아 follows only a consonant). Up to
 * three particles may stack (에게서 + 는 + 요, 까지 + 도), a name may take the familiar 이
 * before one (민준이가), and the copula, which Korean grammar counts among the particles
 * (서술격 조사), may end the word (용이었다, 사자였다). What cannot be told apart from the
 * word alone is not: 검 (sword) is found in 검은 (black), as 검 + 은. Left out on purpose:
 * plural 들 and honorific 님 (suffixes: an English keyword does not match its plural either)
 * and the colloquial contractions 난 and 날 (나는, 나를), which would make 마리 match 마린.
 */

/** Hangul syllables, 가 (U+AC00) to 힣 (U+D7A3): 28 final consonants to each vowel. */
const FIRST_SYLLABLE = 0xac00;
const LAST_SYLLABLE = 0xd7a3;
const FINALS = 28;
/** The final ㄹ's place among the 28. */
const FINAL_RIEUL = 8;

/** How the word before a particle ends, which decides the particle's form. */
type Ending = 'vowel' | 'rieul' | 'consonant' | 'notHangul';

function endingOf(char: string | undefined): Ending {
  const code = char?.codePointAt(0) ?? 0;
  if (code < FIRST_SYLLABLE || code > LAST_SYLLABLE) return 'notHangul';
  const final = (code - FIRST_SYLLABLE) % FINALS;
  if (final === 0) return 'vowel';
  return final === FINAL_RIEUL ? 'rieul' : 'consonant';
}

/** After what a particle's form comes. */
type After = 'any' | 'vowel' | 'consonant' | 'vowelOrRieul' | 'consonantButRieul';

const fits = (after: After, ending: Ending): boolean => {
  // After a Latin name or a number, the sound is not in the spelling: any form will do.
  if (ending === 'notHangul' || after === 'any') return true;
  if (after === 'vowelOrRieul') return ending !== 'consonant';
  if (after === 'consonantButRieul') return ending === 'consonant';
  // ㄹ is a final consonant like any other but for 으로.
  return after === 'vowel' ? ending === 'vowel' : ending !== 'vowel';
};

/** The particles a noun takes (격조사 and 보조사), each form by what it follows. */
const PARTICLES: Record<After, string> = {
  any:
    '의 에 에서 에게 에게서 한테 한테서 께 께서 더러 하고 보다 처럼 같이 만큼 ' +
    '도 만 까지 부터 조차 마저 밖에 마다 뿐 대로 커녕 요',
  consonant: '이 은 을 과 아 이랑 이나 이나마 이라도 이든지 이든 이야 이야말로 이여 이며',
  vowel: '가 는 를 와 야 랑 나 나마 라도 든지 든 야말로 여 며',
  vowelOrRieul: '로 로서 로써 로부터',
  consonantButRieul: '으로 으로서 으로써 으로부터',
};

/**
 * The copula's common forms after a noun: they end the word. After a vowel its 이 may go
 * (사자다, 사자였다); the shortest of those that are common words too (면, 니, 지) are left out.
 */
const COPULA: Partial<Record<After, string>> = {
  any:
    '이다 이었다 이었던 이었고 이었지 이었을 입니다 입니까 이지 이고 이라고 이라는 이라면 ' +
    '이란 이니까 이면 인 일 이던 이자',
  consonant: '이에요',
  vowel: '다 였다 였던 였고 였지 였을 예요 라고 라는 라면 란',
};

interface Form {
  text: string;
  after: After;
  /** Nothing more may follow it in the word. */
  last: boolean;
}

const formsOf = (table: Partial<Record<After, string>>, last: boolean): Form[] =>
  Object.entries(table).flatMap(([after, forms]) =>
    forms!.split(' ').map((text) => ({ text, after: after as After, last })),
  );

const FORMS: readonly Form[] = [...formsOf(PARTICLES, false), ...formsOf(COPULA, true)];
/** 에게서 + 는 + 요, 민준 + 이 + 가: more than three is no longer a noun's ending. */
const MOST_STACKED = 3;

/** Whether `rest` (the Hangul right after the keyword) is particles only, `ending` before them. */
function isParticles(rest: string, ending: Ending, left = MOST_STACKED): boolean {
  if (rest === '') return true;
  if (left === 0) return false;
  return FORMS.some((form) => {
    if (!rest.startsWith(form.text) || !fits(form.after, ending)) return false;
    const after = rest.slice(form.text.length);
    if (form.last) return after === '';
    return isParticles(after, endingOf(form.text.at(-1)), left - 1);
  });
}

const WORD_CHAR = /[\p{L}\p{N}\p{M}]/u;
const HANGUL_RUN = /^[\uac00-\ud7a3]*/;
const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** A keyword's pattern: its words in order, any white space between them, no letter before. */
function keywordPattern(keyword: string): RegExp | null {
  const words = keyword.normalize('NFC').trim().split(/\s+/).filter(Boolean);
  if (words.length === 0) return null;
  return new RegExp(`(?<![\\p{L}\\p{N}\\p{M}])${words.map(escapeRegExp).join('\\s+')}`, 'giu');
}

/** Whether what follows the keyword at `end` ends the word, with or without particles. */
function endsWord(text: string, end: number, found: string): boolean {
  const after = text.slice(end);
  const run = HANGUL_RUN.exec(after)![0];
  if (WORD_CHAR.test(after.charAt(run.length))) return false;
  return run === '' || isParticles(run, endingOf(Array.from(found).at(-1)));
}

/**
 * A test for whether a text mentions any of `keywords`, made once for many texts (their
 * patterns are built once).
 */
export function keywordMatcher(keywords: readonly string[]): (text: string) => boolean {
  const patterns = keywords.map(keywordPattern).filter((pattern) => pattern !== null);
  return (text) => {
    if (patterns.length === 0 || text === '') return false;
    const normal = text.normalize('NFC');
    return patterns.some((pattern) => {
      pattern.lastIndex = 0;
      for (let match = pattern.exec(normal); match; match = pattern.exec(normal)) {
        if (endsWord(normal, match.index + match[0].length, match[0])) return true;
        // A find whose ending fails may overlap one that starts inside it.
        pattern.lastIndex = match.index + 1;
      }
      return false;
    });
  };
}

/** Whether `text` mentions any of `keywords`, as a whole word (with its particles in Korean). */
export const isMentioned = (text: string, keywords: readonly string[]): boolean =>
  keywordMatcher(keywords)(text);
