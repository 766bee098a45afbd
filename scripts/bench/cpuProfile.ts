/**
 * A page's CPU profile as Chromium's profiler records it (CDP Profiler.stop, the .cpuprofile
 * format DevTools opens): the time the page's main thread spent running script in it, and the
 * functions that took the most of it, to say where a turn's script time goes.
 */

export interface CpuProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number };
  hitCount?: number;
  children?: number[];
}

export interface CpuProfile {
  nodes: CpuProfileNode[];
  startTime: number;
  endTime: number;
  samples?: number[];
  timeDeltas?: number[];
}

/** The profiler's own nodes for time no script ran: the thread idle, or in the browser's code. */
const NOT_SCRIPT = new Set(['(idle)', '(program)', '(root)']);
const GC = '(garbage collector)';

/** Milliseconds of samples per node: each sample lasts until the next one. */
function selfTimes(profile: CpuProfile): Map<number, number> {
  const times = new Map<number, number>();
  const samples = profile.samples ?? [];
  const deltas = profile.timeDeltas ?? [];
  for (let i = 0; i < samples.length; i += 1) {
    const next = deltas[i + 1] ?? 0;
    times.set(samples[i]!, (times.get(samples[i]!) ?? 0) + next / 1000);
  }
  return times;
}

/**
 * Milliseconds the profile's samples found script running (its garbage collection included,
 * as DevTools counts it under Scripting), and of that the garbage collector's.
 */
export function scriptTime(profile: CpuProfile): { script: number; gc: number } {
  const names = new Map(profile.nodes.map((node) => [node.id, node.callFrame.functionName]));
  let script = 0;
  let gc = 0;
  for (const [id, time] of selfTimes(profile)) {
    const name = names.get(id) ?? '';
    if (NOT_SCRIPT.has(name)) continue;
    script += time;
    if (name === GC) gc += time;
  }
  return { script, gc };
}

/** Where a function is: its file's name, line and column (1-based), as DevTools shows it. */
const place = ({ url, lineNumber, columnNumber }: CpuProfileNode['callFrame']) =>
  url === '' ? '' : ` ${url.split('/').pop()}:${lineNumber + 1}:${columnNumber + 1}`;

const label = (node: CpuProfileNode) =>
  `${node.callFrame.functionName || '(anonymous)'}${place(node.callFrame)}`;

const lines = (times: Map<string, number>, count: number, total: number) =>
  [...times]
    .sort((a, b) => b[1] - a[1])
    .slice(0, count)
    .map(
      ([key, time]) =>
        `${time.toFixed(1).padStart(8)} ms ${((100 * time) / total).toFixed(1).padStart(5)}%  ${key}`,
    );

/**
 * The `count` functions that took the most script time themselves over these profiles, one
 * line each: milliseconds, share of the script time, name and place.
 */
export function topSelfTime(profiles: CpuProfile[], count: number): string[] {
  const byFunction = new Map<string, number>();
  let total = 0;
  for (const profile of profiles) {
    const nodes = new Map(profile.nodes.map((node) => [node.id, node]));
    for (const [id, time] of selfTimes(profile)) {
      const node = nodes.get(id);
      if (!node || NOT_SCRIPT.has(node.callFrame.functionName)) continue;
      byFunction.set(label(node), (byFunction.get(label(node)) ?? 0) + time);
      total += time;
    }
  }
  return lines(byFunction, count, total);
}

/**
 * Milliseconds of total time (themselves and what they call) per function over these profiles,
 * counted once per sample however deep they recur, and all the script time.
 */
export function totalTimes(profiles: CpuProfile[]): {
  byFunction: Map<string, number>;
  total: number;
} {
  const byFunction = new Map<string, number>();
  let total = 0;
  for (const profile of profiles) {
    const parent = new Map<number, number>();
    for (const node of profile.nodes) {
      for (const child of node.children ?? []) parent.set(child, node.id);
    }
    const nodes = new Map(profile.nodes.map((node) => [node.id, node]));
    for (const [id, time] of selfTimes(profile)) {
      if (NOT_SCRIPT.has(nodes.get(id)?.callFrame.functionName ?? '(root)')) continue;
      total += time;
      const seen = new Set<string>();
      for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
        const node = nodes.get(at);
        if (!node || NOT_SCRIPT.has(node.callFrame.functionName)) break;
        if (seen.has(label(node))) continue;
        seen.add(label(node));
        byFunction.set(label(node), (byFunction.get(label(node)) ?? 0) + time);
      }
    }
  }
  return { byFunction, total };
}

/**
 * The `count` functions with the most total time (themselves and what they call) over these
 * profiles: where to look when the self time is spread thin.
 */
export function topTotalTime(profiles: CpuProfile[], count: number): string[] {
  const { byFunction, total } = totalTimes(profiles);
  return lines(byFunction, count, total);
}
