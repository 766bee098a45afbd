/**
 * Journey 4, resilience (issue 7): what a player sees when the language-model provider does not
 * answer cleanly in the middle of a turn. A storm of 429s (with and without Retry-After), a
 * garbled reply and a dropped stream are waited out or asked again with a visible notice; a
 * wait can be cancelled and the player can go home and come back to the failed turn; a provider
 * error ends the turn with 'Failed to fetch story data, please try again.' and Try again plays
 * the same turn. Against the running server and a fake model server of each test's own.
 */
import type { Browser, BrowserContext, Page } from 'playwright-core';
import {
  startFakeModelServer,
  userPrompt,
  type FakeModelServer,
  type RecordedRequest,
} from '../fixtures/fakeModelServer';
import { TestWallet } from '../fixtures/testWallet';
import { baseUrl } from './support/backend';
import { DESKTOP, collectPageErrors, launchBrowser, screenshot } from './support/browser';
import { injectTestWallet } from './support/injectWallet';
import { connectAndEnterKey } from './support/journey';

const API_KEY = 'sk-resilience-e2e';

let browser: Browser;
/** A model server per test: a reply left in one test's queue never answers another's turn. */
let model: FakeModelServer;
let context: BrowserContext | undefined;

beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});
beforeEach(async () => {
  model = await startFakeModelServer({ validKeys: [API_KEY] });
});
afterEach(async () => {
  await context?.close();
  context = undefined;
  await model.close();
});

/** Page errors, without the browser's own 'Failed to load resource' lines (the 429s, the 500). */
function realErrors(errors: string[]): string[] {
  return errors.filter((error) => !/Failed to load resource/.test(error));
}

const firstOption = (page: Page) => page.locator('.options__list button').first();
const optionButtons = (page: Page) => page.locator('.options__list button');
const turnsLine = (page: Page) => page.locator('.play-header__line').filter({ hasText: /^Turns:/ });
const waitNotice = (page: Page) => page.locator('.wait-notice');
const turnError = (page: Page) => page.locator('.turn-error');
const storyLogTexts = (page: Page) =>
  page.locator('.story-log :is(.story-paragraph, .story-choice)').allTextContents();
const noOverlay = (page: Page, timeout = 20_000) =>
  page.waitForFunction(() => !document.querySelector('.loading-overlay'), undefined, { timeout });

/** The turn's segment requests, and the summary's own (its reply is nothing but the summary). */
const segmentRequests = (requests: RecordedRequest[]) =>
  requests.filter((request) => userPrompt(request.body).includes('storySegment'));
const summaryRequests = (requests: RecordedRequest[]) =>
  requests.filter((request) => userPrompt(request.body).includes('{"storySummary"'));

/**
 * A new browser context with the test wallet: connect and sign, set the fake provider, submit
 * the key, and play the setup through to the opening's options at turn 0.
 */
async function openGame(): Promise<{ page: Page; errors: string[] }> {
  context = await browser.newContext({ viewport: DESKTOP });
  await injectTestWallet(context, new TestWallet(1));
  const page = await context.newPage();
  const errors = collectPageErrors(page);
  await connectAndEnterKey(page, { url: baseUrl(), model, apiKey: API_KEY });
  await page.getByRole('button', { name: 'Start New Game' }).click();
  await page.locator('.genre-chip').first().click();
  await page.getByRole('button', { name: 'Submit Genre' }).click();
  await page.getByRole('button', { name: 'Portrait 2', exact: true }).click();
  await page.getByRole('button', { name: 'Choose me' }).click();
  await page.getByLabel('First Name').fill('Wren');
  await page.getByLabel('Last Name').fill('Halloway');
  await page.getByRole('button', { name: 'Submit' }).click();
  await firstOption(page).waitFor({ timeout: 20_000 });
  await noOverlay(page);
  expect(await turnsLine(page).textContent()).toBe('Turns: 0');
  return { page, errors };
}

/** Waits until the turn on screen is complete: its options back, nothing loading, no error. */
async function turnCompleted(page: Page, turns: number) {
  await firstOption(page).waitFor({ timeout: 20_000 });
  await noOverlay(page);
  expect(await turnsLine(page).textContent()).toBe(`Turns: ${turns}`);
  expect(await optionButtons(page).count()).toBeGreaterThan(0);
  expect(await turnError(page).count()).toBe(0);
}

/** A valid segment for the turn, with a paragraph of its own to find in the story log. */
function segment(storySegment: string) {
  return {
    storySegment,
    options: [
      { text: 'Cross the rope bridge.', risk: 'high', alignment: 'neutral', traitAlignment: '' },
      { text: 'Wait for the ferry.', risk: 'low', alignment: 'moral', traitAlignment: '' },
      { text: 'Bribe the toll keeper.', risk: 'medium', alignment: 'immoral', traitAlignment: '' },
    ],
    outcome: 'success',
    scenarioType: 'standard',
  };
}

test('a 429 storm shows the waiting notice, then the turn arrives', async () => {
  const { page, errors } = await openGame();
  const before = model.requests.length;
  // Three 429s of one second each, then one without Retry-After: the game's own 5 s.
  model.enqueue(
    { status: 429, retryAfter: '1' },
    { status: 429, retryAfter: '1' },
    { status: 429, retryAfter: '1' },
    { status: 429 },
  );
  await firstOption(page).click();

  const notice = waitNotice(page);
  await notice.waitFor();
  // What the wait says comes with its own code, the first time one is shown.
  await notice.getByText(/per-minute limit/).waitFor();
  expect(await notice.locator('.wait-notice__text').textContent()).toMatch(
    // The wait Retry-After names, and a little jitter: 1.1 to 1.5 s; and what the request
    // reserves of the minute (this server states no limit, so of no stated figure).
    /^◷.+'s per-minute limit for fake-model is reached\. Trying again in [0-2] s… This request reserves about [\d,]+ tokens of the minute's budget\.$/,
  );
  await notice.getByRole('button', { name: 'Stop' }).waitFor();
  // While it waits the turn is counted but there is nothing to choose.
  expect(await turnsLine(page).textContent()).toBe('Turns: 1');
  expect(await optionButtons(page).count()).toBe(0);
  await screenshot(page, 'resilience-1-rate-limited-1s');

  // The fourth 429 had no Retry-After: the notice counts down from 5.
  await notice.getByText('Trying again in 5 s…').waitFor({ timeout: 10_000 });
  const fiveSecondWaitSeen = Date.now();
  expect(segmentRequests(model.requests.slice(before))).toHaveLength(4);
  await screenshot(page, 'resilience-1-rate-limited-5s');

  await turnCompleted(page, 1);
  // The fifth request came about 5 s after the fourth (the 5 s notice showed at its start).
  expect(Date.now() - fiveSecondWaitSeen).toBeGreaterThanOrEqual(3_500);
  expect(await waitNotice(page).count()).toBe(0);
  const sent = model.requests.slice(before);
  expect(segmentRequests(sent)).toHaveLength(5);
  // The segment that came carried its summary: nothing more was asked.
  expect(summaryRequests(sent)).toHaveLength(0);
  // The opening, the choice and the new paragraph: nothing of the waits in the story.
  expect(await storyLogTexts(page)).toHaveLength(3);
  await screenshot(page, 'resilience-1-turn-arrived');
  expect(realErrors(errors)).toEqual([]);
});

test('a malformed reply and a dropped stream are retried without the player doing anything', async () => {
  const { page, errors } = await openGame();
  const before = model.requests.length;
  const arrived = 'The rope bridge sways but holds, and the far bank is finally within reach.';
  model.enqueue(
    // Cut off inside its only string: no JSON repair can make a segment with options of it.
    { json: '{"storySegment": "broken', stream: true },
    // Slowly streamed, so the garbled notice stays up long enough to be seen and captured.
    {
      json: segment('A dropped connection leaves this sentence half written forever.'),
      dropAfterChars: 40,
      stream: true,
      chunkChars: 8,
      chunkDelayMs: 250,
    },
    // And the good reply slowly too, for the dropped-connection notice.
    { json: segment(arrived), stream: true, chunkDelayMs: 60 },
  );
  await firstOption(page).click();

  const notice = waitNotice(page);
  await notice
    .getByText('The story came back garbled. Asking again (attempt 1)…')
    .waitFor({ timeout: 10_000 });
  await screenshot(page, 'resilience-2-garbled');
  // Then the dropped stream, asked again after a pause.
  await notice
    .getByText(/The connection dropped mid-story\. Asking again \(attempt \d+\)…/)
    .waitFor({ timeout: 10_000 });
  await screenshot(page, 'resilience-2-dropped');

  await turnCompleted(page, 1);
  const log = await storyLogTexts(page);
  expect(log).toHaveLength(3);
  expect(log[2]).toBe(arrived);
  // Neither the garbled nor the half-streamed text was kept.
  expect(log.join('\n')).not.toMatch(/broken|half written/);
  const sent = model.requests.slice(before);
  expect(segmentRequests(sent)).toHaveLength(3);
  // This segment came without its summary: the spec's summary request was the fallback.
  expect(summaryRequests(sent)).toHaveLength(1);
  // The player pressed nothing after the one choice: one choice in the log, one turn counted.
  expect(await page.locator('.story-log .story-choice').count()).toBe(1);
  await screenshot(page, 'resilience-2-turn-arrived');
  expect(realErrors(errors)).toEqual([]);
});

test('cancel during a wait, then return home', async () => {
  const { page, errors } = await openGame();
  const before = model.requests.length;
  const logBefore = await storyLogTexts(page);
  model.enqueue({ status: 429, retryAfter: '30' });
  await firstOption(page).click();

  const notice = waitNotice(page);
  await notice.getByText(/Trying again in (30|29) s…/).waitFor();
  await screenshot(page, 'resilience-3-long-wait');
  await notice.getByRole('button', { name: 'Stop' }).click();

  // Cancelled: the overlay goes and the turn is left failed, to be tried again.
  await turnError(page).waitFor();
  await noOverlay(page, 2_000);
  expect(await turnError(page).getByRole('alert').textContent()).toBe(
    '!Failed to fetch story data, please try again.',
  );
  await turnError(page).getByRole('button', { name: 'Try again' }).waitFor();
  expect(await turnsLine(page).textContent()).toBe('Turns: 1');
  expect(await optionButtons(page).count()).toBe(0);
  await screenshot(page, 'resilience-3-cancelled');
  // Try again is the way on: a new free-text choice cannot be sent (and is not thrown away).
  expect(await page.getByRole('button', { name: 'Submit', exact: true }).isDisabled()).toBe(true);

  // Home from the header (the playing view has no Return to Home of its own).
  await page.getByRole('navigation').getByRole('link', { name: 'Home' }).click();
  await page.waitForURL(`${baseUrl()}/`);
  await page.getByRole('heading', { level: 1 }).waitFor();
  // Home stays home: the key screen does not send a player mid-game back to /game.
  await page.waitForTimeout(500);
  expect(new URL(page.url()).pathname).toBe('/');
  await screenshot(page, 'resilience-3-home');
  // The cancelled wait sent nothing more (the 30 s would not be up yet in any case).
  expect(segmentRequests(model.requests.slice(before))).toHaveLength(1);

  // Back to /game with the browser's Back: the same story, the failed turn still there.
  await page.goBack();
  await page.waitForURL(`${baseUrl()}/game`);
  await turnError(page).getByRole('button', { name: 'Try again' }).waitFor();
  expect(await turnsLine(page).textContent()).toBe('Turns: 1');
  expect(await page.locator('.story-log .story-paragraph').allTextContents()).toEqual([
    logBefore[0],
  ]);
  await screenshot(page, 'resilience-3-back-in-game');

  await turnError(page).getByRole('button', { name: 'Try again' }).click();
  await turnCompleted(page, 1);
  expect(await storyLogTexts(page)).toHaveLength(3);
  expect(segmentRequests(model.requests.slice(before))).toHaveLength(2);
  await screenshot(page, 'resilience-3-resumed');
  expect(realErrors(errors)).toEqual([]);
});

test("'Failed to fetch story data, please try again.' and a successful retry", async () => {
  const { page, errors } = await openGame();
  const before = model.requests.length;
  // Any error status but 429 is the provider's answer: the turn ends, nothing is retried.
  model.enqueue({ status: 500, errorMessage: 'The model is overloaded right now.' });
  await firstOption(page).click();

  const failed = turnError(page);
  await failed.waitFor();
  await noOverlay(page, 2_000);
  expect(await failed.locator('.turn-error__message').textContent()).toBe(
    '!Failed to fetch story data, please try again.',
  );
  // What happened, and the provider's own words, under it.
  expect(await failed.locator('.turn-error__detail').allTextContents()).toEqual([
    'Custom (OpenAI-compatible) could not write this part (error 500).',
    'Custom (OpenAI-compatible) said: The model is overloaded right now.',
  ]);
  expect(await turnsLine(page).textContent()).toBe('Turns: 1');
  expect(await optionButtons(page).count()).toBe(0);
  expect(segmentRequests(model.requests.slice(before))).toHaveLength(1);
  await screenshot(page, 'resilience-4-turn-failed');

  const arrived = 'On the second asking the ferryman relents and waves you aboard his boat.';
  model.enqueue({ json: segment(arrived) });
  await failed.getByRole('button', { name: 'Try again' }).click();
  await turnCompleted(page, 1);
  const log = await storyLogTexts(page);
  // The same choice once, then the paragraph written on the retry.
  expect(log).toHaveLength(3);
  expect(log[2]).toBe(arrived);
  expect(await page.locator('.story-log .story-choice').count()).toBe(1);
  const sent = model.requests.slice(before);
  expect(segmentRequests(sent)).toHaveLength(2);
  // The retry asked for the same turn: the same choice in the same prompt.
  expect(userPrompt(segmentRequests(sent)[1]!.body)).toBe(
    userPrompt(segmentRequests(sent)[0]!.body),
  );
  await screenshot(page, 'resilience-4-retried');
  expect(realErrors(errors)).toEqual([]);
});
