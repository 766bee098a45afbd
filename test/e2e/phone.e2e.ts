/**
 * Journey 8 (issue 7): journey 2 on a 390x844 phone with touch. Every control the player
 * presses is tapped; at every screen nothing scrolls sideways and the controls that matter sit
 * wholly inside the screen's width. In English, then in Korean (longer words, other glyphs).
 * Against the shared e2e server and a fake model server; a screenshot of every screen.
 */
import type { Browser, Locator, Page } from 'playwright-core';
import { TestWallet } from '../fixtures/testWallet';
import {
  gameReply,
  startFakeModelServer,
  userPrompt,
  type FakeModelServer,
} from '../fixtures/fakeModelServer';
import { baseUrl } from './support/backend';
import {
  PHONE,
  collectPageErrors,
  horizontalOverflow,
  launchBrowser,
  screenshot,
} from './support/browser';
import { injectTestWallet } from './support/injectWallet';
import { say, type Lang, type Word } from './support/words';

const API_KEY = 'sk-phone';

let browser: Browser;
let model: FakeModelServer;
beforeAll(async () => {
  browser = await launchBrowser();
  model = await startFakeModelServer({ validKeys: [API_KEY] });
  // The opening scene streams in slowly enough for the loading bar to be seen.
  model.replyWith((body) => {
    const reply = gameReply(body);
    return userPrompt(body).includes('storyStart') && !userPrompt(body).includes('storySegment')
      ? { ...reply, chunkChars: 48, chunkDelayMs: 60 }
      : reply;
  });
});
afterAll(async () => {
  await browser?.close();
  await model?.close();
});

/** What gameReply's recap says, by language (the four highlights). */
const HIGHLIGHTS: Record<Lang, string[]> = {
  en: [
    'Choosing to trust the stranger in the alley.',
    'Reading old letters by lantern light.',
    'Quick wit under pressure.',
    'Loyalty tested by secrets.',
  ],
  kr: [
    '골목의 낯선 이를 믿기로 한 순간.',
    '등불 아래에서 오래된 편지를 읽는 일.',
    '압박 속에서도 빛나는 재치.',
    '비밀에 시험받는 충성.',
  ],
};

/**
 * How far the page is wider than the phone, in CSS pixels. horizontalOverflow compares with
 * window.innerWidth, which a mobile viewport widens to fit wide content (a page 450 px wide on
 * a 390 px phone has innerWidth 450), so it alone cannot see this; the layout viewport's
 * clientWidth stays the phone's.
 */
function widerThanPhone(page: Page): Promise<number> {
  return page.evaluate(
    () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
  );
}

/**
 * Visible buttons, links, inputs and selects that stick out of the phone's width, described;
 * those inside a region that scrolls sideways on purpose (the leaderboard's table) excepted.
 */
function controlsCutOff(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const width = document.documentElement.clientWidth;
    const scrollsSideways = (element: Element): boolean => {
      for (let node = element.parentElement; node; node = node.parentElement) {
        const overflowX = getComputedStyle(node).overflowX;
        if (overflowX === 'auto' || overflowX === 'scroll') return true;
      }
      return false;
    };
    return Array.from(document.querySelectorAll('button, a[href], input, select, textarea'))
      .filter((element) => {
        const box = element.getBoundingClientRect();
        if (box.width === 0 || box.height === 0) return false;
        if (getComputedStyle(element).visibility === 'hidden') return false;
        return (box.left < -0.5 || box.right > width + 0.5) && !scrollsSideways(element);
      })
      .map((element) => {
        const box = element.getBoundingClientRect();
        const name =
          element.getAttribute('aria-label') ?? element.textContent?.trim().slice(0, 40) ?? '';
        return `${element.tagName.toLowerCase()} "${name}" at ${Math.round(box.left)}..${Math.round(box.right)}`;
      });
  });
}

/** The control lies wholly within the phone's width. */
async function expectInsideWidth(control: Locator) {
  await control.waitFor();
  const box = await control.boundingBox();
  expect(box).not.toBeNull();
  expect(box!.x).toBeGreaterThanOrEqual(0);
  expect(box!.x + box!.width).toBeLessThanOrEqual(PHONE.width);
}

async function journeyOnPhone(lang: Lang) {
  const t = (key: Word) => say(lang, key);
  const button = (page: Page, key: Word) => page.getByRole('button', { name: t(key), exact: true });

  const context = await browser.newContext({ viewport: PHONE, isMobile: true, hasTouch: true });
  await injectTestWallet(context, new TestWallet(1));
  const page = await context.newPage();
  const errors = collectPageErrors(page);
  let step = 0;
  /** No sideways scroll, no control cut off, the primary ones inside; then a screenshot. */
  const fits = async (name: string, primary: Locator[]) => {
    for (const control of primary) await expectInsideWidth(control);
    expect(await horizontalOverflow(page)).toBe(0);
    expect(await widerThanPhone(page)).toBe(0);
    expect(await page.evaluate(() => window.innerWidth)).toBe(PHONE.width);
    expect(await controlsCutOff(page)).toEqual([]);
    step += 1;
    // From the top: a full-page shot of a scrolled page draws the sticky header mid-page.
    await page.evaluate(() => window.scrollTo(0, 0));
    await screenshot(page, `phone-journey-${lang}-${String(step).padStart(2, '0')}-${name}`);
  };

  // Home: connect and sign with a tap.
  await page.goto(baseUrl());
  if (lang === 'kr') await page.getByLabel('Language').selectOption('kr');
  await fits('home', [button(page, 'connect')]);
  await button(page, 'connect').tap();
  await page.locator('.wallet-address__tick').waitFor();

  // The key: rejected, then accepted.
  await page.getByLabel(t('provider')).selectOption('custom');
  await page.getByLabel(t('baseUrl')).fill(model.url);
  await page.getByLabel(t('model'), { exact: true }).fill('fake-model');
  await page.getByLabel(t('apiKey')).fill('sk-wrong');
  await button(page, 'submit').tap();
  await page.getByRole('alert').getByText(t('invalidKey')).waitFor();
  await fits('key-rejected', [button(page, 'submit'), page.getByLabel(t('apiKey'))]);
  await page.getByLabel(t('apiKey')).fill(API_KEY);
  await button(page, 'submit').tap();
  await page.waitForURL(`${baseUrl()}/game`);

  // Load or create, genre, portrait, name.
  await fits('load-or-create', [button(page, 'startNewGame')]);
  await button(page, 'startNewGame').tap();
  await page.locator('.genre-chip').first().tap();
  await fits('genre', [page.locator('.genre-chip').first(), button(page, 'submitGenre')]);
  await button(page, 'submitGenre').tap();
  await button(page, 'portrait5').tap();
  await fits('portrait', [button(page, 'portrait5'), button(page, 'chooseMe')]);
  await button(page, 'chooseMe').tap();
  await button(page, 'random').tap();
  await fits('name', [button(page, 'random'), button(page, 'submit')]);
  await button(page, 'submit').tap();

  // The loading bar while the opening is written.
  await page.getByRole('progressbar').waitFor();
  await fits('loading', [page.getByRole('progressbar')]);

  // Playing: the character panel's details open and close with a tap.
  const options = page.locator('.options__list button');
  await options.first().waitFor({ timeout: 20_000 });
  const name = (await page.locator('.character-panel__name').textContent())?.trim() ?? '';
  expect(name).not.toBe('');
  const bio = page.locator('.character-panel__bio');
  const toggle = page.locator('.character-panel__toggle');
  expect(await toggle.textContent()).toBe(t('showDetails'));
  expect(await bio.isVisible()).toBe(false);
  await fits('playing', [toggle, options.first(), button(page, 'submit')]);
  await toggle.tap();
  await bio.waitFor();
  expect(await toggle.getAttribute('aria-expanded')).toBe('true');
  expect(await toggle.textContent()).toBe(t('hideDetails'));
  expect((await bio.textContent())?.length).toBeGreaterThan(20);
  await fits('details', [toggle, options.first()]);
  await toggle.tap();
  await bio.waitFor({ state: 'hidden' });
  expect(await toggle.textContent()).toBe(t('showDetails'));

  // Turns until the story ends: options tapped, once the player's own words.
  const ending = page.getByRole('heading', { name: t('ending') });
  let turns = 0;
  for (;;) {
    await options.first().or(ending).first().waitFor({ timeout: 20_000 });
    if (await ending.isVisible()) break;
    if (turns === 2) {
      // From the second turn the choices carry their outcome; the first does not.
      expect(await page.locator('.story-choice').first().locator('.outcome-badge').count()).toBe(0);
      expect(await page.locator('.story-choice').nth(1).locator('.outcome-badge').count()).toBe(1);
      await fits('outcomes', [options.first(), button(page, 'submit')]);
    }
    turns += 1;
    if (turns === 3) {
      const own = page.getByLabel(t('choiceLabel'));
      await own.tap();
      await own.fill(
        lang === 'en' ? 'I whistle a song of the old roads' : '옛 길의 노래를 휘파람으로 분다',
      );
      await button(page, 'submit').tap();
      await page
        .locator('.story-choice__text')
        .filter({ hasText: lang === 'en' ? 'I whistle a song' : '옛 길의 노래' })
        .waitFor();
    } else {
      await options.first().tap();
    }
    await page.waitForFunction(() => !document.querySelector('.loading-overlay'), undefined, {
      timeout: 20_000,
    });
    if (turns > 14) throw new Error('the story did not end by turn 14');
  }
  expect(turns).toBeGreaterThanOrEqual(7);

  // The ending: title, the four highlights, the score, the save button.
  for (const key of ['bigMoment', 'activity', 'trait', 'theme'] as const) {
    await page.locator('.ending-highlights dt').getByText(t(key), { exact: true }).waitFor();
  }
  expect(await page.locator('.ending-highlights dd').allTextContents()).toEqual(HIGHLIGHTS[lang]);
  const score = (await page.locator('.ending-score__value').textContent())?.trim() ?? '';
  expect(score).toMatch(/^\d[\d,]*$/);
  await fits('ending', [ending, page.locator('.ending-score__value'), button(page, 'save')]);
  await button(page, 'save').tap();
  await page.getByText(t('saved')).waitFor();
  await page.getByText(t('localDeleted')).waitFor();
  await fits('saved', [page.locator('.save-result__button')]);

  // The leaderboard, reached by its link: the new row.
  await page.getByRole('link', { name: t('leaderboard'), exact: true }).tap();
  await page.waitForURL(`${baseUrl()}/leaderboard`);
  const row = page.locator('tbody tr').filter({ hasText: name });
  await row.first().waitFor();
  expect(await row.first().locator('.cell-score').textContent()).toContain(score);
  await fits('leaderboard', [row.first().locator('.cell-character')]);

  // The profile, from the wallet menu: the statistics count the game.
  await page.locator('.wallet-address').tap();
  await page.getByRole('menuitem', { name: t('profile') }).tap();
  await page.waitForURL(`${baseUrl()}/profile`);
  const totalGames = page
    .locator('.stat')
    .filter({ hasText: t('totalGames') })
    .locator('dd');
  await totalGames.waitFor();
  expect((await totalGames.textContent())?.trim()).toBe('1');
  await fits('profile', [page.locator('.wallet-address')]);

  expect(errors.filter((error) => !/Failed to load resource/.test(error))).toEqual([]);
  await context.close();
}

test('journey 2 on a 390x844 phone with touch, in English: nothing cut off, no sideways scroll', async () => {
  await journeyOnPhone('en');
});

test('journey 2 on a 390x844 phone with touch, in Korean: nothing cut off, no sideways scroll', async () => {
  await journeyOnPhone('kr');
});
