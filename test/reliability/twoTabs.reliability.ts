/**
 * Two tabs on one story (faults.ts 'twoTabs'): the real server and app, the fake model server,
 * and two pages of ONE browser context, so they share the origin, the wallet session and
 * IndexedDB. Both resume the same saved story and take turns, strictly one after the other (each
 * turn's auto-save is in before the other tab moves), for a fixed number of turns each. Every
 * paragraph either page displayed must be in some saved record, or that page must have warned
 * the player.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { storedStories } from '../e2e/support/storiesDb';
import {
  gameReply,
  startFakeModelServer,
  type CompletionReply,
  type FakeModelServer,
} from '../fixtures/fakeModelServer';
import { TestWallet } from '../fixtures/testWallet';
import {
  DESKTOP,
  PHONE,
  RESULTS_DIR,
  SCREENSHOTS_TAKEN,
  collectPageErrors,
  launchBrowser,
} from '../e2e/support/browser';
import { injectTestWallet } from '../e2e/support/injectWallet';
import { connectAndEnterKey } from '../e2e/support/journey';
import { startServer, type RunningServer } from '../e2e/support/server';
import { count, recordFinding } from './support/findings';

/**
 * Turns each tab plays after both have resumed the story: 80 turns in all, under a minute of play
 * on a slow shared machine (issue 12 asked for about a minute; 115 a tab took two here).
 */
const TURNS_PER_TAB = 40;
const API_KEY = 'sk-two-tabs-5d2e8b1c';
const HERO = { first: 'Tess', last: 'Marlow', name: 'Tess Marlow' };

// A story of 230 turns and two sign-ins in a real browser: minutes, not the e2e minute.
jest.setTimeout(300_000);

let server: RunningServer;
let browser: Browser;
let model: FakeModelServer;

/** The options of every scene: the story never has to end, so it never does. */
const OPTIONS = [
  { text: 'Follow the lantern-bearer', risk: 'low', alignment: 'moral', traitAlignment: '' },
  { text: 'Search the drowned chapel', risk: 'medium', alignment: 'neutral', traitAlignment: '' },
  { text: 'Bargain with the smugglers', risk: 'high', alignment: 'immoral', traitAlignment: '' },
];

beforeAll(async () => {
  [server, browser, model] = await Promise.all([
    // The app as built with DIST_DIR (the server reads the same variable).
    startServer({ SIGN_IN_RATE_LIMIT: '1000' }),
    launchBrowser(),
    startFakeModelServer({ validKeys: [API_KEY] }),
  ]);
  // Every scene numbered across both tabs, so no two paragraphs read the same; the conclusion
  // check always says go on, so each tab can play as many turns as the test wants.
  let scenes = 0;
  model.replyWith((body) => {
    const reply: CompletionReply = gameReply(body);
    const json = reply.json as Record<string, unknown>;
    if (json.isFinal === true) {
      Object.assign(json, { options: OPTIONS.map((option) => ({ ...option })), isFinal: false });
    }
    for (const field of ['storyStart', 'storySegment']) {
      if (typeof json[field] === 'string') {
        scenes += 1;
        json[field] = `Scene ${scenes}. ${json[field] as string}`;
        const options = json.options as { text: string }[];
        json.options = options.map((option) => ({ ...option, text: `${option.text} (${scenes})` }));
      }
    }
    return reply;
  });
});

afterAll(async () => {
  await browser?.close();
  await model?.close();
  await server?.stop();
});

/**
 * Keeps, in the page, every finished paragraph it ever displayed and every word from another tab
 * it showed, however briefly: a MutationObserver over the whole document from the first load.
 */
function watchWhatIsShown(context: BrowserContext) {
  return context.addInitScript(() => {
    const shown = { paragraphs: [] as string[], warnings: [] as string[] };
    Object.assign(window, { __shown: shown });
    const note = (list: string[], text: string | null) => {
      const trimmed = text?.trim();
      if (trimmed && !list.includes(trimmed)) list.push(trimmed);
    };
    const look = () => {
      document
        .querySelectorAll('.story-log .story-paragraph:not(.story-paragraph--writing)')
        .forEach((paragraph) => note(shown.paragraphs, paragraph.textContent));
      document
        .querySelectorAll('[role="status"] .stories-notice--other-tab .stories-notice__text')
        .forEach((warning) => note(shown.warnings, warning.textContent));
    };
    new MutationObserver(look).observe(document, {
      childList: true,
      subtree: true,
      characterData: true,
    });
  });
}

interface Shown {
  paragraphs: string[];
  warnings: string[];
}

const shownIn = (page: Page) =>
  page.evaluate(() => (window as unknown as { __shown: Shown }).__shown);

/** What a page showed, kept in the test across the page's reloads. */
function tally() {
  const paragraphs = new Set<string>();
  const warnings = new Set<string>();
  return {
    paragraphs,
    warnings,
    async collect(page: Page) {
      const shown = await shownIn(page);
      shown.paragraphs.forEach((text) => paragraphs.add(text));
      shown.warnings.forEach((text) => warnings.add(text));
    },
  };
}

interface StoredStory {
  id: number;
  chosenCharacter: string;
  previousParagraph: string;
  branchOf?: number | null;
  revision?: number;
  game: { turnCount?: number; storyLog?: { kind: string; text: string }[] };
}

/** Every paragraph some saved record holds. */
async function savedParagraphs(page: Page): Promise<Set<string>> {
  const records = await storedStories<StoredStory>(page);
  return new Set(
    records.flatMap((record) => [
      record.previousParagraph,
      ...(record.game.storyLog ?? [])
        .filter((entry) => entry.kind === 'paragraph')
        .map((entry) => entry.text),
    ]),
  );
}

async function waitUntil(what: string, check: () => Promise<boolean>, timeoutMs = 15_000) {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting until ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

const options = (page: Page) => page.locator('.options__list button');
const turnsLine = (page: Page) => page.locator('.play-header__line').filter({ hasText: /^Turns:/ });
const noOverlay = (page: Page) =>
  page.waitForFunction(() => !document.querySelector('.loading-overlay'), undefined, {
    timeout: 30_000,
  });

async function turnsNow(page: Page): Promise<number> {
  return Number((await turnsLine(page).textContent())?.replace(/\D/g, ''));
}

/**
 * Plays one turn in `page`: the option `pick`, then waits for the next options and for the new
 * paragraph to be in some saved record (this tab's story, or the one it split into), so the other
 * tab never moves while this one is still saving.
 */
async function playTurn(page: Page, pick: number): Promise<string> {
  const before = await turnsNow(page);
  await options(page).nth(pick).click();
  await turnsLine(page)
    .filter({ hasText: `Turns: ${before + 1}` })
    .waitFor({ timeout: 30_000 });
  await noOverlay(page);
  await options(page).first().waitFor({ timeout: 30_000 });
  const paragraph = (await page.locator('.story-log .story-paragraph').last().textContent()) ?? '';
  await waitUntil(`"${paragraph.slice(0, 20)}…" is saved`, async () =>
    (await savedParagraphs(page)).has(paragraph),
  );
  return paragraph;
}

/** From the list: loads the hero's story and waits for its options. */
async function resume(page: Page) {
  const load = page.getByRole('button', { name: `Load ${HERO.name}'s story` });
  await load.waitFor({ timeout: 15_000 });
  await load.click();
  await page.getByRole('status').getByText('Story loaded!').waitFor();
  await options(page).first().waitFor({ timeout: 30_000 });
}

async function shoot(page: Page, name: string) {
  fs.mkdirSync(RESULTS_DIR, { recursive: true });
  // Korean glyphs arrive as subsets, each asked for when some text needs it: ask for every one
  // the page's text needs, in both weights, and wait for them. The notice's fade-in is skipped.
  await page.evaluate(async () => {
    const text = document.body.innerText;
    await Promise.all(
      ['400', '700'].map((weight) => document.fonts.load(`${weight} 16px "Noto Serif KR"`, text)),
    );
    await document.fonts.ready;
  });
  if (!SCREENSHOTS_TAKEN) return;
  await page.screenshot({ path: path.join(RESULTS_DIR, `${name}.png`), animations: 'disabled' });
}

test(`two tabs taking ${TURNS_PER_TAB} turns each on one story lose no paragraph silently`, async () => {
  const target = { url: server.url, model, apiKey: API_KEY };
  const context = await browser.newContext({ viewport: DESKTOP });
  await injectTestWallet(context, new TestWallet(1));
  await watchWhatIsShown(context);
  const one = await context.newPage();
  const two = await context.newPage();
  const errors = [collectPageErrors(one), collectPageErrors(two)].map(
    (list) => () => list.filter((error) => !/Failed to load resource/.test(error)),
  );
  const seen = { one: tally(), two: tally() };

  // Tab one starts the story and plays a turn, so there is a saved story to resume.
  // (Headless Chromium holds back animation frames in a tab not in front, which clicks wait
  // for: the tab that acts is brought to the front first.)
  await one.bringToFront();
  await connectAndEnterKey(one, target);
  await one.getByRole('button', { name: 'Start New Game' }).click();
  await one.locator('.genre-chip').first().click();
  await one.getByRole('button', { name: 'Submit Genre' }).click();
  await one.getByRole('button', { name: 'Portrait 7', exact: true }).click();
  await one.getByRole('button', { name: 'Choose me' }).click();
  await one.getByLabel('First Name').fill(HERO.first);
  await one.getByLabel('Last Name').fill(HERO.last);
  await one.getByRole('button', { name: 'Submit' }).click();
  await options(one).first().waitFor({ timeout: 30_000 });
  await noOverlay(one);
  await playTurn(one, 0);
  await seen.one.collect(one);

  // Both tabs resume that story from the list: tab one after a reload, tab two fresh.
  await one.reload();
  await one.locator('.wallet-address__tick').waitFor();
  expect(await one.getByLabel('API key').inputValue()).toBe(API_KEY);
  await one.getByRole('button', { name: 'Submit' }).click();
  await resume(one);
  await seen.one.collect(one);
  await two.bringToFront();
  await connectAndEnterKey(two, target);
  await resume(two);
  await seen.two.collect(two);
  expect(await turnsNow(one)).toBe(1);
  expect(await turnsNow(two)).toBe(1);

  // Turns, strictly alternating; each tab picks its own way through.
  const started = Date.now();
  const turns = { one: 0, two: 0 };
  for (let turn = 0; turn < TURNS_PER_TAB; turn += 1) {
    for (const [name, page, pick] of [
      ['one', one, turn % 3],
      ['two', two, (turn + 1) % 3],
    ] as const) {
      await page.bringToFront();
      await playTurn(page, pick);
      turns[name] += 1;
      await seen[name].collect(page);
      if (turn === 0 && name === 'one') {
        // Tab two hears at once that its story went on elsewhere (BroadcastChannel).
        await two.bringToFront();
        const heard = two.getByRole('status').getByText('This story has gone on in another tab.');
        await heard.waitFor({ timeout: 10_000 });
        await shoot(two, 'two-tabs-moved-on-desktop-en');
      }
    }
  }
  const playedMs = Date.now() - started;

  // What was kept, against what each tab showed.
  const records = await storedStories<StoredStory>(one);
  const saved = await savedParagraphs(one);
  const missing = {
    one: [...seen.one.paragraphs].filter((text) => !saved.has(text)),
    two: [...seen.two.paragraphs].filter((text) => !saved.has(text)),
  };
  const warned = { one: seen.one.warnings.size > 0, two: seen.two.warnings.size > 0 };
  const held = (['one', 'two'] as const).every((tab) => missing[tab].length === 0 || warned[tab]);
  recordFinding({
    fault: 'twoTabs',
    check: `Two tabs, one story, ${TURNS_PER_TAB} turns each, strictly interleaved`,
    figures: {
      'turns per tab': `${turns.one} + ${turns.two} (after 1 shared turn)`,
      'time playing': `${Math.round(playedMs / 1000)} s`,
      'paragraphs seen (tab one / tab two)': `${count(seen.one.paragraphs.size)} / ${count(seen.two.paragraphs.size)}`,
      'paragraphs missing from every record': count(missing.one.length + missing.two.length),
      'warnings shown (tab one / tab two)': `${count(seen.one.warnings.size)} / ${count(seen.two.warnings.size)}`,
      'saved records': `${count(records.length)} (${count(records.filter((record) => typeof record.branchOf === 'number').length)} kept from another tab's line)`,
    },
    held,
  });

  expect(held).toBe(true);
  // This design keeps both lines, so nothing is missing at all, and the tab that split is told.
  expect(missing).toEqual({ one: [], two: [] });
  expect(turns).toEqual({ one: TURNS_PER_TAB, two: TURNS_PER_TAB });
  // The opening, the shared first turn, then one paragraph per turn.
  expect(seen.one.paragraphs.size).toBe(2 + TURNS_PER_TAB);
  expect(seen.two.paragraphs.size).toBe(2 + TURNS_PER_TAB);
  expect(records).toHaveLength(2);
  const branch = records.find((record) => typeof record.branchOf === 'number')!;
  const original = records.find((record) => typeof record.branchOf !== 'number')!;
  expect(branch.branchOf).toBe(original.id);
  expect(original.game.turnCount).toBe(1 + TURNS_PER_TAB);
  expect(branch.game.turnCount).toBe(1 + TURNS_PER_TAB);
  expect(warned).toEqual({ one: false, two: true });

  // The word tab two shows, as a player sees it: desktop and phone, English and Korean.
  await two.bringToFront();
  const status = two.getByRole('status');
  await status
    .getByText(`saved as a separate story: “${HERO.name} (other tab)”`, { exact: false })
    .waitFor();
  await status.getByRole('button', { name: "Switch to the other tab's story" }).waitFor();
  await shoot(two, 'two-tabs-branched-desktop-en');
  await two.setViewportSize(PHONE);
  await shoot(two, 'two-tabs-branched-phone-en');
  await two.getByLabel('Language').selectOption('kr');
  await status.getByText(`“${HERO.name} (다른 탭)”`, { exact: false }).waitFor();
  await status.getByRole('button', { name: '다른 탭의 스토리로 전환' }).waitFor();
  await shoot(two, 'two-tabs-branched-phone-kr');
  await two.setViewportSize(DESKTOP);
  await shoot(two, 'two-tabs-branched-desktop-kr');

  // Switch: tab two now shows the story as tab one left it, and both stories stay listed.
  await status.getByRole('button', { name: '다른 탭의 스토리로 전환' }).click();
  await status.getByText('스토리를 불러왔습니다!').waitFor();
  expect(await two.locator('.story-log .story-paragraph').last().textContent()).toBe(
    original.previousParagraph,
  );
  expect(errors.flatMap((realErrors) => realErrors())).toEqual([]);
  await context.close();
});
