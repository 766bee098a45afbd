/**
 * The README's examples that name a test are that test, word for word: a snippet whose first
 * line is `// test/...test.ts` has its imports at the top of that file (the paths from the
 * repository's root there, from the test here) and the rest, indented once, in its body. A
 * change to one without the other fails here, so the README shows code that runs.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

const ROOT = join(__dirname, '..', '..');
const README = readFileSync(join(ROOT, 'README.md'), 'utf8');

/** Each ```ts block of the README whose first line names a test file. */
const examples = [...README.matchAll(/```ts\n\/\/ (test\/\S+\.test\.ts)\n([\s\S]*?)```/g)].map(
  ([, file, code]) => ({ file: file!, code: code! }),
);

/** An import from the repository's root, as the test in test/outside/ writes it. */
const fromTheTest = (line: string) =>
  line.replace("from './test/", "from '../").replace("from './", "from '../../");

test('the README has an example that names its test', () => {
  expect(examples.map((example) => example.file)).toContain('test/outside/rateLimitReplay.test.ts');
});

test.each(examples)('the example in $file is that test', ({ file, code }) => {
  const test = readFileSync(join(ROOT, file), 'utf8');
  const [imports, body] = code.split(/\n\n([\s\S]*)/);
  expect(test).toContain(imports!.split('\n').map(fromTheTest).join('\n'));
  const indented = body!
    .trimEnd()
    .split('\n')
    .map((line) => (line === '' ? '' : `  ${line}`))
    .join('\n');
  expect(test).toContain(indented);
});
