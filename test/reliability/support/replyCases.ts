/**
 * Generated cases for replies.reliability.ts: model replies with dialogue left unescaped,
 * options made of invisible characters, and stored stats of any kind.
 */
import fc from 'fast-check';

// ---- Dialogue: story and option texts with quotes inside, left unescaped by the model ----

const LITERALS = new Set(['true', 'false', 'null']);
const word = fc.oneof(
  fc.constantFrom('the', 'guard', 'whispered', 'gate', "don't", 'Mira', '성벽을', '오른다', '…'),
  fc.stringMatching(/^[A-Za-z]{1,9}$/).filter((w) => !LITERALS.has(w)),
  fc.stringMatching(/^[가-힣]{1,4}$/),
);
const number = fc.integer({ min: 0, max: 9999 }).map(String);
/** Words inside a quoted line or a remark, where commas and colons are the text's own. */
const phrase = fc
  .array(fc.tuple(fc.oneof(word, number), fc.constantFrom(' ', ' ', ', ', ': ', '; ')), {
    minLength: 1,
    maxLength: 6,
  })
  .map((parts) => parts.map(([w, sep], i) => (i === parts.length - 1 ? w : w + sep)).join(''));
const endMark = fc.constantFrom('', '', '.', ',', '!', '?', '…');
const quoteMarks = fc.constantFrom(['"', '"'], ['"', '"'], ['“', '”']);

type Piece = { kind: 'word' | 'number' | 'quote' | 'remark'; text: string };
const piece: fc.Arbitrary<Piece> = fc.oneof(
  word.map((text) => ({ kind: 'word' as const, text })),
  number.map((text) => ({ kind: 'number' as const, text })),
  fc.tuple(phrase, endMark, quoteMarks).map(([line, mark, [open, close]]) => ({
    kind: 'quote' as const,
    text: open + line + mark + close,
  })),
  phrase.map((line) => ({ kind: 'remark' as const, text: `(${line})` })),
);
const separator = fc.constantFrom(' ', ' ', ', ', '. ', '! ', '? ', '; ', ' — ', '\n', '.\n');

/**
 * Narrative with dialogue in it. Left out, because JSON itself could mean them and the text
 * cannot say otherwise: a colon or bracket outside a quoted line or remark, the words
 * true/false/null, a number right before a comma, a quoted line right after a comma.
 */
export const dialogue = fc
  .array(fc.tuple(piece, separator), { minLength: 1, maxLength: 24 })
  .map((parts) =>
    parts
      .map(([current, sep], i) => {
        const next = parts[i + 1]?.[0];
        if (!next) return current.text;
        const plain = sep.includes('\n') || (current.kind !== 'number' && next.kind !== 'quote');
        return current.text + (plain ? sep : ' ');
      })
      .join(''),
  )
  .filter((text) => text.includes('"'));

/** The quotes in a text that JSON would need escaped. */
export const innerQuotes = (text: string) => text.split('"').length - 1;

export interface DialogueReply {
  storySegment: string;
  options: Array<{ text: string; risk: string; alignment: string; traitAlignment: string }>;
}

export const dialogueReply: fc.Arbitrary<DialogueReply> = fc.record({
  storySegment: dialogue,
  options: fc.array(
    fc.record({
      text: dialogue,
      risk: fc.constantFrom('low', 'medium', 'high'),
      alignment: fc.constantFrom('moral', 'immoral', 'neutral'),
      traitAlignment: word,
    }),
    { minLength: 1, maxLength: 4 },
  ),
});

export type Layout = 'compact' | 'pretty' | 'fenced';
export const layout = fc.constantFrom<Layout>('compact', 'pretty', 'fenced');

/** The reply as a model writes it: every quote inside a text left as it is. */
export function unescapedReply(reply: DialogueReply, as: Layout): string {
  const [nl, indent] = as === 'compact' ? [' ', ''] : ['\n', '  '];
  const entries = (fields: Array<[string, string]>, depth: number) =>
    fields.map(([key, value]) => `${indent.repeat(depth)}"${key}": ${value}`).join(`,${nl}`);
  const options = reply.options.map(
    (o) =>
      `${indent.repeat(2)}{${nl}${entries(
        [
          ['text', `"${o.text}"`],
          ['risk', `"${o.risk}"`],
          ['alignment', `"${o.alignment}"`],
          ['traitAlignment', `"${o.traitAlignment}"`],
        ],
        3,
      )}${nl}${indent.repeat(2)}}`,
  );
  const object = `{${nl}${entries(
    [
      ['storySegment', `"${reply.storySegment}"`],
      ['options', `[${nl}${options.join(`,${nl}`)}${nl}${indent}]`],
    ],
    1,
  )}${nl}}`;
  return as === 'fenced' ? `Here is the next part:\n\`\`\`json\n${object}\n\`\`\`\nEnjoy!` : object;
}

// ---- Options made of invisible characters ----

/**
 * Characters that hide or reverse the text around them: zero-width space, soft hyphen, word
 * joiner, byte-order mark, bidi marks, embeddings, overrides and isolates, Hangul fillers,
 * tag characters, controls. None of them may reach the screen.
 */
export const HIDING = [
  ...'\u200B\u00AD\u2060\uFEFF\u180E\u034F\u200E\u200F\u061C',
  ...'\u202A\u202B\u202C\u202D\u202E\u2066\u2067\u2068\u2069',
  ...'\u3164\u115F\u1160\uFFA0\u{E0001}\u{E0041}\u{E007F}\u0000\u0007\u001B\u007F',
];
/** Characters that show nothing alone but may stay: joiners, a variation selector, whitespace. */
const BLANK = [...'\u200C\u200D\uFE0F\u0301\u2800 \t\n\u00A0\u3000\u2028'];
export const HIDES_TEXT = new RegExp(HIDING.join('|'), 'u');

const invisibles = fc
  .array(fc.constantFrom(...HIDING, ...BLANK), { maxLength: 8 })
  .map((chars) => chars.join(''));

/** Visible text with hiding characters slipped into it. */
const hiddenIn = (visible: string) =>
  fc
    .array(fc.tuple(fc.nat(), fc.constantFrom(...HIDING)), { minLength: 1, maxLength: 6 })
    .map((inserts) =>
      inserts
        .reduce(
          (chars, [at, ch]) => chars.toSpliced(at % (chars.length + 1), 0, ch),
          Array.from(visible),
        )
        .join(''),
    );

const visibleWords = fc
  .array(fc.stringMatching(/^[A-Za-z가-힣0-9]{1,8}$/), { minLength: 1, maxLength: 5 })
  .map((words) => words.join(' '));

/**
 * An option's text, and what the player must see of it: `shows` is that text exactly, null when
 * the option must not be shown at all, undefined when either is fine as long as it is readable.
 */
export type OptionCase = { text: string; shows?: string | null };

export const optionCase: fc.Arbitrary<OptionCase> = fc.oneof(
  invisibles.map((text) => ({ text, shows: null })),
  invisibles.map((text) => ({ text: `${text}(${text})${text}`, shows: null })),
  fc.constantFrom('.', '...', '—', '!?', '\u0301\u0301').map((text) => ({ text, shows: null })),
  visibleWords.chain((words) => hiddenIn(words).map((text) => ({ text, shows: words }))),
  fc.string({ unit: 'binary', maxLength: 12 }).map((text) => ({ text })),
);

export const invisibleOptionsReply = fc.record({
  storySegment: visibleWords.chain(hiddenIn),
  options: fc.array(fc.record({ option: optionCase, trait: fc.oneof(invisibles, visibleWords) }), {
    maxLength: 5,
  }),
});

// ---- Stored stats of any kind ----

/** A stat as JSON text: in range, far out of it, beyond a double, or not a number at all. */
const storedStatJson = fc.oneof(
  fc.integer({ min: -150, max: 150 }).map(String),
  fc.double({ noNaN: true, noDefaultInfinity: true }).map((n) => JSON.stringify(n)),
  fc.constantFrom(
    '1e9',
    '-1e9',
    '1e400',
    '-1e400',
    '0.5',
    '-0',
    '"50"',
    '"NaN"',
    'null',
    'true',
    '[]',
    '{}',
  ),
);

const STAT_NAMES = ['moralScore', 'riskScore', 'traitConsistency', 'creativity', 'successRate'];

/** A playerStats object as JSON text with stats missing or odd; now and then not an object. */
export const storedStatsJson = fc.oneof(
  {
    weight: 9,
    arbitrary: fc
      .array(fc.option(storedStatJson), { minLength: 5, maxLength: 5 })
      .map(
        (values) =>
          `{${values
            .flatMap((value, i) => (value === null ? [] : [`"${STAT_NAMES[i]}": ${value}`]))
            .join(', ')}}`,
      ),
  },
  { weight: 1, arbitrary: fc.constantFrom('null', '"high"', '[1, 2]', '42') },
);
