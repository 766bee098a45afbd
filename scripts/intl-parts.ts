/**
 * Splits the compiled English catalogue (run by `npm run intl:compile`, after formatjs):
 * src/app/intl/compiled/en.home.json holds the messages the entry point's code shows, and
 * en.pages.json the rest, fetched with the first page or part that shows them
 * (src/app/intl/catalogues.ts, messageParts.ts).
 */
import fs from 'node:fs';
import path from 'node:path';
import { isHomeMessage } from '../src/app/intl/messageParts';

const compiled = path.join(__dirname, '..', 'src', 'app', 'intl', 'compiled');
const english = JSON.parse(fs.readFileSync(path.join(compiled, 'en.json'), 'utf8')) as Record<
  string,
  unknown
>;
const entries = Object.entries(english);
const write = (file: string, part: [string, unknown][]) =>
  fs.writeFileSync(path.join(compiled, file), JSON.stringify(Object.fromEntries(part)));
write(
  'en.home.json',
  entries.filter(([id]) => isHomeMessage(id)),
);
write(
  'en.pages.json',
  entries.filter(([id]) => !isHomeMessage(id)),
);
