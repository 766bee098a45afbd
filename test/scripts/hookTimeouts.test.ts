/**
 * Every hook and test of the unit project that starts or stops a server, a database, a chain or
 * a browser names its own time limit (test/support/timeouts.ts), or its file sets one for all
 * (jest.setTimeout): jest's default of 5 s is what a loaded two-core machine breaks. The browser
 * and reliability projects need no such check: their setup gives every test and hook 150 s.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import ts from 'typescript';

const projectRoot = path.resolve(__dirname, '..', '..');
const HOOKS = new Set(['beforeAll', 'afterAll', 'beforeEach', 'afterEach']);
const TESTS = new Set(['test', 'it']);

/** A call that starts something that may wait for the CPU for seconds. */
const STARTS =
  /\b(startFakeModelServer|startTestServer|startLocalChain|startChainGate|startFunctionsServer|startServer|launchBrowser|openEmptyPglite|openDatabase|buildServer|createServer)\(|\.listen\(|\b(backend|database)\.open\(|\(\{ db, drop \} = await open\(\)\)/;
/** A call that stops one of those (servers, databases, chains, browsers; not a store). */
const STOPS =
  /\bstopLocalChain\(|\b(server|servers|model|chain|gate|functions|browser|app|deployed|groq|openai|local|together|router|strict|keyless|guarded|metered)\??\.(close|stop|crash)\(|\bserver\.close\(|\bdrop\??\.?\(\)/;

function unitTestFiles(dir = path.join(projectRoot, 'test')): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'e2e' ? [] : unitTestFiles(full);
    // Not this file: its own sample below starts a server in a string.
    return /\.test\.tsx?$/.test(entry.name) && full !== __filename ? [full] : [];
  });
}

/** `test`, `it.only`, `test.each(...)`: the name of the jest function a call is to. */
function jestFunction(callee: ts.Expression): string | null {
  if (ts.isIdentifier(callee)) return callee.text;
  if (ts.isPropertyAccessExpression(callee)) return jestFunction(callee.expression);
  if (ts.isCallExpression(callee)) return jestFunction(callee.expression); // test.each(rows)(...)
  return null;
}

/** The hooks and tests of `file` that start or stop something with jest's default limit. */
function withoutLimit(file: string): string[] {
  const text = fs.readFileSync(file, 'utf8');
  if (/^jest\.setTimeout\(/m.test(text)) return [];
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  // The file's own helpers that start something (startProvider, listOf, serve...): calling one
  // starts it too.
  const helpers: string[] = [];
  const visitHelpers = (node: ts.Node) => {
    if (ts.isFunctionDeclaration(node) && node.name && node.body) {
      if (STARTS.test(node.body.getText(source))) helpers.push(node.name.text);
    }
    if (ts.isVariableDeclaration(node) && ts.isIdentifier(node.name) && node.initializer) {
      const init = node.initializer;
      if (
        (ts.isArrowFunction(init) || ts.isFunctionExpression(init)) &&
        STARTS.test(init.getText(source))
      ) {
        helpers.push(node.name.text);
      }
    }
    ts.forEachChild(node, visitHelpers);
  };
  visitHelpers(source);
  const startsHere = new RegExp(
    `${STARTS.source}${helpers.length > 0 ? `|\\b(${helpers.join('|')})\\(` : ''}`,
  );
  const fileStartsSomething = startsHere.test(text);

  const found: string[] = [];
  const visit = (node: ts.Node) => {
    if (ts.isCallExpression(node)) {
      const name = jestFunction(node.expression);
      const body = node.arguments.find(
        (arg) => ts.isArrowFunction(arg) || ts.isFunctionExpression(arg),
      );
      if (name && body && (HOOKS.has(name) || TESTS.has(name))) {
        const last = node.arguments[node.arguments.length - 1];
        const hasLimit = last !== body;
        const code = body.getText(source);
        const waits = startsHere.test(code) || (fileStartsSomething && STOPS.test(code));
        if (waits && !hasLimit) {
          const { line } = source.getLineAndCharacterOfPosition(node.getStart(source));
          found.push(`${path.relative(projectRoot, file)}:${line + 1} ${name}`);
        }
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

test('hooks and tests that start or stop a server, a database, a chain or a browser name a limit', () => {
  const files = unitTestFiles();
  expect(files.length).toBeGreaterThan(50);
  expect(files.flatMap(withoutLimit)).toEqual([]);
});

test('the check sees a hook without a limit, and one with', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hook-limits-'));
  try {
    const file = path.join(dir, 'sample.test.ts');
    fs.writeFileSync(
      file,
      [
        'let server: { close(): Promise<void> };',
        'beforeEach(async () => { server = await startFakeModelServer(); });',
        'afterEach(() => server.close(), STOP_TIMEOUT_MS);',
        "test('plain', () => { expect(1).toBe(1); });",
        "test.each([1, 2])('%i', async () => { const other = await startFakeModelServer(); });",
        'afterAll(() => store.stop());',
      ].join('\n'),
    );
    expect(withoutLimit(file).map((where) => where.replace(/^.*sample/, 'sample'))).toEqual([
      'sample.test.ts:2 beforeEach',
      'sample.test.ts:5 test',
    ]);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
