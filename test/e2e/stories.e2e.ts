/**
 * Saved stories in Chromium (SPEC.md section 2, view 2; section 4, Saving): the auto-save and a
 * reload, two tabs saving at once, delete with its question, export and import, and the list
 * following a wallet switch. Against the running server, a fake model server and the browser's
 * own IndexedDB (one per browser context).
 */
import fs from 'node:fs';
import type { BrowserContext, Page } from 'playwright-core';
import { storedStories } from './support/storiesDb';
import { gameReply, type CompletionReply } from '../fixtures/fakeModelServer';
import { TestWallet } from '../fixtures/testWallet';
import { baseUrl } from './support/backend';
import {
  DESKTOP,
  PHONE,
  collectPageErrors,
  horizontalOverflow,
  screenshot,
} from './support/browser';
import { injectTestWallet, switchAccount } from './support/injectWallet';
import { connectAndEnterKey } from './support/journey';
import { browser, model, withBrowserAndModel } from './support/session';

/** A key no record may hold: if it shows up in IndexedDB, the save leaked it. */
const API_KEY = 'sk-stories-e2e-3f9c1a7d';

withBrowserAndModel([API_KEY]);

/**
 * The default game, but every scene and its options numbered, so no two paragraphs or choices
 * of a story read the same and a story log compared before and after a reload can tell turns
 * apart.
 */
beforeEach(() => {
  let scenes = 0;
  model.replyWith((body) => {
    const reply: CompletionReply = gameReply(body);
    const json = reply.json as Record<string, unknown>;
    const options = Array.isArray(json.options) ? (json.options as { text: string }[]) : [];
    for (const field of ['storyStart', 'storySegment']) {
      if (typeof json[field] === 'string' && options.length > 0) {
        scenes += 1;
        json[field] = `Scene ${scenes}. ${json[field] as string}`;
        json.options = options.map((option) => ({
          ...option,
          text: `Scene ${scenes}: ${option.text}`,
        }));
      }
    }
    return reply;
  });
});
afterEach(() => model.replyWith(gameReply));

const short = (address: string) =>
  `${address.toLowerCase().slice(0, 6)}...${address.toLowerCase().slice(-4)}`;

async function newContext(wallet: TestWallet): Promise<BrowserContext> {
  const context = await browser.newContext({ viewport: DESKTOP });
  await injectTestWallet(context, wallet);
  return context;
}

/** Page errors, without the browser's own 'Failed to load resource' lines. */
function realErrors(errors: string[]): string[] {
  return errors.filter((error) => !/Failed to load resource/.test(error));
}

/** Connects the wallet (unless this context is signed in already) and submits the key. */
const signInAndEnterKey = (page: Page) =>
  connectAndEnterKey(page, { url: baseUrl(), model, apiKey: API_KEY });

/** After a reload the game is back at the key screen, the key filled in: submit it again. */
async function reloadAndResubmitKey(page: Page, language: 'en' | 'kr' = 'en') {
  const t = (en: string, kr: string) => (language === 'en' ? en : kr);
  await page.reload();
  await page.locator('.wallet-address__tick').waitFor();
  const key = page.getByLabel(t('API key', 'API 키'));
  await key.waitFor();
  expect(await key.inputValue()).toBe(API_KEY);
  await page.getByRole('button', { name: t('Submit', '제출') }).click();
  await page.getByRole('button', { name: t('Start New Game', '새 게임 시작') }).waitFor();
}

const firstOption = (page: Page) => page.locator('.options__list button').first();
const turnsLine = (page: Page) => page.locator('.play-header__line').filter({ hasText: /^Turns:/ });
const noOverlay = (page: Page) =>
  page.waitForFunction(() => !document.querySelector('.loading-overlay'), undefined, {
    timeout: 20_000,
  });

/** From load-or-create through genre and portrait to a filled-in name, not yet submitted. */
async function fillNewCharacter(page: Page, first: string, last: string) {
  await page.getByRole('button', { name: 'Start New Game' }).click();
  await page.locator('.genre-chip').first().click();
  await page.getByRole('button', { name: 'Submit Genre' }).click();
  await page.getByRole('button', { name: 'Portrait 3', exact: true }).click();
  await page.getByRole('button', { name: 'Choose me' }).click();
  await page.getByLabel('First Name').fill(first);
  await page.getByLabel('Last Name').fill(last);
}

/** Waits for the opening scene and its options, at turn 0. */
async function openingShown(page: Page) {
  await firstOption(page).waitFor({ timeout: 20_000 });
  await noOverlay(page);
  expect(await turnsLine(page).textContent()).toBe('Turns: 0');
}

/** From load-or-create through genre, portrait and name to the opening's options. */
async function startGame(page: Page, first: string, last: string) {
  await fillNewCharacter(page, first, last);
  await page.getByRole('button', { name: 'Submit' }).click();
  await openingShown(page);
}

/** Picks the first option and waits for the next turn's options. */
async function playTurn(page: Page) {
  const before = Number((await turnsLine(page).textContent())?.replace(/\D/g, ''));
  await firstOption(page).click();
  await turnsLine(page)
    .filter({ hasText: `Turns: ${before + 1}` })
    .waitFor();
  await noOverlay(page);
  await firstOption(page).waitFor({ timeout: 20_000 });
}

/** Every paragraph and choice of the story log, in order. */
function storyLogTexts(page: Page): Promise<string[]> {
  return page.locator('.story-log :is(.story-paragraph, .story-choice)').allTextContents();
}

interface StoredStory {
  id: number;
  walletAddress: string;
  chosenCharacter: string;
  game: { turnCount?: number; previousParagraph?: string };
}

async function waitUntil(what: string, check: () => Promise<boolean>, timeoutMs = 5_000) {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting until ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/**
 * Waits for the auto-save of the turn on screen to be in IndexedDB: its count, and its paragraph.
 * A turn is saved more than once (its roll first, so a reload does not roll it again; then its
 * paragraph): a save with the count alone may still lack the paragraph being written.
 */
async function autoSaved(page: Page, name: string, turns: number) {
  const shown = await page.locator('.story-log .story-paragraph').last().textContent();
  await waitUntil(`${name}'s turn ${turns} is saved`, async () =>
    (await storedStories<StoredStory>(page)).some(
      (story) =>
        story.chosenCharacter === name &&
        story.game.turnCount === turns &&
        story.game.previousParagraph === shown,
    ),
  );
}

const cards = (page: Page) => page.locator('ul.saved-list__cards > li > article.story-card');
const status = (page: Page, text: string) => page.getByRole('status').getByText(text);

test('plays three turns, reloads, loads the story from the list, and is at the same turn with the same text', async () => {
  const wallet = new TestWallet(1);
  const context = await newContext(wallet);
  const page = await context.newPage();
  const errors = collectPageErrors(page);
  await signInAndEnterKey(page);
  await page
    .locator('.saved-list')
    .getByText('No saved stories available for this wallet')
    .waitFor();
  expect(await cards(page).count()).toBe(0);
  await screenshot(page, 'stories-1-empty-list');

  await startGame(page, 'Ada', 'Quill');
  for (let turn = 1; turn <= 3; turn += 1) await playTurn(page);
  const turns = await turnsLine(page).textContent();
  expect(turns).toBe('Turns: 3');
  const log = await storyLogTexts(page);
  // The opening and three turns: four paragraphs and three choices, no two alike.
  expect(log).toHaveLength(7);
  expect(new Set(log).size).toBe(7);
  await autoSaved(page, 'Ada Quill', 3);
  await screenshot(page, 'stories-1-turn-3');

  await reloadAndResubmitKey(page);
  await expect1Card(page, 'Ada Quill', 'Turn 3');
  await screenshot(page, 'stories-1-list-after-reload');

  await page.getByRole('button', { name: "Load Ada Quill's story" }).click();
  await status(page, 'Story loaded!').waitFor();
  await turnsLine(page).waitFor();
  expect(await turnsLine(page).textContent()).toBe(turns);
  expect(await storyLogTexts(page)).toEqual(log);
  await screenshot(page, 'stories-1-loaded');

  // The game goes on from there.
  await playTurn(page);
  expect(await turnsLine(page).textContent()).toBe('Turns: 4');
  expect(await storyLogTexts(page)).toHaveLength(9);
  expect((await storyLogTexts(page)).slice(0, 7)).toEqual(log);
  // Still one story: the loaded one was saved again, not copied.
  await autoSaved(page, 'Ada Quill', 4);
  expect(await storedStories<StoredStory>(page)).toHaveLength(1);
  expect(realErrors(errors)).toEqual([]);
  await context.close();
});

/** The list shows exactly one card: this character, at this turn. */
async function expect1Card(page: Page, name: string, turn: string) {
  await cards(page).first().waitFor();
  expect(await cards(page).count()).toBe(1);
  const card = cards(page).first();
  expect(await card.getByRole('heading', { level: 3 }).textContent()).toBe(name);
  await card.getByText(turn, { exact: true }).waitFor();
  await card.getByText(/^Story #\d+$/).waitFor();
  await card.getByText(/^Saved /).waitFor();
  expect(await card.locator('.story-card__preview').textContent()).toMatch(
    /^Scene \d+\. .*\.\.\.$/,
  );
}

test('two tabs saving at once keep both stories', async () => {
  const wallet = new TestWallet(1);
  const context = await newContext(wallet);
  const [one, two] = [await context.newPage(), await context.newPage()] as const;
  const errors = [collectPageErrors(one), collectPageErrors(two)];
  // Headless Chromium holds back animation frames in the tab that is not in front, which
  // Playwright's clicks wait for: each tab is set up in front, one after the other.
  await one.bringToFront();
  await signInAndEnterKey(one);
  await fillNewCharacter(one, 'Bram', 'Holloway');
  await two.bringToFront();
  await signInAndEnterKey(two);
  await fillNewCharacter(two, 'Cleo', 'Marsh');

  // Both stories begin at the same moment, so their first auto-saves race for a new id; the
  // click events go to both tabs at once (a trusted click would wait for the tab in front).
  const submitBoth = (name: string) =>
    Promise.all(
      [one, two].map((page) => page.getByRole('button', { name }).dispatchEvent('click')),
    );
  await submitBoth('Submit');
  await Promise.all([openingShown(one), openingShown(two)]);
  await Promise.all([autoSaved(one, 'Bram Holloway', 0), autoSaved(two, 'Cleo Marsh', 0)]);

  // Then both save by hand at once.
  for (const page of [one, two]) {
    expect(await page.getByRole('button', { name: 'Save game' }).isEnabled()).toBe(true);
  }
  await submitBoth('Save game');
  await Promise.all([
    status(one, 'Game saved successfully!').waitFor(),
    status(two, 'Game saved successfully!').waitFor(),
  ]);
  await screenshot(one, 'stories-2-tab-one-saved');
  await screenshot(two, 'stories-2-tab-two-saved');

  const stored = await storedStories<StoredStory>(one);
  expect(stored).toHaveLength(2);
  expect(new Set(stored.map((story) => story.id)).size).toBe(2);
  expect(stored.map((story) => story.chosenCharacter).sort()).toEqual([
    'Bram Holloway',
    'Cleo Marsh',
  ]);
  // The browser does keep the key (SPEC.md 'apiKey'), so a save could have picked it up.
  expect(await one.evaluate(() => window.localStorage.getItem('apiKey'))).toBe(API_KEY);
  for (const story of stored) {
    expect(story.walletAddress).toBe(wallet.address.toLowerCase());
    expect(JSON.stringify(story)).not.toContain(API_KEY);
  }

  await one.bringToFront();
  await reloadAndResubmitKey(one);
  await cards(one).nth(1).waitFor();
  expect(await cards(one).count()).toBe(2);
  const names = await cards(one).getByRole('heading', { level: 3 }).allTextContents();
  expect(names.sort()).toEqual(['Bram Holloway', 'Cleo Marsh']);
  const ids = await cards(one)
    .getByText(/^Story #\d+$/)
    .allTextContents();
  expect(ids).toHaveLength(2);
  expect(new Set(ids).size).toBe(2);
  expect(ids.sort()).toEqual(stored.map((story) => `Story #${story.id}`).sort());
  await screenshot(one, 'stories-2-two-cards');
  expect(errors.flatMap(realErrors)).toEqual([]);
  await context.close();
});

test('delete asks first; export gives Markdown and JSON; a JSON export imports back and a foreign file is refused', async () => {
  const wallet = new TestWallet(1);
  const context = await newContext(wallet);
  const page = await context.newPage();
  const errors = collectPageErrors(page);
  await signInAndEnterKey(page);
  await startGame(page, 'Dara', 'Voss');
  const opening = (await page.locator('.story-log .story-paragraph').first().textContent()) ?? '';
  expect(opening).toMatch(/^Scene 1\. Rain hammers/);
  await autoSaved(page, 'Dara Voss', 0);
  await reloadAndResubmitKey(page);
  await expect1Card(page, 'Dara Voss', 'Turn 0');

  // Export as Markdown.
  const [markdownDownload] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: "Export Markdown of Dara Voss's story" }).click(),
  ]);
  expect(markdownDownload.suggestedFilename()).toMatch(/^taleweaver-Dara-Voss-\d+\.md$/);
  const markdown = fs.readFileSync((await markdownDownload.path())!, 'utf8');
  expect(markdown.split('\n')[0]).toBe('# Dara Voss');
  expect(markdown).toContain(opening);

  // Export as JSON.
  const [jsonDownload] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: "Export JSON of Dara Voss's story" }).click(),
  ]);
  expect(jsonDownload.suggestedFilename()).toMatch(/^taleweaver-Dara-Voss-\d+\.json$/);
  const exported = fs.readFileSync((await jsonDownload.path())!, 'utf8');
  const envelope = JSON.parse(exported) as {
    format: string;
    story: { chosenCharacter: string; previousParagraph: string };
  };
  expect(envelope.format).toBe('taleweaver-story');
  expect(envelope.story.chosenCharacter).toBe('Dara Voss');
  expect(envelope.story.previousParagraph).toBe(opening);
  expect(exported).not.toContain(API_KEY);

  // Delete asks first; 'Keep it' keeps the story.
  await page.getByRole('button', { name: "Delete Dara Voss's story" }).click();
  await page.getByText("Delete Dara Voss's story? This cannot be undone.").waitFor();
  await screenshot(page, 'stories-3-confirm-delete');
  await page.getByRole('button', { name: 'Keep it' }).click();
  await page.getByRole('button', { name: "Delete Dara Voss's story" }).waitFor();
  expect(await cards(page).count()).toBe(1);
  expect(await storedStories<StoredStory>(page)).toHaveLength(1);

  // 'Yes, delete it' deletes it.
  await page.getByRole('button', { name: "Delete Dara Voss's story" }).click();
  await page.getByRole('button', { name: 'Yes, delete it' }).click();
  await status(page, 'Story deleted!').waitFor();
  await page.getByText('No saved stories available for this wallet').waitFor();
  expect(await cards(page).count()).toBe(0);
  expect(await storedStories<StoredStory>(page)).toHaveLength(0);
  await screenshot(page, 'stories-3-deleted');

  // The JSON export imports back.
  const file = page.locator('.saved-list__file');
  await file.setInputFiles({
    name: jsonDownload.suggestedFilename(),
    mimeType: 'application/json',
    buffer: Buffer.from(exported),
  });
  await status(page, 'Story imported!').waitFor();
  await expect1Card(page, 'Dara Voss', 'Turn 0');
  expect(await cards(page).first().locator('.story-card__preview').textContent()).toBe(
    `${opening.split(/\s+/).slice(0, 50).join(' ')}...`,
  );
  await screenshot(page, 'stories-3-imported');

  // A JSON file that is not an export is refused, and the list stays as it was.
  await file.setInputFiles({
    name: 'hello.json',
    mimeType: 'application/json',
    buffer: Buffer.from('{"hello":1}'),
  });
  const alert = page.getByRole('alert');
  await alert.getByText('The story was not imported. Your saved stories are unchanged.').waitFor();
  await alert.getByText('The file is not a Taleweaver story export.').waitFor();
  await screenshot(page, 'stories-3-refused');
  await alert.getByRole('button', { name: 'Dismiss' }).click();
  await alert
    .getByText('The story was not imported.', { exact: false })
    .waitFor({ state: 'detached' });

  // So is a file that is not JSON at all.
  await file.setInputFiles({
    name: 'notes.json',
    mimeType: 'application/json',
    buffer: Buffer.from('# just some notes'),
  });
  await alert.getByText('The file is not a story export: it is not JSON.').waitFor();
  expect(await cards(page).count()).toBe(1);
  expect(await storedStories<StoredStory>(page)).toHaveLength(1);
  expect(realErrors(errors)).toEqual([]);
  await context.close();
});

test('the list follows a wallet switch', async () => {
  const wallet = new TestWallet(2);
  const [first, second] = wallet.accounts.map((account) => account.address);
  const context = await newContext(wallet);
  const page = await context.newPage();
  const errors = collectPageErrors(page);
  await signInAndEnterKey(page);
  await startGame(page, 'Eli', 'Thorne');
  await autoSaved(page, 'Eli Thorne', 0);
  await reloadAndResubmitKey(page);
  const owner = page.locator('.saved-list__owner');
  expect(await owner.textContent()).toBe(`Stories saved for wallet ${short(first!)}`);
  await expect1Card(page, 'Eli Thorne', 'Turn 0');

  // A new account: the wallet asks it to sign, and the list is that wallet's (empty).
  const signaturesBefore = wallet.calls.filter((call) => call === 'personal_sign').length;
  await switchAccount(page, wallet, 1);
  await owner.getByText(short(second!)).waitFor();
  await page.getByText('No saved stories available for this wallet').waitFor();
  expect(await cards(page).count()).toBe(0);
  expect(wallet.calls.filter((call) => call === 'personal_sign').length).toBe(signaturesBefore + 1);
  // Still the load-or-create view, and the other wallet's story still kept.
  await page.getByRole('button', { name: 'Start New Game' }).waitFor();
  expect(await storedStories<StoredStory>(page)).toHaveLength(1);
  await screenshot(page, 'stories-4-second-wallet');

  // Back to the first account: its story is listed again, without a new signature.
  await switchAccount(page, wallet, 0);
  await owner.getByText(short(first!)).waitFor();
  await expect1Card(page, 'Eli Thorne', 'Turn 0');
  expect(wallet.calls.filter((call) => call === 'personal_sign').length).toBe(signaturesBefore + 1);

  // Start New Game offers the unfinished story first.
  await page.getByRole('button', { name: 'Start New Game' }).click();
  await page.getByRole('heading', { name: 'Continue your saved story?' }).waitFor();
  await screenshot(page, 'stories-4-continue-prompt');
  await page.getByRole('button', { name: "Continue Eli Thorne's story" }).click();
  await status(page, 'Story loaded!').waitFor();
  expect(await turnsLine(page).textContent()).toBe('Turns: 0');
  await firstOption(page).waitFor();
  expect(realErrors(errors)).toEqual([]);
  await context.close();
});

test('on a phone, in English and Korean: the list, its question, the save notice, nothing scrolls sideways', async () => {
  const context = await browser.newContext({ viewport: PHONE, hasTouch: true, isMobile: true });
  await injectTestWallet(context, new TestWallet(1));
  const page = await context.newPage();
  const errors = collectPageErrors(page);
  await signInAndEnterKey(page);
  await startGame(page, 'Sora', 'Han');
  await autoSaved(page, 'Sora Han', 0);
  await reloadAndResubmitKey(page);
  await expect1Card(page, 'Sora Han', 'Turn 0');
  await screenshot(page, 'stories-5-phone-en-list');
  expect(await horizontalOverflow(page)).toBe(0);

  await page.getByLabel('Language').selectOption('kr');
  const card = page.getByRole('article', { name: 'Sora Han' });
  await card.getByText('0턴').waitFor();
  await card.getByText(/^저장 시각: /).waitFor();
  await screenshot(page, 'stories-5-phone-kr-list');
  expect(await horizontalOverflow(page)).toBe(0);
  await page.setViewportSize(DESKTOP);
  await screenshot(page, 'stories-5-desktop-kr-list');
  await page.setViewportSize(PHONE);

  await page.getByRole('button', { name: '새 게임 시작' }).click();
  await page.getByRole('heading', { name: '저장된 이야기를 이어서 할까요?' }).waitFor();
  await screenshot(page, 'stories-5-phone-kr-continue');
  expect(await horizontalOverflow(page)).toBe(0);
  await page.getByRole('button', { name: 'Sora Han의 이야기 계속하기' }).click();
  await status(page, '스토리를 불러왔습니다!').waitFor();
  await page.getByRole('button', { name: '게임 저장' }).click();
  await status(page, '게임이 성공적으로 저장되었습니다!').waitFor();
  await screenshot(page, 'stories-5-phone-kr-saved');
  expect(await horizontalOverflow(page)).toBe(0);
  expect(realErrors(errors)).toEqual([]);
  await context.close();
});
