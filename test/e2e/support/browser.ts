import fs from 'node:fs';
import path from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';

/** Debian's Chromium, or CHROME_PATH; never a browser downloaded by a test tool. */
const executablePath = process.env.CHROME_PATH ?? '/usr/bin/chromium';

/** Flags that keep Chromium quiet on a machine with no network beyond loopback. */
const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

export const RESULTS_DIR = path.resolve(__dirname, '..', '..', '..', 'test-results');

/**
 * How long one step of a journey may wait for the page (a click's target, a sign-in's tick):
 * Playwright's default is 30 s, and a sign-in on a two-core machine running a second suite beside
 * this one took longer. Every context and page of launchBrowser's browser has it.
 */
export const STEP_TIMEOUT_MS = 60_000;

/**
 * Debian's Chromium, headless, with the quiet flags and any a spec adds (for example
 * `--ip-address-space-overrides`, to make the app's address public for Local Network Access).
 * Its contexts and pages wait STEP_TIMEOUT_MS for each step.
 */
export async function launchBrowser(extraArgs: readonly string[] = []): Promise<Browser> {
  const browser = await chromium.launch({
    executablePath,
    headless: true,
    args: [...CHROMIUM_ARGS, ...extraArgs],
  });
  const newContext = browser.newContext.bind(browser);
  browser.newContext = async (options) => {
    const context = await newContext(options);
    context.setDefaultTimeout(STEP_TIMEOUT_MS);
    return context;
  };
  const newPage = browser.newPage.bind(browser);
  browser.newPage = async (options) => {
    const page = await newPage(options);
    page.setDefaultTimeout(STEP_TIMEOUT_MS);
    return page;
  };
  return browser;
}

export const DESKTOP = { width: 1280, height: 800 };
export const PHONE = { width: 390, height: 844 };

/**
 * Screenshots are for a person to look at. E2E_SCREENSHOTS=off, set by .ci/run where nobody
 * does, skips the capture: a full page is about 0.7 s of browser CPU on a two-core machine, and
 * a test run takes over a hundred. The tests assert the same either way.
 */
export const SCREENSHOTS_TAKEN = process.env.E2E_SCREENSHOTS !== 'off';

/** Saves a full-page screenshot under test-results/ for a person to look at. */
export async function screenshot(page: Page, name: string): Promise<void> {
  // As the player sees the screen once the fonts it asked for are in; waited for even when no
  // picture is taken, so what a test measures next is measured on the same screen.
  await page.evaluate(() => document.fonts.ready);
  if (!SCREENSHOTS_TAKEN) return;
  fs.mkdirSync(RESULTS_DIR, { recursive: true });
  await page.screenshot({ path: path.join(RESULTS_DIR, `${name}.png`), fullPage: true });
}

/** Fails the test on any uncaught page error or console error, with what it said. */
export function collectPageErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  return errors;
}

/**
 * Horizontal overflow in CSS pixels: 0 when nothing scrolls sideways. Measured against the
 * layout viewport's clientWidth: with mobile emulation Chrome widens innerWidth to fit wide
 * content, which would hide the overflow.
 */
export function horizontalOverflow(page: Page): Promise<number> {
  return page.evaluate(
    () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
  );
}
