/**
 * Part of `npm run lint`: no module of the SPA, the server or common/ imports, through any path,
 * one that imports it back (DESIGN.md, layout). ESLint's import-x/no-cycle follows runtime
 * imports only; this counts every import TypeScript sees: `import type`, `export ... from` and
 * `import()` too, since a circle through types still ties the parts together. Exits non-zero,
 * printing one path round each circle, when there is one.
 */
import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

const projectRoot = path.resolve(__dirname, '..', '..');
/** The folders whose modules must not go round in circles. */
export const CHECKED_FOLDERS = ['src', 'server', 'common'];

/** Each module's imports of other modules in `files`, as TypeScript resolves them. */
export function importGraph(
  files: readonly string[],
  options: ts.CompilerOptions,
  host: ts.ModuleResolutionHost = ts.sys,
): Map<string, string[]> {
  const known = new Set(files);
  const graph = new Map<string, string[]>();
  for (const file of files) {
    const text = host.readFile(file) ?? '';
    const { importedFiles } = ts.preProcessFile(text, true, true);
    const targets = importedFiles
      .map(({ fileName }) => ts.resolveModuleName(fileName, file, options, host).resolvedModule)
      .map((resolved) => resolved && path.resolve(resolved.resolvedFileName))
      .filter((target): target is string => target !== undefined && known.has(target));
    graph.set(file, [...new Set(targets)]);
  }
  return graph;
}

/**
 * The circles in a graph: each strongly connected part with more than one module (or a module
 * importing itself), as one path round it that starts and ends at the same module.
 */
export function findCycles(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  // Tarjan's strongly connected components, without recursion (some import chains are long).
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const onStack = new Set<string>();
  const stack: string[] = [];
  const parts: string[][] = [];
  let next = 0;
  for (const start of graph.keys()) {
    if (index.has(start)) continue;
    const work: { node: string; edge: number }[] = [{ node: start, edge: 0 }];
    index.set(start, next);
    low.set(start, next++);
    stack.push(start);
    onStack.add(start);
    while (work.length > 0) {
      const frame = work[work.length - 1]!;
      const edges = graph.get(frame.node) ?? [];
      if (frame.edge < edges.length) {
        const to = edges[frame.edge++]!;
        if (!index.has(to)) {
          index.set(to, next);
          low.set(to, next++);
          stack.push(to);
          onStack.add(to);
          work.push({ node: to, edge: 0 });
        } else if (onStack.has(to)) {
          low.set(frame.node, Math.min(low.get(frame.node)!, index.get(to)!));
        }
        continue;
      }
      work.pop();
      const parent = work[work.length - 1];
      if (parent) low.set(parent.node, Math.min(low.get(parent.node)!, low.get(frame.node)!));
      if (low.get(frame.node) !== index.get(frame.node)) continue;
      const part: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        part.push(member);
      } while (member !== frame.node);
      const selfImport = (graph.get(frame.node) ?? []).includes(frame.node);
      if (part.length > 1 || selfImport) parts.push(part);
    }
  }
  return parts.map((part) => cycleThrough(graph, part));
}

/** The shortest path from a part's first module back to itself, inside the part. */
function cycleThrough(graph: ReadonlyMap<string, readonly string[]>, part: string[]): string[] {
  const members = new Set(part);
  const start = part[0]!;
  const cameFrom = new Map<string, string>();
  const queue = [start];
  while (queue.length > 0) {
    const node = queue.shift()!;
    for (const to of graph.get(node) ?? []) {
      if (!members.has(to)) continue;
      if (to === start) {
        const back: string[] = [];
        for (let at: string | undefined = node; at !== undefined && at !== start;) {
          back.unshift(at);
          at = cameFrom.get(at);
        }
        return [start, ...back, start];
      }
      if (!cameFrom.has(to)) {
        cameFrom.set(to, node);
        queue.push(to);
      }
    }
  }
  return [start, start];
}

/** The project's own modules in the checked folders, with its compiler options. */
export function projectModules(root = projectRoot) {
  const configPath = path.join(root, 'tsconfig.json');
  const { config } = ts.readConfigFile(configPath, ts.sys.readFile);
  const parsed = ts.parseJsonConfigFileContent(config, ts.sys, root);
  const inChecked = (file: string) =>
    CHECKED_FOLDERS.some(
      (folder) => !path.relative(path.join(root, folder), file).startsWith('..'),
    );
  const files = parsed.fileNames
    .map((file) => path.resolve(file))
    .filter((file) => inChecked(file) && !file.endsWith('.d.ts') && fs.existsSync(file));
  return { files, options: parsed.options };
}

if (require.main === module) {
  const { files, options } = projectModules();
  const cycles = findCycles(importGraph(files, options));
  const relative = (file: string) => path.relative(projectRoot, file);
  for (const cycle of cycles) {
    console.error(`Import cycle (type imports counted): ${cycle.map(relative).join(' -> ')}`);
  }
  if (cycles.length > 0) process.exit(1);
  console.log(`No import cycle among ${files.length} modules (type imports counted).`);
}
