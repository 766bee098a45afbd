/**
 * Journey 2 once more with the keyboard only (issue 7, Accessibility): every control the game
 * needs is reached with Tab and worked with Enter, Space, typing or the number keys. No mouse
 * click and no locator.fill() is used: a control that cannot be reached by Tab fails the test.
 */
import type { Locator, Page } from 'playwright-core';
import { TestWallet } from '../fixtures/testWallet';
import { baseUrl } from './support/backend';
import { DESKTOP, collectPageErrors, screenshot } from './support/browser';
import { injectTestWallet } from './support/injectWallet';
import { browser, model, withBrowserAndModel } from './support/session';

const API_KEY = 'sk-keyboard';
withBrowserAndModel([API_KEY]);

/** The most Tab presses a control may be away (the genre screen has ~66 chips before Submit). */
const MAX_TABS = 120;

const isFocused = (target: Locator) =>
  target.evaluate((element) => element === document.activeElement).catch(() => false);

/** Presses Tab until `target` has the focus; fails if it never gets it. */
async function tabTo(page: Page, target: Locator, what: string) {
  await target.waitFor();
  for (let presses = 0; presses < MAX_TABS; presses += 1) {
    if (await isFocused(target)) return;
    await page.keyboard.press('Tab');
  }
  if (!(await isFocused(target))) throw new Error(`Tab never reached ${what}`);
}

async function press(page: Page, target: Locator, what: string, key = 'Enter') {
  await tabTo(page, target, what);
  await page.keyboard.press(key);
}

async function typeInto(page: Page, target: Locator, what: string, text: string) {
  await tabTo(page, target, what);
  await page.keyboard.press('ControlOrMeta+A');
  await page.keyboard.type(text);
}

test('journey 2 with the keyboard only: sign in, key, new game, turns, ending, saved result', async () => {
  const context = await browser.newContext({ viewport: DESKTOP, reducedMotion: 'reduce' });
  await injectTestWallet(context, new TestWallet(1));
  const page = await context.newPage();
  const errors = collectPageErrors(page);
  const button = (name: string | RegExp) => page.getByRole('button', { name });

  await page.goto(baseUrl());
  await press(page, button('Connect Wallet'), 'Connect Wallet');
  await page.locator('.wallet-address__tick').waitFor();

  // The provider is a native select: focused, it takes the first letters of an option.
  await tabTo(page, page.getByLabel('Provider'), 'the provider');
  await page.keyboard.type('Custom');
  expect(await page.getByLabel('Provider').inputValue()).toBe('custom');
  await typeInto(page, page.getByLabel('Base URL'), 'the base URL', model.url);
  await typeInto(page, page.getByLabel('Model', { exact: true }), 'the model', 'fake-model');
  await typeInto(page, page.getByLabel('API key'), 'the API key', API_KEY);
  await page.keyboard.press('Enter');
  await page.waitForURL(`${baseUrl()}/game`);

  await press(page, button('Start New Game'), 'Start New Game');
  await press(page, page.locator('.genre-chip').first(), 'the first preset genre');
  await press(page, button('Submit Genre'), 'Submit Genre');
  await press(page, button('Portrait 5'), 'portrait 5', 'Space');
  await press(page, button('Choose me'), 'Choose me');
  await press(page, button('Random'), 'Random');
  await press(page, button('Submit'), 'Submit');

  const options = page.locator('.options__list button');
  const ending = page.getByRole('heading', { name: 'Adventure Complete' });
  await options.first().waitFor({ timeout: 20_000 });
  await screenshot(page, 'keyboard-1-playing');

  // Turn 1: Tab to an option and press Enter. Turn 2: the player's own words. Then number keys.
  await press(page, options.first(), 'the first option');
  await options.first().waitFor({ timeout: 20_000 });
  await typeInto(page, page.getByLabel('Enter your choice'), 'the choice field', 'I hum a tune');
  await page.keyboard.press('Enter');
  let turns = 2;
  while (!(await ending.isVisible())) {
    await Promise.race([options.first().waitFor({ timeout: 20_000 }), ending.waitFor()]);
    if (await ending.isVisible()) break;
    // Focus must not sit in the text field, where a digit is typed rather than chosen.
    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    await page.keyboard.press('1');
    turns += 1;
    await page.waitForFunction(() => !document.querySelector('.loading-overlay'), undefined, {
      timeout: 20_000,
    });
    if (turns > 14) throw new Error('the story did not end by turn 14');
  }
  expect(turns).toBeGreaterThanOrEqual(7);
  await screenshot(page, 'keyboard-2-ending');

  await press(page, button('Save Adventure Results'), 'Save Adventure Results');
  await page.getByText('Adventure results saved!').waitFor();
  await press(page, page.getByRole('link', { name: 'Leaderboard' }), 'the Leaderboard link');
  await page.waitForURL(`${baseUrl()}/leaderboard`);
  await page.locator('tbody tr').first().waitFor();
  expect(errors.filter((error) => !/Failed to load resource/.test(error))).toEqual([]);
  await context.close();
});
