/**
 * Stories the browser keeps (DESIGN.md), in Chromium: a browser whose navigator.storage has not
 * promised to keep the site's storage, stubbed before the app loads to answer the game's one
 * question (persist()) with yes, or with no. The first save asks, once, however many saves come
 * after it; then, back on the saved-stories screen (a reload: a new session, which reads the
 * answer without asking), the screen says the browser has promised, or says what may happen
 * and the two ways to keep the stories. In English and Korean, on a phone (390 px) and a
 * desktop, signed in with the test wallet and cloud saves off (as a new player has them); and
 * once as Safari on an iPhone, where Safari is named.
 */
import type { BrowserContext, Page } from 'playwright-core';
import { seriousViolations } from './support/axe';
import { baseUrl } from './support/backend';
import {
  DESKTOP,
  PHONE,
  collectPageErrors,
  horizontalOverflow,
  screenshot,
} from './support/browser';
import { TestWallet } from '../fixtures/testWallet';
import { injectTestWallet } from './support/injectWallet';
import { setUpNewGame } from './support/journey';
import { browser, model, withBrowserAndModel } from './support/session';
import { storedStories } from './support/storiesDb';
import { say, type Lang } from './support/words';

const API_KEY = 'sk-keeping-e2e-71c0';

withBrowserAndModel([API_KEY]);

const SAFARI_ON_IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1';

const T = {
  mayDelete: [
    'This browser may delete your saved stories after a while without a visit (Safari does after 7 days).',
    '이 브라우저는 한동안(Safari는 7일) 방문하지 않으면 저장된 스토리를 삭제할 수 있습니다.',
  ],
  safariMayDelete: [
    'Safari may delete your saved stories if you do not visit the game for 7 days.',
    'Safari는 7일 동안 게임을 방문하지 않으면 저장된 스토리를 삭제할 수 있습니다.',
  ],
  promised: [
    'This browser has promised to keep your saved stories.',
    '이 브라우저는 저장된 스토리를 지우지 않고 보관하기로 약속했습니다.',
  ],
  wallet: ['Keep them with your wallet', '지갑에 보관하기'],
  setting: ['Keep my stories with my wallet', '내 이야기를 지갑에 보관하기'],
  exportWay: ['Export JSON', 'JSON 내보내기'],
  apiKey: ['Your API key is kept in this browser too', 'API 키도 이 브라우저에 보관되어'],
  turns: ['Turns: ', '턴: '],
} as const;
const t = (lang: Lang, word: keyof typeof T) => T[word][lang === 'en' ? 0 : 1];

type Answer = 'granted' | 'refused';

/**
 * navigator.storage as a browser that has not promised yet and answers persist() with
 * `granted`. What it said and how often it was asked live in sessionStorage, so a reload of the
 * tab remembers them as the browser would.
 */
async function browserAnswering(context: BrowserContext, granted: boolean) {
  await context.addInitScript((grant: boolean) => {
    const kept = () => sessionStorage.getItem('test.persisted') === 'yes';
    const storage = navigator.storage;
    Object.defineProperty(storage, 'persisted', { value: () => Promise.resolve(kept()) });
    Object.defineProperty(storage, 'persist', {
      value: () => {
        const asked = Number(sessionStorage.getItem('test.persistAsked') ?? '0') + 1;
        sessionStorage.setItem('test.persistAsked', String(asked));
        if (grant) sessionStorage.setItem('test.persisted', 'yes');
        return Promise.resolve(grant || kept());
      },
    });
  }, granted);
}

/** How many times the page has asked the browser to keep its storage. */
const timesAsked = (page: Page) =>
  page.evaluate(() => Number(sessionStorage.getItem('test.persistAsked') ?? '0'));

/** The wallet connected, the fake provider and the key, in `lang`, sent: ends on load-or-create. */
async function signInAndEnterKey(page: Page, lang: Lang) {
  await page.getByRole('button', { name: say(lang, 'connect') }).click();
  await page.locator('.wallet-address__tick').waitFor();
  await page.getByLabel(say(lang, 'provider')).selectOption('custom');
  await page.getByLabel(say(lang, 'baseUrl')).fill(model.url);
  await page.getByLabel(say(lang, 'model'), { exact: true }).fill('fake-model');
  await page.getByLabel(say(lang, 'apiKey')).fill(API_KEY);
  await page.getByRole('button', { name: say(lang, 'submit') }).click();
  await page.getByRole('button', { name: say(lang, 'startNewGame') }).waitFor();
}

const turnsLine = (page: Page, lang: Lang) =>
  page.locator('.play-header__line').filter({ hasText: t(lang, 'turns') });
const firstOption = (page: Page) => page.locator('.options__list button').first();
const noOverlay = (page: Page) =>
  page.waitForFunction(() => !document.querySelector('.loading-overlay'), undefined, {
    timeout: 20_000,
  });

interface StoredStory {
  game: { turnCount?: number };
}

/** Until MyStoriesDB holds the story at `turns`. */
async function savedAt(page: Page, turns: number) {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const stories = await storedStories<StoredStory>(page);
    if (stories.some((story) => story.game.turnCount === turns)) return;
    if (Date.now() > deadline) throw new Error(`the story was not saved at turn ${turns}`);
    await page.waitForTimeout(50);
  }
}

interface Journey {
  answer: Answer;
  lang: Lang;
  device: 'phone' | 'desktop';
  userAgent?: string;
}

/**
 * A new player's first story: the key, a new game to its opening and one turn (a save each),
 * then a reload back to the saved-stories screen. Returns the page there.
 */
async function firstStoryThenTheList({ answer, lang, device, userAgent }: Journey) {
  const context = await browser.newContext({
    viewport: device === 'phone' ? PHONE : DESKTOP,
    ...(device === 'phone' && { isMobile: true, hasTouch: true }),
    ...(userAgent && { userAgent }),
  });
  await injectTestWallet(context, new TestWallet(1));
  await browserAnswering(context, answer === 'granted');
  const page = await context.newPage();
  const errors = collectPageErrors(page);
  await page.goto(baseUrl());
  if (lang === 'kr') await page.getByLabel('Language').selectOption('kr');
  await signInAndEnterKey(page, lang);
  expect(await timesAsked(page)).toBe(0);

  // The first save of the story asks; the saves after it do not.
  await setUpNewGame(page, 5, lang);
  await firstOption(page).waitFor({ timeout: 20_000 });
  await noOverlay(page);
  await savedAt(page, 0);
  await page.waitForFunction(() => sessionStorage.getItem('test.persistAsked') !== null);
  expect(await timesAsked(page)).toBe(1);
  await firstOption(page).click();
  await turnsLine(page, lang)
    .filter({ hasText: `${t(lang, 'turns')}1` })
    .waitFor({ timeout: 20_000 });
  await savedAt(page, 1);
  expect(await timesAsked(page)).toBe(1);

  // A new session on the saved-stories screen: it reads the answer, and asks nothing.
  await page.reload();
  await page.locator('.wallet-address__tick').waitFor();
  await page.getByRole('button', { name: say(lang, 'submit') }).click();
  await page.locator('.saved-list .story-card').first().waitFor();
  return { context, page, errors };
}

const note = (page: Page) => page.locator('.saved-list .browser-keeps');

describe.each([
  ['en', 'desktop'],
  ['en', 'phone'],
  ['kr', 'desktop'],
  ['kr', 'phone'],
] as const)('in %s on a %s', (lang, device) => {
  test('the browser grants it: the first save asked, and the screen says the stories are kept', async () => {
    const { context, page, errors } = await firstStoryThenTheList({
      answer: 'granted',
      lang,
      device,
    });
    await note(page).getByText(t(lang, 'promised')).waitFor();
    expect(await page.getByText(t(lang, 'mayDelete')).count()).toBe(0);
    expect(await page.getByRole('button', { name: t(lang, 'wallet') }).count()).toBe(0);
    expect(await timesAsked(page)).toBe(1);
    expect(await horizontalOverflow(page)).toBe(0);
    await screenshot(page, `keeping-granted-${lang}-${device}`);
    expect(await seriousViolations(page)).toEqual([]);
    expect(errors).toEqual([]);
    await context.close();
  });

  test('the browser refuses: the screen says what may happen, and the two ways to keep them', async () => {
    const { context, page, errors } = await firstStoryThenTheList({
      answer: 'refused',
      lang,
      device,
    });
    const shown = note(page);
    await shown.getByText(t(lang, 'mayDelete')).waitFor();
    expect(await shown.getByText(t(lang, 'exportWay')).count()).toBe(1);
    expect(await shown.getByText(t(lang, 'apiKey')).count()).toBe(1);
    expect(await page.getByText(t(lang, 'promised')).count()).toBe(0);
    expect(await timesAsked(page)).toBe(1);
    expect(await horizontalOverflow(page)).toBe(0);
    await screenshot(page, `keeping-refused-${lang}-${device}`);
    expect(await seriousViolations(page)).toEqual([]);

    // The wallet's way leads to the setting, which the player turns on themselves.
    const setting = page.getByLabel(t(lang, 'setting'));
    await shown.getByRole('button', { name: t(lang, 'wallet') }).click();
    expect(await setting.evaluate((input) => input === document.activeElement)).toBe(true);
    expect(await setting.isChecked()).toBe(false);
    expect(errors).toEqual([]);
    await context.close();
  });
});

test('in Safari on an iPhone, refused: Safari is named', async () => {
  const { context, page, errors } = await firstStoryThenTheList({
    answer: 'refused',
    lang: 'en',
    device: 'phone',
    userAgent: SAFARI_ON_IPHONE,
  });
  await note(page).getByText(t('en', 'safariMayDelete')).waitFor();
  expect(await page.getByText(t('en', 'mayDelete')).count()).toBe(0);
  expect(await horizontalOverflow(page)).toBe(0);
  await screenshot(page, 'keeping-refused-en-phone-safari');
  expect(errors).toEqual([]);
  await context.close();
});
