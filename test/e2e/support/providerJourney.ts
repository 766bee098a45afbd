/**
 * The steps of a whole game against a provider preset, shared by the provider journeys
 * (providers.e2e.ts, openaiToday.e2e.ts): sign in, submit the key, play to the ending, and
 * the screenshots and console errors they look at.
 */
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { TestWallet } from '../../fixtures/testWallet';
import { baseUrl } from './backend';
import { DESKTOP, PHONE, STEP_TIMEOUT_MS, screenshot } from './browser';
import { injectTestWallet } from './injectWallet';
import { say, type Lang, type Word } from './words';

/** A player's browser on a desktop or a phone, reduced motion, with the test wallet in it. */
export async function newDeviceContext(
  browser: Browser,
  device: 'desktop' | 'phone',
): Promise<BrowserContext> {
  const context = await browser.newContext(
    device === 'phone'
      ? { viewport: PHONE, isMobile: true, hasTouch: true, reducedMotion: 'reduce' }
      : { viewport: DESKTOP, reducedMotion: 'reduce' },
  );
  await injectTestWallet(context, new TestWallet(1));
  return context;
}

/** A full-page screenshot from the top (scrolled, the sticky header would be drawn mid-page). */
export async function shot(page: Page, name: string): Promise<void> {
  await page.evaluate(() => window.scrollTo(0, 0));
  await screenshot(page, name);
}

/** Errors other than the browser's own line for a 4xx/5xx it loaded. */
export const realErrors = (errors: string[]): string[] =>
  errors.filter((error) => !/Failed to load resource/.test(error));

/** Opens the app in the language and connects the wallet: ends on the key screen. */
export async function signIn(page: Page, lang: Lang): Promise<void> {
  await page.goto(baseUrl());
  if (lang === 'kr') await page.getByLabel('Language').selectOption('kr');
  await page.getByRole('button', { name: say(lang, 'connect') }).click();
  await page.locator('.wallet-address__tick').waitFor();
}

/** Submits the key screen and waits for load-or-create. */
export async function submitKey(page: Page, lang: Lang): Promise<void> {
  await page.getByRole('button', { name: say(lang, 'submit') }).click();
  await page.waitForURL(`${baseUrl()}/game`, { timeout: STEP_TIMEOUT_MS });
  await page.getByRole('button', { name: say(lang, 'startNewGame') }).waitFor();
}

export interface PlayOptions {
  /** Screenshot names: the playing screen after a choice, and the ending. */
  playingShot?: string;
  /** After which turn the playing screen is shot (1 when absent). */
  playingShotAfter?: number;
  endingShot?: string;
  /** Runs right after the option of this turn (1, 2...) is chosen. */
  afterChoice?: (turn: number) => Promise<void>;
  /** Runs once this turn's paragraph is in (the loading overlay gone). */
  afterTurn?: (turn: number) => Promise<void>;
}

/**
 * From load-or-create: a genre, portrait 5, a random name, then the first option each turn
 * until the ending's heading. Returns the turns played.
 */
export async function playToTheEnd(
  page: Page,
  lang: Lang,
  options: PlayOptions = {},
): Promise<number> {
  const button = (word: Word) => page.getByRole('button', { name: say(lang, word), exact: true });
  await button('startNewGame').click();
  await page.locator('.genre-chip').first().click();
  await button('submitGenre').click();
  await button('portrait5').click();
  await button('chooseMe').click();
  await button('random').click();
  await button('submit').click();

  const choices = page.locator('.options__list button');
  const ending = page.getByRole('heading', { name: say(lang, 'ending') });
  let turns = 0;
  for (;;) {
    await choices.first().or(ending).first().waitFor({ timeout: STEP_TIMEOUT_MS });
    if (await ending.isVisible()) break;
    await choices.first().click();
    turns += 1;
    await options.afterChoice?.(turns);
    await page.waitForFunction(() => !document.querySelector('.loading-overlay'), undefined, {
      timeout: STEP_TIMEOUT_MS,
    });
    await options.afterTurn?.(turns);
    if (turns === (options.playingShotAfter ?? 1) && options.playingShot) {
      await shot(page, options.playingShot);
    }
    if (turns > 14) throw new Error('the story did not end by turn 14');
  }
  if (options.endingShot) await shot(page, options.endingShot);
  return turns;
}
