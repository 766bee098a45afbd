/**
 * Steps of a player's journey shared by the e2e specs: connect the injected wallet, enter the
 * key for the fake model server, set up a new game, and play it until the story ends.
 */
import type { Page } from 'playwright-core';
import type { FakeModelServer } from '../../fixtures/fakeModelServer';
import { say, type Lang } from './words';

export interface JourneyTarget {
  /** The app's address (a server of the spec's own, or the shared e2e server). */
  url: string;
  model: FakeModelServer;
  apiKey: string;
}

/** Opens the app and connects the wallet, unless this browser is signed in already. */
export async function connectWallet(page: Page, url: string) {
  await page.goto(url);
  const connect = page.getByRole('button', { name: 'Connect Wallet' });
  const tick = page.locator('.wallet-address__tick');
  await connect.or(tick).first().waitFor();
  if (await connect.isVisible()) await connect.click();
  await tick.waitFor();
}

/** Chooses the fake provider and types the key, without sending it. */
export async function fillKeyForm(page: Page, { model, apiKey }: JourneyTarget) {
  await page.getByLabel('Provider').selectOption('custom');
  await page.getByLabel('Base URL').fill(model.url);
  await page.getByLabel('Model', { exact: true }).fill('fake-model');
  await page.getByLabel('API key').fill(apiKey);
}

/** Sends the key and waits for the load-or-create view. */
export async function submitKey(page: Page, url: string) {
  await page.getByRole('button', { name: 'Submit' }).click();
  await page.waitForURL(`${url}/game`);
  await page.getByRole('button', { name: 'Start New Game' }).waitFor();
}

/** Connects the wallet, sets the fake provider, submits the key: ends on load-or-create. */
export async function connectAndEnterKey(page: Page, target: JourneyTarget) {
  await connectWallet(page, target.url);
  await fillKeyForm(page, target);
  await submitKey(page, target.url);
}

/** From load-or-create: a preset genre, a portrait, a random name, and the name submitted. */
export async function setUpNewGame(page: Page, portrait = 5, lang: Lang = 'en') {
  const button = (name: string) => page.getByRole('button', { name, exact: true });
  await button(say(lang, 'startNewGame')).click();
  await page.locator('.genre-chip').first().click();
  await button(say(lang, 'submitGenre')).click();
  await button(lang === 'en' ? `Portrait ${portrait}` : `초상화 ${portrait}`).click();
  await button(say(lang, 'chooseMe')).click();
  await button(say(lang, 'random')).click();
  await button(say(lang, 'submit')).click();
}

/** A new game, then the first option each turn until the ending screen. Returns the turns. */
export async function playNewGameToTheEnd(page: Page): Promise<number> {
  await setUpNewGame(page);
  const options = page.locator('.options__list button');
  const ending = page.getByRole('heading', { name: 'Adventure Complete' });
  let turns = 0;
  for (;;) {
    await options.first().or(ending).first().waitFor({ timeout: 20_000 });
    if (await ending.isVisible()) return turns;
    await options.first().click();
    turns += 1;
    await page.waitForFunction(() => !document.querySelector('.loading-overlay'), undefined, {
      timeout: 20_000,
    });
    if (turns > 14) throw new Error('the story did not end by turn 14');
  }
}
