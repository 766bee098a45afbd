/**
 * Steps of a player's journey shared by the e2e specs: connect the injected wallet and enter
 * the key for the fake model server, then play a new game until the story ends.
 */
import type { Page } from 'playwright-core';
import type { FakeModelServer } from '../../fixtures/fakeModelServer';

export interface JourneyTarget {
  /** The app's address (a server of the spec's own, or the shared e2e server). */
  url: string;
  model: FakeModelServer;
  apiKey: string;
}

/** Connects the wallet (unless this browser is signed in), sets the fake provider, submits the key. */
export async function connectAndEnterKey(page: Page, { url, model, apiKey }: JourneyTarget) {
  await page.goto(url);
  const connect = page.getByRole('button', { name: 'Connect Wallet' });
  const tick = page.locator('.wallet-address__tick');
  await connect.or(tick).first().waitFor();
  if (await connect.isVisible()) await connect.click();
  await tick.waitFor();
  await page.getByLabel('Provider').selectOption({ label: 'Custom (OpenAI-compatible)' });
  await page.getByLabel('Base URL').fill(model.url);
  await page.getByLabel('Model', { exact: true }).fill('fake-model');
  await page.getByLabel('API key').fill(apiKey);
  await page.getByRole('button', { name: 'Submit' }).click();
  await page.waitForURL(`${url}/game`);
  await page.getByRole('button', { name: 'Start New Game' }).waitFor();
}

/** From load-or-create: a preset genre, portrait 5, a random name, then the first option each
 * turn until the ending screen. Returns the number of turns played. */
export async function playNewGameToTheEnd(page: Page): Promise<number> {
  await page.getByRole('button', { name: 'Start New Game' }).click();
  await page.locator('.genre-chip').first().click();
  await page.getByRole('button', { name: 'Submit Genre' }).click();
  await page.getByRole('button', { name: 'Portrait 5', exact: true }).click();
  await page.getByRole('button', { name: 'Choose me' }).click();
  await page.getByRole('button', { name: 'Random' }).click();
  await page.getByRole('button', { name: 'Submit' }).click();
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
