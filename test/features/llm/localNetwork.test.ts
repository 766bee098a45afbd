/**
 * Reading the browser's Local Network Access permission (src/features/llm/localNetwork.ts and
 * localNetworkPermission.ts):
 * the granular name first (`loopback-network`, `local-network`), then the first name Chrome
 * shipped (`local-network-access`); a name the browser does not know rejects the query with a
 * TypeError, as Chromium's does for any name it lacks, and the next is tried.
 */
import fs from 'node:fs';
import path from 'node:path';
import {
  PERMISSION_NAMES,
  browserLocalNetworkAccess,
  localNetworkPermission,
  type PrivateSpace,
} from '../../../src/features/llm';

/** A browser's navigator.permissions that knows these names, in these states. */
function permissionsKnowing(states: Record<string, PermissionState>) {
  const asked: string[] = [];
  const permissions = {
    asked,
    query: async ({ name }: PermissionDescriptor) => {
      asked.push(name);
      const state = states[name];
      if (!state) {
        // Chromium's words for a name it does not know.
        throw new TypeError(
          `Failed to execute 'query' on 'Permissions': The provided value '${name}' is not a valid enum value of type PermissionName.`,
        );
      }
      return { name, state } as PermissionStatus;
    },
  };
  return permissions;
}

const query = (permissions: Pick<Permissions, 'query'> | null, space: PrivateSpace) =>
  localNetworkPermission({ permissions }, space);

test('a browser with the granular names: both names of the space asked, a denial first', async () => {
  const permissions = permissionsKnowing({
    'loopback-network': 'denied',
    'local-network': 'granted',
    'local-network-access': 'prompt',
  });
  await expect(query(permissions, 'loopback')).resolves.toBe('denied');
  await expect(query(permissions, 'local')).resolves.toBe('granted');
  expect(permissions.asked).toEqual([
    'loopback-network',
    'local-network-access',
    'local-network',
    'local-network-access',
  ]);
});

test('a denial under the alias alone is a denial (Chromium 156, set by CDP)', async () => {
  const permissions = permissionsKnowing({
    'loopback-network': 'prompt',
    'local-network': 'prompt',
    'local-network-access': 'denied',
  });
  await expect(query(permissions, 'loopback')).resolves.toBe('denied');
  await expect(query(permissions, 'local')).resolves.toBe('denied');
});

test('granted under every name is granted; not yet asked is prompt', async () => {
  const granted = permissionsKnowing({
    'loopback-network': 'granted',
    'local-network': 'granted',
    'local-network-access': 'granted',
  });
  await expect(query(granted, 'loopback')).resolves.toBe('granted');
  const fresh = permissionsKnowing({
    'loopback-network': 'prompt',
    'local-network': 'prompt',
    'local-network-access': 'prompt',
  });
  await expect(query(fresh, 'local')).resolves.toBe('prompt');
});

test('a browser that knows only `local-network-access` (Chrome 142): that name for both', async () => {
  const permissions = permissionsKnowing({ 'local-network-access': 'denied' });
  await expect(query(permissions, 'loopback')).resolves.toBe('denied');
  await expect(query(permissions, 'local')).resolves.toBe('denied');
  expect(permissions.asked).toEqual([
    'loopback-network',
    'local-network-access',
    'local-network',
    'local-network-access',
  ]);
});

test('a browser that knows none of them, or has no Permissions API: unknown', async () => {
  await expect(query(permissionsKnowing({}), 'loopback')).resolves.toBe('unknown');
  await expect(query(null, 'local')).resolves.toBe('unknown');
});

test('the names of each space are its granular one and the alias', () => {
  expect(PERMISSION_NAMES).toEqual({
    loopback: ['loopback-network', 'local-network-access'],
    local: ['local-network', 'local-network-access'],
  });
});

test("the browser's page: its host name, whether it is a secure context, its permissions", async () => {
  const permissions = permissionsKnowing({ 'loopback-network': 'granted' });
  const page = (isSecureContext?: boolean, withPermissions = true) =>
    browserLocalNetworkAccess({
      location: { hostname: 'taleweaver.example' },
      isSecureContext,
      navigator: withPermissions ? { permissions } : {},
    } as unknown as Window);
  const access = page(true);
  expect(access).toEqual({ pageHost: 'taleweaver.example', secureContext: true, permissions });
  await expect(localNetworkPermission(access, 'loopback')).resolves.toBe('granted');
  expect(page(false).secureContext).toBe(false);
  // A browser that predates isSecureContext (and Local Network Access), or the Permissions API.
  expect(page(undefined, false)).toMatchObject({ secureContext: true, permissions: null });
});

/** Every source file of the app, for what none of them may do. */
function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return /\.tsx?$/.test(entry.name) ? [full] : [];
  });
}

/**
 * The one worker the app starts, and the module it is built from: the pictures' work (issue
 * 41), which asks a preset provider's public API for a picture, reads a Custom server's answer
 * that the page fetched, checks a picture and compresses it. What it may ask, and nothing else:
 * the picture's request (llm pictures/pictureClient.ts, over requests.ts).
 */
const PICTURE_WORKERS: Record<string, string> = {
  'features/pictures/work/openPicturesWorker.ts': 'features/pictures/work/pictures.worker.ts',
};
const REQUESTS_IN_WORKER = ['features/llm/pictures/pictureClient.ts', 'features/llm/requests.ts'];

/** A module's file: `name.ts`, or a folder's `index.ts`. */
function moduleFile(base: string): string {
  return fs.existsSync(`${base}.ts`) ? `${base}.ts` : path.join(base, 'index.ts');
}

/**
 * A module and every module it imports by a relative path, as a worker bundle holds them: an
 * `import type` or `export type` statement is erased by the compiler, so brings nothing in.
 */
function moduleGraph(file: string, seen = new Set<string>()): Set<string> {
  if (seen.has(file)) return seen;
  seen.add(file);
  const source = fs.readFileSync(file, 'utf8');
  for (const [, specifier] of source.matchAll(
    /^(?:import|export)\s+(?!type\b)[^;]*?from '(\.[^']+)'/gm,
  )) {
    moduleGraph(moduleFile(path.resolve(path.dirname(file), specifier!)), seen);
  }
  return seen;
}

test("the model is called from the page itself; the one worker's code makes no request but the picture's", () => {
  // Chrome asks the player from the page that makes the request; a request from a service or
  // shared worker has no page to ask from, and is refused. So a player's own server (Custom) is
  // asked from the page alone: test/features/pictures/pictureWork.test.ts holds the worker to
  // the presets' pictures.
  const src = path.resolve(__dirname, '..', '..', '..', 'src');
  const workers = sourceFiles(src).filter((file) =>
    /new (Shared)?Worker\(|serviceWorker\.register/.test(fs.readFileSync(file, 'utf8')),
  );
  expect(workers.map((file) => path.relative(src, file))).toEqual(Object.keys(PICTURE_WORKERS));
  for (const worker of Object.values(PICTURE_WORKERS)) {
    const graph = [...moduleGraph(path.join(src, worker))].map((file) => path.relative(src, file));
    expect(graph.length).toBeGreaterThan(1);
    // No socket, beacon or script loading at all; requests only in the picture's own.
    for (const file of graph) {
      expect(fs.readFileSync(path.join(src, file), 'utf8')).not.toMatch(
        /XMLHttpRequest|WebSocket|EventSource|sendBeacon|importScripts|import\(/,
      );
    }
    // The browser's fetch, called or bound (requests.ts and pictureClient.ts bind it).
    const fetching = graph.filter((file) =>
      /globalThis\.fetch|(?<![.\w])fetch\(/.test(fs.readFileSync(path.join(src, file), 'utf8')),
    );
    expect(fetching.sort()).toEqual([...REQUESTS_IN_WORKER].sort());
    // The text model's client is not in it.
    expect(graph.filter((file) => /llm\/(httpModelClient|streaming|chat)/.test(file))).toEqual([]);
  }
});
