/**
 * The lorebook's engine (src/engine/lorebook.ts, loreMentions.ts): when a keyword is mentioned
 * (whole words, any case; Korean with its particles), which entries a turn's and the opening's
 * prompts carry and in what order, within the lorebook's share, and how entries from outside
 * are read within their limits.
 */
import fc from 'fast-check';
import {
  LOREBOOK_MAX_ENTRIES,
  LOREBOOK_TOKEN_BUDGET,
  LORE_ALWAYS_MAX,
  LORE_KEYWORDS_MAX,
  LORE_KEYWORD_MAX_CHARS,
  LORE_MIN_CUT_TOKENS,
  LORE_NAME_MAX_CHARS,
  LORE_TEXT_MAX_CHARS,
  checkedLorebook,
  isLoreEntry,
  isMentioned,
  keywordsOf,
  loreEntryTokens,
  loreForOpening,
  loreForTurn,
  type LoreEntry,
  type TurnTexts,
} from '../../src/engine/lorebook';
import { estimateTokens } from '../../src/features/llm/tokens';

const entry = (id: string, keywords: string[], more: Partial<LoreEntry> = {}): LoreEntry => ({
  id,
  name: id,
  keywords,
  text: `What the model is told of ${id}.`,
  always: false,
  ...more,
});

describe('the issue’s limits', () => {
  test('an entry’s text is at most 500 characters, and at most 3 entries are always told', () => {
    expect(LORE_TEXT_MAX_CHARS).toBe(500);
    expect(LORE_ALWAYS_MAX).toBe(3);
  });

  test('three of the longest English entries fit the lorebook’s share whole, and one Korean', () => {
    const longest = (letter: string) => ({
      name: letter.repeat(LORE_NAME_MAX_CHARS),
      text: `${letter} `.repeat(LORE_TEXT_MAX_CHARS / 2).trim(),
    });
    const english = ['a', 'b', 'c'].map((letter) =>
      loreEntryTokens(longest(letter), estimateTokens),
    );
    expect(english.reduce((sum, tokens) => sum + tokens, 0)).toBeLessThanOrEqual(
      LOREBOOK_TOKEN_BUDGET,
    );
    expect(loreEntryTokens(longest('용'), estimateTokens)).toBeLessThanOrEqual(
      LOREBOOK_TOKEN_BUDGET,
    );
  });
});

describe('a keyword is mentioned as a whole word, in any case', () => {
  test.each<[string, string, boolean]>([
    ['Mira', 'Mira lit the lamp.', true],
    ['Mira', 'The lamp was MIRA’s.', true],
    ['mira', "It was Mira's lamp", true],
    ['Mira', 'Miranda lit the lamp.', false],
    ['Mira', 'Admira lit the lamp.', false],
    ['Mira', 'Mira2 is a ship.', false],
    ['Iron Gate', 'They reached the iron\n  gate at dusk.', true],
    ['Iron Gate', 'They reached the iron gates.', false],
    ['C++', 'written in C++, of course', true],
    ['Dr. Vel', 'Ask Dr. Vel. She knows.', true],
    ['(the One)', 'He spoke of (the one) again.', true],
    ['Élan', 'ÉLAN was her ship', true],
    ['Mira', '', false],
  ])('%s in "%s": %s', (keyword, text, found) => {
    expect(isMentioned(text, [keyword])).toBe(found);
  });

  test('any of several keywords will do; none, or only blank ones, never', () => {
    expect(isMentioned('The ferryman waits.', ['Orla', 'ferryman'])).toBe(true);
    expect(isMentioned('The ferryman waits.', [])).toBe(false);
    expect(isMentioned('The ferryman waits.', ['', '  '])).toBe(false);
  });

  test('a keyword is found where it stands alone after a find that failed', () => {
    expect(isMentioned('a-ab a-a.', ['a-a'])).toBe(true);
  });

  const letters = fc.stringMatching(/^[A-Za-z]{1,12}$/);
  const apart = fc.constantFrom('', ' ', '. ', ', "', '\n', '(', "'s ");

  test('property: a keyword between anything but letters is found, in any case', () => {
    fc.assert(
      fc.property(letters, apart, apart, fc.boolean(), (keyword, before, after, upper) => {
        const written = upper ? keyword.toUpperCase() : keyword.toLowerCase();
        expect(isMentioned(`${before}${written}${after}`, [keyword])).toBe(true);
      }),
    );
  });

  test('property: a keyword run into a longer word is not', () => {
    fc.assert(
      fc.property(
        letters,
        fc.stringMatching(/^[a-z]{1,3}$/),
        fc.boolean(),
        (keyword, more, ahead) => {
          const text = ahead ? `${more}${keyword}` : `${keyword}${more}`;
          expect(isMentioned(`"${text}."`, [keyword])).toBe(false);
        },
      ),
    );
  });
});

describe('in Korean, the word with or without its particles', () => {
  test.each<[string, string]>([
    ['용', '용이 날아올랐다.'],
    ['용', '사람들은 용을 두려워했다.'],
    ['용', '용은 잠들어 있었다.'],
    ['용', '그 검은 용에게서 왔다.'],
    ['용', '용까지도 울었다.'],
    ['용', '그것은 용이었다.'],
    ['용', '"용!" 그가 외쳤다.'],
    ['바다', '배는 바다로 나아갔다.'],
    ['바다', '바다에서 소리가 났다.'],
    ['바다', '그가 본 것은 바다였다.'],
    ['바다', '바다와 하늘'],
    ['서울', '서울로 돌아왔다.'],
    ['서울', '서울과 부산'],
    ['미라', '미라야, 어디 있니?'],
    ['민준', '민준아, 이리 와.'],
    ['민준', '민준이가 문을 열었다.'],
    ['민준', '민준이는 웃었다.'],
    ['철수', '철수의 등불'],
    ['철수', '철수한테 물어봐.'],
    ['철수', '철수처럼 말했다.'],
    ['철수', '철수보다 빨랐다.'],
    ['철수', '철수만을 믿었다.'],
    ['철수', '철수나 영희나'],
    ['철수', '그 사람은 철수라고 했다.'],
    ['달빛 검', '그는 달빛  검을 뽑았다.'],
    ['Mira', 'Mira는 등불을 켰다.'],
    ['Mira', 'Mira에게로'],
  ])('%s is mentioned in "%s"', (keyword, text) => {
    expect(isMentioned(text, [keyword])).toBe(true);
  });

  test.each<[string, string, string]>([
    ['용', '그는 용기를 냈다.', 'the start of a longer noun (용기, courage)'],
    ['용', '흑용이 울었다.', 'the end of a longer noun'],
    ['서울', '서울역에서 만났다.', 'a compound (서울역, the station)'],
    ['마리', '마리아가 웃었다.', '마리아: 아 follows a consonant only, so it is no particle here'],
    ['철수', '철수아 어디 가?', 'the vocative after a vowel is 야, not 아'],
    ['바다', '바다으로 갔다.', '으로 follows a consonant other than ㄹ'],
    ['서울', '서울으로 갔다.', 'after ㄹ the form is 로'],
    ['민준', '민준가 왔다.', '가 follows a vowel'],
    ['철수', '철수은 왔다.', '은 follows a consonant'],
    ['달빛', '달빛검을 뽑았다.', 'run into the next noun'],
    ['Mira', 'Mira벨이 울렸다.', 'a Hangul word that is no particle'],
  ])('%s is not mentioned in "%s": %s', (keyword, text) => {
    expect(isMentioned(text, [keyword])).toBe(false);
  });

  test('text typed decomposed (NFD, as some keyboards and systems send it) is read as composed', () => {
    expect(isMentioned('용을 보았다'.normalize('NFD'), ['용'])).toBe(true);
    expect(isMentioned('용을 보았다', ['용'.normalize('NFD')])).toBe(true);
    expect(isMentioned('용기를'.normalize('NFD'), ['용'])).toBe(false);
  });

  const nouns = fc.constantFrom('용', '바다', '서울', '민준', '철수', '등불', '길', '성');
  /** The form of a particle pair that fits a noun's last syllable. */
  const hasFinal = (noun: string) => (noun.charCodeAt(noun.length - 1) - 0xac00) % 28 !== 0;
  const endsInRieul = (noun: string) => (noun.charCodeAt(noun.length - 1) - 0xac00) % 28 === 8;
  const PAIRS: [string, string][] = [
    ['이', '가'],
    ['은', '는'],
    ['을', '를'],
    ['과', '와'],
    ['이나', '나'],
    ['이랑', '랑'],
  ];
  const ANY = [
    '의',
    '에',
    '에서',
    '에게',
    '한테',
    '께',
    '도',
    '만',
    '까지',
    '부터',
    '처럼',
    '보다',
  ];

  test('property: a noun with a fitting particle, and a stacked one, is mentioned', () => {
    fc.assert(
      fc.property(
        nouns,
        fc.constantFrom(...PAIRS),
        fc.constantFrom(...ANY),
        fc.constantFrom('', '도', '만', '까지'),
        fc.constantFrom('', '.', ' 갔다', '!'),
        (noun, [afterConsonant, afterVowel], any, stacked, end) => {
          const fitting = hasFinal(noun) ? afterConsonant : afterVowel;
          expect(isMentioned(`${noun}${fitting}${end}`, [noun])).toBe(true);
          expect(isMentioned(`${noun}${any}${stacked}${end}`, [noun])).toBe(true);
          const ro = hasFinal(noun) && !endsInRieul(noun) ? '으로' : '로';
          expect(isMentioned(`${noun}${ro}${end}`, [noun])).toBe(true);
        },
      ),
    );
  });

  test('property: a noun with the other form of its particle, or run into a syllable that is none, is not', () => {
    fc.assert(
      fc.property(
        nouns,
        fc.constantFrom(...PAIRS),
        fc.constantFrom('굴', '빛', '품', '탑', '살'),
        (noun, [afterConsonant, afterVowel], syllable) => {
          const wrong = hasFinal(noun) ? afterVowel : afterConsonant;
          expect(isMentioned(`${noun}${wrong} 갔다`, [noun])).toBe(false);
          expect(isMentioned(`${noun}${syllable}을 보았다`, [noun])).toBe(false);
        },
      ),
    );
  });
});

describe('keywords as the player writes them', () => {
  test('the form’s commas (Korean ones too), trimmed, each once whatever its case', () => {
    expect(keywordsOf(' Mira , mira,the  Lamp ,, 등불，빛、MIRA ')).toEqual([
      'Mira',
      'the Lamp',
      '등불',
      '빛',
    ]);
    expect(keywordsOf(['Orla', 7, '', 'Orla'])).toEqual(['Orla']);
    expect(keywordsOf(null)).toEqual([]);
  });

  test('at most LORE_KEYWORDS_MAX, each cut to LORE_KEYWORD_MAX_CHARS, never half a character', () => {
    const many = Array.from({ length: 20 }, (_, i) => `k${i}`);
    expect(keywordsOf(many)).toHaveLength(LORE_KEYWORDS_MAX);
    expect(keywordsOf(['x'.repeat(100)])[0]).toHaveLength(LORE_KEYWORD_MAX_CHARS);
    const [dragons] = keywordsOf(['🐉'.repeat(50)]);
    expect(Array.from(dragons!)).toHaveLength(LORE_KEYWORD_MAX_CHARS);
  });

  test('typed decomposed, a keyword is kept composed (NFC)', () => {
    expect(keywordsOf(['용'.normalize('NFD')])).toEqual(['용']);
  });
});

describe('entries as the game keeps them', () => {
  const orla = entry('Orla', ['Orla']);

  test('an entry is one within the limits, a character (an emoji) counted once', () => {
    expect(isLoreEntry(orla)).toBe(true);
    expect(isLoreEntry({ ...orla, text: '🐉'.repeat(LORE_TEXT_MAX_CHARS) })).toBe(true);
    expect(isLoreEntry({ ...orla, keywords: [] })).toBe(true);
    for (const wrong of [
      { ...orla, id: '' },
      { ...orla, name: '  ' },
      { ...orla, name: 'n'.repeat(LORE_NAME_MAX_CHARS + 1) },
      { ...orla, text: 'x'.repeat(LORE_TEXT_MAX_CHARS + 1) },
      { ...orla, keywords: ['Orla', ''] },
      { ...orla, keywords: ['k'.repeat(LORE_KEYWORD_MAX_CHARS + 1)] },
      { ...orla, keywords: Array.from({ length: LORE_KEYWORDS_MAX + 1 }, (_, n) => `k${n}`) },
      { ...orla, keywords: 'Orla' },
      { ...orla, always: 'yes' },
      'Orla',
      null,
    ]) {
      expect(isLoreEntry(wrong)).toBe(false);
    }
  });

  test('a lorebook read back: what is no entry dropped, ids unique, three always, LOREBOOK_MAX_ENTRIES', () => {
    const stored = [
      entry('a', ['a'], { always: true }),
      'not an entry',
      { ...entry('b', ['b']), text: 'x'.repeat(LORE_TEXT_MAX_CHARS + 1) },
      { ...entry('c', ['c']), id: 'a', always: true, extra: 'not kept' },
      entry('d', ['d'], { always: true }),
      entry('e', ['e'], { always: true }),
      ...Array.from({ length: 60 }, (_, i) => entry(`x${i}`, [`x${i}`])),
    ];
    const book = checkedLorebook(stored);
    expect(book).toHaveLength(LOREBOOK_MAX_ENTRIES);
    expect(book.slice(0, 4).map((kept) => [kept.id, kept.name, kept.always])).toEqual([
      ['a', 'a', true],
      ['entry-1', 'c', true],
      ['d', 'd', true],
      ['e', 'e', false],
    ]);
    expect(book[1]).not.toHaveProperty('extra');
    expect(checkedLorebook({ a: 1 })).toEqual([]);
    expect(checkedLorebook(undefined)).toEqual([]);
  });

  test('property: whatever is stored, a lorebook read back is within its limits and reads the same again', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.oneof(
            fc.anything(),
            fc.record({
              id: fc.oneof(fc.string(), fc.constant('same')),
              name: fc.string({ maxLength: 70 }),
              keywords: fc.oneof(
                fc.array(fc.string({ maxLength: 45 }), { maxLength: 12 }),
                fc.string(),
              ),
              text: fc.string({ maxLength: 700 }),
              always: fc.boolean(),
            }),
          ),
          { maxLength: 50 },
        ),
        (stored) => {
          const book = checkedLorebook(stored);
          expect(book.length).toBeLessThanOrEqual(LOREBOOK_MAX_ENTRIES);
          expect(book.filter((kept) => kept.always).length).toBeLessThanOrEqual(LORE_ALWAYS_MAX);
          expect(new Set(book.map((kept) => kept.id)).size).toBe(book.length);
          expect(book.every(isLoreEntry)).toBe(true);
          expect(checkedLorebook(book)).toEqual(book);
        },
      ),
    );
  });
});

/** One token a word: budgets that a reader can count. */
const words = (text: string) => text.split(/\s+/).filter(Boolean).length;

const turn = (texts: Partial<TurnTexts>): TurnTexts => ({
  storyLog: [],
  lastParagraph: '',
  choice: '',
  sheet: '',
  ...texts,
});

describe('which entries a turn’s prompt carries', () => {
  const orla = entry('Orla', ['Orla', 'ferryman’s daughter']);
  const key = entry('Key', ['brass key']);
  const tower = entry('Tower', ['tower']);
  const guild = entry('Guild', ['guild']);
  const book = [orla, key, tower, guild];
  const log = [
    { text: 'Orla rowed you across. A brass key lay in the boat.' },
    { text: 'Climb the tower' },
    { text: 'The tower was empty.' },
  ];

  const told = (texts: Partial<TurnTexts>, lorebook = book, budget?: number) =>
    loreForTurn(lorebook, turn(texts), words, budget).map((kept) => kept.id);

  test('an entry goes in when its keyword is in the last paragraph, the choice or the sheet', () => {
    expect(told({ storyLog: log, lastParagraph: 'You found the brass key again.' })).toEqual([
      'Key',
    ]);
    expect(told({ storyLog: log, choice: 'Ask about the guild' })).toEqual(['Guild']);
    expect(told({ storyLog: log, sheet: 'Orla (person): drowned in turn 6.' })).toEqual(['Orla']);
  });

  test('an entry mentioned only in older paragraphs does not', () => {
    expect(told({ storyLog: log, lastParagraph: 'Rain.', choice: 'Wait' })).toEqual([]);
  });

  test('the most recently mentioned first: the choice, the last paragraph, then older text', () => {
    const story = {
      storyLog: [
        { text: 'Orla rowed you across.' },
        { text: 'Pocket the brass key' },
        { text: 'The tower was empty.' },
      ],
      lastParagraph: 'The guild hall was locked.',
      choice: 'Climb the tower',
      sheet: 'Orla (person): the ferryman’s daughter. Brass key (item): in your pocket.',
    };
    expect(told(story)).toEqual(['Tower', 'Guild', 'Key', 'Orla']);
    // Orla in the choice now: the newest of all.
    expect(told({ ...story, choice: 'Call for Orla' })).toEqual(['Orla', 'Guild', 'Key']);
  });

  test('the latest paragraph and the choice count as the newest, in the log or not', () => {
    const storyLog = [{ text: 'The guild sent word.' }, { text: 'Orla laughed.' }];
    // The log ends with the latest paragraph and the choice, as when the turn's prompt is made.
    const inLog = [...storyLog, { text: 'The guild knows.' }, { text: 'Ask Orla' }];
    const texts = { lastParagraph: 'The guild knows.', choice: 'Ask Orla' };
    expect(told({ storyLog, ...texts })).toEqual(['Orla', 'Guild']);
    expect(told({ storyLog: inLog, ...texts })).toEqual(['Orla', 'Guild']);
  });

  test('within the same text, ties keep the lorebook’s order; an entry only the sheet names comes last', () => {
    const lastParagraph = 'The guild and the tower.';
    expect(told({ lastParagraph, sheet: 'Orla: the ferryman’s daughter.' })).toEqual([
      'Tower',
      'Guild',
      'Orla',
    ]);
  });

  test('entries marked always come first, in the lorebook’s order, mentioned or not', () => {
    const always = [orla, { ...guild, always: true }, key, { ...tower, always: true }];
    expect(told({ lastParagraph: 'Orla waits.' }, always)).toEqual(['Guild', 'Tower', 'Orla']);
  });

  test('within the budget: entries that fit go in whole; one that overflows is cut to the room left', () => {
    const long = (id: string, count: number) =>
      entry(id, [id], { text: Array.from({ length: count }, (_, i) => `w${i}`).join(' ') });
    // Each costs its name (1 word) + its words + 2.
    const lorebook = [long('a', 60), long('b', 100), long('c', 10)];
    const texts = { lastParagraph: 'c b a' };
    const result = loreForTurn(lorebook, turn(texts), words, 120);
    expect(result.map((kept) => [kept.id, kept.shortened])).toEqual([
      ['a', false],
      ['b', true],
    ]);
    const cut = result[1]!;
    expect(cut.text.endsWith('…')).toBe(true);
    expect(cut.text.startsWith('w0 w1 w2')).toBe(true);
    const spent = result.reduce((sum, kept) => sum + loreEntryTokens(kept, words), 0);
    // a costs 63; b is cut to the 57 left, at a word.
    expect(spent).toBe(120);
  });

  test('with less than LORE_MIN_CUT_TOKENS left, an entry too long is left out for a shorter one', () => {
    const long = entry('long', ['long'], { text: 'w '.repeat(50).trim() });
    const short = entry('short', ['short'], { text: 'three words here' });
    const first = entry('first', ['first'], { text: 'w '.repeat(70).trim() });
    // first costs 73; 39 are left: too little to cut long to, enough for short whole.
    const budget = 73 + LORE_MIN_CUT_TOKENS - 1;
    const texts = turn({ lastParagraph: 'first long short' });
    const ids = loreForTurn([first, long, short], texts, words, budget).map((kept) => kept.id);
    expect(ids).toEqual(['first', 'short']);
  });

  test('no lorebook, no entries; a lorebook nothing mentions, none', () => {
    expect(told({ lastParagraph: 'Orla.' }, [])).toEqual([]);
    expect(told({ lastParagraph: 'Nothing here.' })).toEqual([]);
  });

  test('property: every entry told is always or mentioned, once, always ones first, within the budget', () => {
    const KEYS = ['orla', 'key', 'tower', 'guild', 'mira', '용', '바다'];
    const anEntry = fc.record({
      keywords: fc.subarray(KEYS, { minLength: 1, maxLength: 2 }),
      words: fc.integer({ min: 1, max: 120 }),
      always: fc.boolean(),
    });
    const aText = fc.array(fc.constantFrom(...KEYS, 'rain', 'the', '용기', '바다로'), {
      maxLength: 6,
    });
    fc.assert(
      fc.property(
        fc.array(anEntry, { maxLength: 12 }),
        fc.array(aText, { maxLength: 6 }),
        aText,
        aText,
        aText,
        fc.integer({ min: 0, max: 600 }),
        (drafts, logTexts, last, choice, sheet, budget) => {
          const lorebook = checkedLorebook(
            drafts.map((draft, i) => ({
              id: `e${i}`,
              name: `E${i}`,
              keywords: draft.keywords,
              text: 'word '.repeat(draft.words).trim(),
              always: draft.always,
            })),
          );
          const texts = turn({
            storyLog: logTexts.map((text) => ({ text: text.join(' ') })),
            lastParagraph: last.join(' '),
            choice: choice.join(' '),
            sheet: sheet.join(' '),
          });
          const result = loreForTurn(lorebook, texts, estimateTokens, budget);
          const spent = result.reduce(
            (sum, kept) => sum + loreEntryTokens(kept, estimateTokens),
            0,
          );
          expect(spent).toBeLessThanOrEqual(budget);
          expect(new Set(result.map((kept) => kept.id)).size).toBe(result.length);
          const firstNotAlways = result.findIndex((kept) => !kept.always);
          if (firstNotAlways >= 0) {
            expect(result.slice(firstNotAlways).every((kept) => !kept.always)).toBe(true);
          }
          for (const kept of result) {
            const mentioned = [texts.lastParagraph, texts.choice, texts.sheet].some((text) =>
              isMentioned(text, kept.keywords),
            );
            expect(kept.always || mentioned).toBe(true);
          }
          // Nothing is left out while the share has room for it whole.
          const left = budget - spent;
          const cut = result.some((kept) => kept.shortened);
          for (const kept of lorebook) {
            const mentioned = [texts.lastParagraph, texts.choice, texts.sheet].some((text) =>
              isMentioned(text, kept.keywords),
            );
            if (!cut && (kept.always || mentioned) && !result.some((told) => told.id === kept.id)) {
              expect(loreEntryTokens(kept, estimateTokens)).toBeGreaterThan(left);
            }
          }
          expect(loreForTurn(lorebook, texts, estimateTokens, budget)).toEqual(result);
        },
      ),
    );
  });
});

describe('which entries the opening’s prompt carries', () => {
  test('only the entries marked always, in the lorebook’s order', () => {
    const book = [
      entry('a', ['a']),
      entry('b', ['b'], { always: true }),
      entry('c', ['c']),
      entry('d', ['d'], { always: true }),
    ];
    expect(loreForOpening(book, estimateTokens).map((kept) => kept.id)).toEqual(['b', 'd']);
    expect(loreForOpening([entry('a', ['a'])], estimateTokens)).toEqual([]);
  });

  test('within the budget too: a long Korean entry is cut to the share', () => {
    const korean = entry('바다의 여신', ['여신'], { text: '바다'.repeat(250), always: true });
    const [told] = loreForOpening([korean], estimateTokens, 100);
    expect(told?.shortened).toBe(true);
    expect(loreEntryTokens(told!, estimateTokens)).toBeLessThanOrEqual(100);
  });

  test('an entry whose name alone overflows the room left is left out, never sent empty', () => {
    // Sixty Hangul syllables: about sixty tokens before any of its text.
    const named = entry('용'.repeat(LORE_NAME_MAX_CHARS), ['용'], { always: true });
    const short = entry('Orla', ['Orla'], { always: true });
    const told = loreForOpening([named, short], estimateTokens, LORE_MIN_CUT_TOKENS + 5);
    expect(told.map((kept) => kept.name)).toEqual(['Orla']);
  });
});
