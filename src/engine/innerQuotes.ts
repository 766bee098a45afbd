/**
 * Quotes a model writes inside the strings of its reply without escaping them (SPEC.md section
 * 5): "storySegment": "She whispered "No", and left." A quote ends its string only where JSON can
 * go on after a string; any other quote is the text's own, dialogue most often.
 */

const SMART_DOUBLE_QUOTES = '“”„‟«»';

const NUMBER = String.raw`-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?`;
const WORD = String.raw`[\p{L}\p{N}_$]+`;
const COMMENT = String.raw`\/[/*]`;
/** A key: a word, quoted or not, then its colon. */
const KEY = String.raw`(?:"[^"\n]*"|'[^'\n]*'|${WORD})\s*:`;
/** The next key with no comma before it: quoted, or unquoted on a line of its own. */
const KEY_WITHOUT_COMMA = String.raw`"[^"\n]*"\s*:|\n\s*${WORD}\s*:`;
/** A list item that ends where the item does: a short string, a number or a literal. */
const ITEM = String.raw`(?:"[^"\n]*"|'[^'\n]*'|${NUMBER}|true|false|null)\s*(?:$|[,\]}])`;

/**
 * What JSON can hold after a string: the colon after a key; the end of an object or list; a
 * comma and the next key, item, object, list or comment; a comment; or, a comma forgotten, the
 * next key. A remark in brackets between the string and any of these is the model's, not the
 * text's ("risk": "high" (very risky),). Dialogue never reads like this: 'said "No", and left'.
 */
const AFTER_STRING = new RegExp(
  String.raw`(?:\s*\([^()]*\))?\s*(?:$|[:}\]]|${COMMENT}|,\s*(?:$|[{[\]}]|${COMMENT}|${KEY}|${ITEM})|${KEY_WITHOUT_COMMA})`,
  'uy',
);

/** Whether the quote at `at` ends its string: what follows it is what follows a string. */
function endsString(text: string, at: number): boolean {
  AFTER_STRING.lastIndex = at + 1;
  return AFTER_STRING.test(text);
}

/** What becomes of a quote inside a string: escaped, as JSON wants it, or dropped. */
export type InnerQuoteMend = 'escape' | 'drop';

/**
 * The reply with the quotes inside its double-quoted strings escaped (or dropped); smart quotes
 * around a string are taken as JSON's own and become plain ones. Single-quoted strings are
 * passed over whole: jsonrepair rewrites those, inner quotes and all.
 */
export function mendInnerQuotes(text: string, mend: InnerQuoteMend): string {
  let out = '';
  let opener: string | null = null;
  for (let i = 0; i < text.length; i += 1) {
    const ch = text.charAt(i);
    const isSmart = SMART_DOUBLE_QUOTES.includes(ch);
    if (opener === null) {
      if (ch === '"' || ch === "'" || isSmart) opener = ch;
      out += isSmart ? '"' : ch;
    } else if (ch === '\\') {
      out += ch + text.charAt(i + 1);
      i += 1;
    } else if (opener === "'") {
      if (ch === "'" && endsString(text, i)) opener = null;
      out += ch;
    } else if ((ch === '"' || (isSmart && opener !== '"')) && endsString(text, i)) {
      opener = null;
      out += '"';
    } else if (ch === '"') {
      out += mend === 'escape' ? '\\"' : '';
    } else {
      out += isSmart && mend === 'drop' ? '' : ch;
    }
  }
  return out;
}
