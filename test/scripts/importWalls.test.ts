/**
 * The walls between the parts of the house (DESIGN.md, layout) are the lint's to keep: ESLint,
 * with the project's own eslint.config.mjs, refuses an import that crosses one (at any folder
 * depth, type imports included), and the cycle check of `npm run lint` finds a circle that only
 * type imports close.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import ts from 'typescript';
import { findCycles, importGraph, projectModules } from '../../scripts/imports/cycles';

const projectRoot = path.resolve(__dirname, '..', '..');

interface Case {
  /** Where the imagined file is, from the project's root. */
  file: string;
  code: string;
}

/**
 * Each file linted as it would be in place (ESLint's lintText with its path; the file need not
 * exist), in a Node process of its own as `npm run lint` runs ESLint: the rule ids reported.
 */
function rulesFired(cases: Case[]): string[][] {
  const script = `
    import { ESLint } from 'eslint';
    const eslint = new ESLint({ cwd: process.cwd() });
    const cases = JSON.parse(process.env.CASES);
    const fired = [];
    for (const { file, code } of cases) {
      const [result] = await eslint.lintText(code, { filePath: file });
      fired.push(result.messages.map((message) => message.ruleId ?? message.message));
    }
    console.log(JSON.stringify(fired));
  `;
  const run = spawnSync(process.execPath, ['--input-type=module', '-e', script], {
    cwd: projectRoot,
    env: { ...process.env, CASES: JSON.stringify(cases) },
    encoding: 'utf8',
  });
  if (run.status !== 0) throw new Error(`ESLint did not run: ${run.stderr}`);
  return JSON.parse(run.stdout) as string[][];
}

const WALL = 'import-x/no-restricted-paths';

describe('the lint refuses an import that crosses a wall', () => {
  const crossings: [string, Case][] = [
    [
      "a feature's view past another feature's index",
      {
        file: 'src/features/game/views/Crossing.tsx',
        code: "export { promptsFor } from '../../llm/prompts';\n",
      },
    ],
    [
      "a feature's saga past another feature's index",
      {
        file: 'src/features/game/sagas/crossing.ts',
        code: "export { storiesSlice } from '../../stories/storiesSlice';\n",
      },
    ],
    [
      'a feature reaching another one level up',
      {
        file: 'src/features/stories/crossing.ts',
        code: "export { gameSlice } from '../game/gameSlice';\n",
      },
    ],
    [
      'a feature importing the app (a type only)',
      {
        file: 'src/features/game/views/Crossing.tsx',
        code: "import type { RootState } from '../../../app/store';\nexport type S = RootState;\n",
      },
    ],
    [
      'the engine importing a feature',
      { file: 'src/engine/crossing.ts', code: "export { gameActions } from '../features/game';\n" },
    ],
    [
      'shared code importing a feature (a type only)',
      {
        file: 'src/shared/crossing.ts',
        code: "import type { ModelClient } from '../features/llm';\nexport type M = ModelClient;\n",
      },
    ],
    [
      'the server importing an SPA module',
      {
        file: 'server/crossing.ts',
        code: "export { connectStep } from '../src/features/llm/connectPolicy';\n",
      },
    ],
    [
      'common/ importing the SPA',
      {
        file: 'common/crossing.ts',
        code: "export { DEFAULT_PUBLISHABLE_KEY } from '../src/api';\n",
      },
    ],
    [
      "the app importing a feature's module that is no entry of it",
      {
        file: 'src/app/Crossing.tsx',
        code: "export { gameSlice } from '../features/game/gameSlice';\n",
      },
    ],
    [
      'the SPA importing the server',
      {
        file: 'src/features/stories/crossing.ts',
        code: "export { DESCRIPTION_CHARS } from '../../../server/storyPage';\n",
      },
    ],
    [
      'the SPA importing an Edge Function (a type only)',
      {
        file: 'src/api/crossing.ts',
        code: "import type { SignInRefusal } from '../../supabase/functions/_shared/walletLogin';\nexport type R = SignInRefusal;\n",
      },
    ],
    [
      'an Edge Function importing the SPA',
      {
        file: 'supabase/functions/_shared/crossing.ts',
        code: "export { PROVIDERS } from '../../../src/features/llm/providers.ts';\n",
      },
    ],
    [
      'an Edge Function importing the server',
      {
        file: 'supabase/functions/wallet-login/crossing.ts',
        code: "export { newSigningJwk } from '../../../server/auth.ts';\n",
      },
    ],
  ];
  const allowed: [string, Case][] = [
    [
      "a feature's view through another feature's index",
      {
        file: 'src/features/game/views/Allowed.tsx',
        code: "export { promptsFor } from '../../llm';\n",
      },
    ],
    [
      "a feature's page through another feature's shared views",
      {
        file: 'src/features/stories/published/Allowed.tsx',
        code: "export { StoryChoice } from '../../game/sharedViews';\n",
      },
    ],
    [
      "a feature's own modules, and shared code",
      {
        file: 'src/features/game/views/Allowed.tsx',
        code: "export { gameSlice } from '../gameSlice';\nexport { onDemand } from '../../../shared/onDemand';\n",
      },
    ],
    [
      "the app importing a feature's named entry module",
      {
        file: 'src/app/Allowed.tsx',
        code: "export { GamePage } from '../features/game/GamePage';\n",
      },
    ],
    [
      "the app importing a feature's index",
      {
        file: 'src/app/Allowed.tsx',
        code: "export { gameSlice } from '../features/game';\n",
      },
    ],
    [
      'an Edge Function importing its shared code and common/',
      {
        file: 'supabase/functions/wallet-login/allowed.ts',
        code: "export { walletLoginHandler } from '../_shared/walletLogin.ts';\nexport { PORTRAIT_COUNT } from '../../../common/portraits.ts';\n",
      },
    ],
    [
      'the server importing common/',
      {
        file: 'server/allowed.ts',
        code: "export { CONNECT_COOKIE } from '../common/connectSources';\n",
      },
    ],
  ];

  let fired: string[][];
  beforeAll(() => {
    fired = rulesFired([...crossings, ...allowed].map(([, c]) => c));
  }, 120_000);

  test.each(crossings.map(([name], at) => [name, at] as const))('%s', (_name, at) => {
    expect(fired[at]).toContain(WALL);
  });

  test.each(allowed.map(([name], at) => [name, crossings.length + at] as const))(
    'but not %s',
    (_name, at) => {
      expect(fired[at]).toEqual([]);
    },
  );
});

describe('the cycle check counts type imports', () => {
  let dir: string;
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'taleweaver-cycles-'));
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  function graphOf(files: Record<string, string>) {
    for (const [name, text] of Object.entries(files)) {
      fs.writeFileSync(path.join(dir, name), text);
    }
    const paths = Object.keys(files).map((name) => path.join(dir, name));
    return importGraph(paths, { moduleResolution: ts.ModuleResolutionKind.Bundler });
  }

  test('a circle closed by an `import type` is one', () => {
    const graph = graphOf({
      'context.ts':
        "import type { Client } from './feature';\nexport type C = { client: Client };\n",
      'feature.ts': "export * from './saga';\nexport interface Client { ask(): void }\n",
      'saga.ts': "import type { C } from './context';\nexport const read = (c: C) => c.client;\n",
    });
    const cycles = findCycles(graph);
    expect(cycles).toHaveLength(1);
    const names = cycles[0]!.map((file) => path.basename(file));
    expect(names[0]).toBe(names[names.length - 1]);
    expect(new Set(names)).toEqual(new Set(['context.ts', 'feature.ts', 'saga.ts']));
  });

  test('imports one way are no circle', () => {
    const graph = graphOf({
      'a.ts': "import type { B } from './b';\nexport type A = B;\n",
      'b.ts': "export const load = () => import('./c');\nexport type B = number;\n",
      'c.ts': 'export const c = 1;\n',
    });
    expect(graph.get(path.join(dir, 'b.ts'))).toEqual([path.join(dir, 'c.ts')]);
    expect(findCycles(graph)).toEqual([]);
  });

  test("the project's SPA, server and common/ have none", () => {
    const { files, options } = projectModules();
    expect(files.length).toBeGreaterThan(100);
    expect(findCycles(importGraph(files, options))).toEqual([]);
  });
});
