/**
 * Budget 2, first contentful paint of / in headless Chromium with the CPU slowed 4x (CDP
 * Emulation.setCPUThrottlingRate), at most 1.5x that of a production React page rendering one
 * component (pages/oneComponent.tsx, bundled now), median of 15 loads each, in the same run.
 * Both pages are served by the real server (one for the app's build, one for the one-component
 * page), so only the page differs; every load is a new browser context, with nothing cached. The
 * loads alternate between the two pages, so a busy moment of the machine falls on both.
 */
import fs from 'node:fs';
import type { Browser } from 'playwright-core';
import { DESKTOP, launchBrowser } from '../../test/e2e/support/browser';
import { startServer } from '../../test/e2e/support/server';
import { bundleBenchPage, distDir, newBenchContext } from './benchPage';
import { median, ms, times, type Benchmark, type BudgetResult } from './budget';

const LOADS = 15;
const CPU_SLOWDOWN = 4;
const LIMIT = 1.5;

interface PaintedLoad {
  /** First contentful paint, ms after navigation start. */
  fcp: number;
  /** What the page had fetched by then: path → ms its response ended. */
  before: Record<string, number>;
}

/** One load of `url` in a new context with the CPU slowed down, until its first contentful paint. */
async function paintOnce(browser: Browser, url: string): Promise<PaintedLoad> {
  const context = await newBenchContext(browser, { viewport: DESKTOP });
  try {
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: CPU_SLOWDOWN });
    await page.goto(url, { waitUntil: 'load' });
    return await page.evaluate(
      () =>
        new Promise<PaintedLoad>((resolve, reject) => {
          const timer = setTimeout(() => reject(new Error('no first contentful paint')), 20_000);
          new PerformanceObserver((list, observer) => {
            const paint = list.getEntriesByName('first-contentful-paint')[0];
            if (!paint) return;
            observer.disconnect();
            clearTimeout(timer);
            const resources = performance.getEntriesByType(
              'resource',
            ) as PerformanceResourceTiming[];
            const before = Object.fromEntries(
              resources
                .filter((resource) => resource.responseEnd <= paint.startTime)
                .map((resource) => [new URL(resource.name).pathname, resource.responseEnd]),
            );
            resolve({ fcp: paint.startTime, before });
          }).observe({ type: 'paint', buffered: true });
        }),
    );
  } finally {
    await context.close();
  }
}

/** The files most loads had fetched before their first paint. */
function usuallyBefore(loads: PaintedLoad[]): string {
  const counts = new Map<string, number>();
  for (const load of loads) {
    for (const file of Object.keys(load.before)) counts.set(file, (counts.get(file) ?? 0) + 1);
  }
  return (
    [...counts]
      .filter(([, count]) => count > loads.length / 2)
      .map(([file]) => file)
      .join(', ') || 'nothing'
  );
}

const spread = (values: number[]) =>
  `${ms(median(values))} (${ms(Math.min(...values))} to ${ms(Math.max(...values))})`;

const firstPaint: Benchmark = {
  name: 'firstPaint',
  async run(): Promise<BudgetResult[]> {
    const dist = distDir();
    const floor = await bundleBenchPage('oneComponent.tsx', dist);
    const [app, onePage, browser] = await Promise.all([
      startServer({ DIST_DIR: dist }),
      startServer({ DIST_DIR: floor }),
      launchBrowser(),
    ]);
    try {
      // One load of each first, not counted: the servers' first answers are slower.
      await paintOnce(browser, app.url);
      await paintOnce(browser, onePage.url);
      const appLoads: PaintedLoad[] = [];
      const floorLoads: PaintedLoad[] = [];
      for (let i = 0; i < LOADS; i += 1) {
        // Alternating which goes first, so neither always follows the other.
        if (i % 2 === 0) {
          appLoads.push(await paintOnce(browser, app.url));
          floorLoads.push(await paintOnce(browser, onePage.url));
        } else {
          floorLoads.push(await paintOnce(browser, onePage.url));
          appLoads.push(await paintOnce(browser, app.url));
        }
      }
      const appFcp = appLoads.map((load) => load.fcp);
      const floorFcp = floorLoads.map((load) => load.fcp);
      const ratio = median(appFcp) / median(floorFcp);
      return [
        {
          budget: '2. First contentful paint of /',
          limit: `≤ ${times(LIMIT)} a one-component React page (CPU ${CPU_SLOWDOWN}x slower, median of ${LOADS})`,
          measured: `${times(ratio)} (${ms(median(appFcp))} against ${ms(median(floorFcp))})`,
          pass: ratio <= LIMIT,
          details: {
            'the app, median (fastest to slowest)': spread(appFcp),
            'one React component, median (fastest to slowest)': spread(floorFcp),
            ratio: times(ratio),
            'the app had fetched by its first paint (not all of it in the way)':
              usuallyBefore(appLoads),
            'the one-component page had fetched by its first paint': usuallyBefore(floorLoads),
            'measured how': `headless Chromium, a new context per load, Emulation.setCPUThrottlingRate ${CPU_SLOWDOWN}, first-contentful-paint entry; both pages served by the real server (${dist} and a one-component page bundled with esbuild at bench time)`,
          },
        },
      ];
    } finally {
      await browser.close();
      await Promise.all([app.stop(), onePage.stop()]);
      fs.rmSync(floor, { recursive: true, force: true });
    }
  },
};

export default firstPaint;
