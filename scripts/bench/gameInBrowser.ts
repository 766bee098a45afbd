/**
 * The browser benchmarks' game (budgets 3 and 4): the real server on the built app, the fake
 * model server, Chromium with the test wallet, signed in with a key for the fake provider. It
 * reuses the e2e harness (test/e2e/support) rather than repeating it.
 */
import type { BrowserContext, Page } from 'playwright-core';
import {
  startFakeModelServer,
  type FakeModelServer,
  type FakeModelServerOptions,
  type ReplyFunction,
} from '../../test/fixtures/fakeModelServer';
import { TestWallet } from '../../test/fixtures/testWallet';
import { DESKTOP, launchBrowser } from '../../test/e2e/support/browser';
import { injectTestWallet } from '../../test/e2e/support/injectWallet';
import {
  connectWallet,
  fillKeyForm,
  submitKey,
  type JourneyTarget,
} from '../../test/e2e/support/journey';
import { startServer } from '../../test/e2e/support/server';
import { distDir, newBenchContext } from './benchPage';

export const API_KEY = 'sk-bench-game';

export interface BrowserGame {
  page: Page;
  model: FakeModelServer;
  wallet: TestWallet;
  close(): Promise<void>;
}

/**
 * Starts everything and leaves the page on load-or-create, signed in, with the key accepted.
 * Whatever started is stopped again if a step fails.
 */
export interface BrowserGameOptions {
  /** The provider the fake model server plays (fakeProviders); lenient by default. */
  profile?: FakeModelServerOptions['profile'];
  /**
   * Chooses the provider and types the key on the key form (the Submit is the harness's); by
   * default the custom provider at the fake model server's URL (journey.ts, fillKeyForm).
   */
  fillKey?: (page: Page, target: JourneyTarget) => Promise<void>;
  /** Chromium's flags beyond the harness's (launchBrowser). */
  browserArgs?: readonly string[];
}

export async function openBrowserGame(
  replyWith: ReplyFunction,
  /** Anything the page needs before the app's code runs (init scripts, routes). */
  prepare: (context: BrowserContext, model: FakeModelServer) => Promise<void> = async () => {},
  options: BrowserGameOptions = {},
): Promise<BrowserGame> {
  const started: { close(): Promise<void> }[] = [];
  const close = async () => {
    for (const part of started.reverse()) await part.close().catch(() => undefined);
  };
  const start = <T extends object>(part: Promise<T>, stop: (started: T) => Promise<void>) =>
    part.then((running) => {
      started.push({ close: () => stop(running) });
      return running;
    });
  try {
    // Side by side (the server's database start is the long part); all settled before going
    // on, so that a part still starting when another fails is stopped too.
    const starting = {
      server: start(startServer({ DIST_DIR: distDir(), SIGN_IN_RATE_LIMIT: '1000' }), (s) =>
        s.stop(),
      ),
      model: start(
        startFakeModelServer({
          validKeys: [API_KEY],
          replyWith,
          ...(options.profile && { profile: options.profile }),
        }),
        (m) => m.close(),
      ),
      browser: start(launchBrowser(options.browserArgs), (b) => b.close()),
    };
    await Promise.allSettled(Object.values(starting));
    const [server, model, browser] = [
      await starting.server,
      await starting.model,
      await starting.browser,
    ];
    const wallet = new TestWallet(1);
    const context: BrowserContext = await newBenchContext(browser, { viewport: DESKTOP });
    await injectTestWallet(context, wallet);
    await prepare(context, model);
    const page = await context.newPage();
    const target = { url: server.url, model, apiKey: API_KEY };
    await connectWallet(page, target.url);
    await (options.fillKey ?? fillKeyForm)(page, target);
    await submitKey(page, target.url);
    return { page, model, wallet, close };
  } catch (error) {
    await close();
    throw error;
  }
}
