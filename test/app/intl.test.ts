import fs from 'node:fs';
import path from 'node:path';
import en from '../../src/app/intl/messages/en.json';
import kr from '../../src/app/intl/messages/kr.json';

const srcDir = path.resolve(__dirname, '../../src');

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return /\.tsx?$/.test(entry.name) ? [full] : [];
  });
}

describe('message catalogues', () => {
  test('English and Korean have exactly the same keys', () => {
    expect(Object.keys(kr).sort()).toEqual(Object.keys(en).sort());
  });

  test('no message is blank', () => {
    for (const catalogue of [en, kr]) {
      for (const [id, message] of Object.entries(catalogue)) {
        expect({ id, blank: message.trim() === '' }).toEqual({ id, blank: false });
      }
    }
  });

  test('every message id the app uses exists in the catalogues', () => {
    // Any string literal in a catalogue namespace ('home.steps.wallet', 'nav.home', ...).
    const namespaces = [...new Set(Object.keys(en).map((id) => id.split('.')[0]))];
    const idPattern = new RegExp(`['"]((?:${namespaces.join('|')})\\.[\\w.]+)['"]`, 'g');
    const used = new Set<string>();
    for (const file of sourceFiles(srcDir)) {
      for (const match of fs.readFileSync(file, 'utf8').matchAll(idPattern)) {
        if (match[1]) used.add(match[1]);
      }
    }
    expect(used.size).toBeGreaterThan(10);
    const missing = [...used].filter((id) => !(id in en));
    expect(missing).toEqual([]);
  });
});
