/**
 * Splits the compiled English catalogue (run by `npm run intl:compile`, after formatjs) into
 * its parts (src/app/intl/messageParts.ts): src/app/intl/compiled/en.home.json holds the
 * messages the entry point's code shows, en.pages.json and en.profile.json the rest, each
 * fetched with the first page that shows them (src/app/intl/catalogues.ts).
 */
import fs from 'node:fs';
import path from 'node:path';
import { messagePart, type MessagePart } from '../src/app/intl/messageParts';

const compiled = path.join(__dirname, '..', 'src', 'app', 'intl', 'compiled');
const english = JSON.parse(fs.readFileSync(path.join(compiled, 'en.json'), 'utf8')) as Record<
  string,
  unknown
>;
const parts: Record<MessagePart, Record<string, unknown>> = {
  home: {},
  pages: {},
  profile: {},
  sharing: {},
  localNetwork: {},
  memory: {},
  lore: {},
  illustrate: {},
  pictures: {},
  troubles: {},
};
for (const [id, message] of Object.entries(english)) parts[messagePart(id)][id] = message;
for (const [part, messages] of Object.entries(parts)) {
  fs.writeFileSync(path.join(compiled, `en.${part}.json`), JSON.stringify(messages));
}
