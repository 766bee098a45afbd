/**
 * Cloud saves in Chromium, in English and in Korean: one wallet on two devices, a laptop
 * (desktop) and a phone (390 px), each a browser context with its own IndexedDB. The laptop
 * keeps its stories with the wallet and plays two turns; the phone, signed in with the same
 * wallet, lists the story as kept elsewhere and continues it at the same turn. Then both play
 * on: the laptop's stale save is kept as a copy and the player is told. And a story played to
 * its end is published from the ending screen (with cloud saves off), read at its page by a
 * third context with no wallet, and gone from there once unpublished. Against the running
 * server (its stories table) and the fake model server.
 */
import type { BrowserContext, Page } from 'playwright-core';
import { TestWallet } from '../fixtures/testWallet';
import { baseUrl } from './support/backend';
import {
  DESKTOP,
  PHONE,
  collectPageErrors,
  horizontalOverflow,
  screenshot,
} from './support/browser';
import { injectTestWallet } from './support/injectWallet';
import { fillKeyForm, setUpNewGame, submitKey } from './support/journey';
import { browser, model, withBrowserAndModel } from './support/session';
import { say, type Lang } from './support/words';

const API_KEY = 'sk-cloud-e2e-5b1d0e';

withBrowserAndModel([API_KEY]);

const T = {
  keep: ['Keep my stories with my wallet', '내 이야기를 지갑에 보관하기'],
  elsewhere: ['Kept with your wallet, not in this browser', '지갑에 보관됨 · 이 브라우저에는 없음'],
  load: ['Load', '불러오기'],
  offer: ['Your wallet keeps 1 story.', '지갑에 이야기 1개가 보관되어 있습니다.'],
  turns: ['Turns: ', '턴: '],
  copy: ['is kept as a copy', '사본으로 보관되었고'],
  publish: ['Publish…', '공개하기…'],
  publishIt: ['Publish it', '공개하기'],
  whatGoesPublic: ['the recap and the score', '결말 요약과 점수'],
  unpublish: ['Unpublish', '공개 취소'],
  missing: ['This story is not published (any more).', '이 이야기는 공개되어 있지 않습니다'],
} as const;
const t = (lang: Lang, word: keyof typeof T) => T[word][lang === 'en' ? 0 : 1];

async function device(wallet: TestWallet, viewport: typeof DESKTOP): Promise<BrowserContext> {
  const context = await browser.newContext({ viewport });
  await injectTestWallet(context, wallet);
  return context;
}

/** Signs in, in `lang`, enters the key, and turns cloud saves on: ends on load-or-create. */
async function signInWithCloudSaves(page: Page, lang: Lang, { keep = true } = {}) {
  const url = baseUrl();
  await page.goto(url);
  if (lang === 'kr') await page.getByLabel('Language').selectOption('kr');
  await page.getByRole('button', { name: say(lang, 'connect') }).click();
  await page.locator('.wallet-address__tick').waitFor();
  if (lang === 'en') {
    await fillKeyForm(page, { url, model, apiKey: API_KEY });
  } else {
    await page.getByLabel(say(lang, 'provider')).selectOption('custom');
    await page.getByLabel(say(lang, 'baseUrl')).fill(model.url);
    await page.getByLabel(say(lang, 'model'), { exact: true }).fill('fake-model');
    await page.getByLabel(say(lang, 'apiKey')).fill(API_KEY);
  }
  if (lang === 'en') {
    await submitKey(page, url);
  } else {
    await page.getByRole('button', { name: say(lang, 'submit') }).click();
    await page.getByRole('button', { name: say(lang, 'startNewGame') }).waitFor();
  }
  if (keep) await keepWithWallet(page, lang);
}

async function keepWithWallet(page: Page, lang: Lang) {
  const keep = page.getByLabel(t(lang, 'keep'));
  if (!(await keep.isChecked())) await keep.check();
}

const turnsLine = (page: Page, lang: Lang) =>
  page.locator('.play-header__line').filter({ hasText: t(lang, 'turns') });
const firstOption = (page: Page) => page.locator('.options__list button').first();

async function turnsOf(page: Page, lang: Lang): Promise<number> {
  return Number((await turnsLine(page, lang).textContent())?.replace(/\D/g, ''));
}

async function playTurn(page: Page, lang: Lang) {
  const before = await turnsOf(page, lang);
  await firstOption(page).click();
  await turnsLine(page, lang)
    .filter({ hasText: `${t(lang, 'turns')}${before + 1}` })
    .waitFor({ timeout: 20_000 });
  await firstOption(page).waitFor({ timeout: 20_000 });
}

/** The text of the story's last paragraph on screen. */
const lastParagraph = (page: Page) =>
  page.locator('.story-log .story-paragraph').last().textContent();

/** Until the cloud has the save of the story on screen (the sync line is quiet again). */
async function cloudHasIt(page: Page, paragraph: string | null) {
  const server = baseUrl();
  await page.waitForFunction(
    async ({ server, paragraph }) => {
      const sessions = Object.keys(localStorage).filter((key) => key.startsWith('auth_token_'));
      const token = sessions[0] && localStorage.getItem(sessions[0]);
      if (!token) return false;
      const response = await fetch(
        `${server}/rest/v1/stories?select=head&order=saved_at.desc&limit=5`,
        {
          headers: { apikey: 'sb_publishable_taleweaver_local', authorization: `Bearer ${token}` },
        },
      );
      if (!response.ok) return false;
      const rows = (await response.json()) as { head: { previousParagraph: string } }[];
      return rows.some((row) => row.head.previousParagraph.trim() === paragraph?.trim());
    },
    { server, paragraph },
    { timeout: 20_000, polling: 200 },
  );
}

describe.each(['en', 'kr'] as const)('cloud saves in %s', (lang) => {
  test('a story played on a laptop goes on from a phone at the same turn, and a stale save is kept as a copy', async () => {
    const wallet = new TestWallet(40 + (lang === 'en' ? 1 : 2));
    const laptopContext = await device(wallet, DESKTOP);
    const phoneContext = await device(wallet, PHONE);
    try {
      const laptop = await laptopContext.newPage();
      const phone = await phoneContext.newPage();
      const errors = [...collectPageErrors(laptop), ...collectPageErrors(phone)];

      await signInWithCloudSaves(laptop, lang);
      await screenshot(laptop, `cloud-${lang}-1-setting-desktop`);
      await setUpNewGame(laptop, 5, lang);
      await firstOption(laptop).waitFor({ timeout: 20_000 });
      await playTurn(laptop, lang);
      await playTurn(laptop, lang);
      const laptopParagraph = await lastParagraph(laptop);
      await cloudHasIt(laptop, laptopParagraph);

      // The phone: signed in with the same wallet, it lists the story and continues it.
      // Reading the wallet's stories needs no setting: the phone lists it, and offers the setting.
      await signInWithCloudSaves(phone, lang, { keep: false });
      const kept = phone.locator('.cloud-stories');
      await kept.getByText(t(lang, 'elsewhere')).waitFor({ timeout: 20_000 });
      await kept.getByText(t(lang, 'offer')).waitFor();
      await screenshot(phone, `cloud-${lang}-2-offer-phone`);
      await keepWithWallet(phone, lang);
      expect(await horizontalOverflow(phone)).toBe(0);
      await screenshot(phone, `cloud-${lang}-2-other-device-phone`);
      await kept
        .getByRole('button', { name: t(lang, 'load') })
        .first()
        .click();
      await firstOption(phone).waitFor({ timeout: 20_000 });
      expect(await turnsOf(phone, lang)).toBe(2);
      expect(await lastParagraph(phone)).toBe(laptopParagraph);
      await screenshot(phone, `cloud-${lang}-3-continued-phone`);

      // The phone plays on and its turn goes up; the laptop, not knowing, plays on too.
      await playTurn(phone, lang);
      await cloudHasIt(phone, await lastParagraph(phone));
      await playTurn(laptop, lang);
      await laptop.getByText(t(lang, 'copy')).waitFor({ timeout: 20_000 });
      await screenshot(laptop, `cloud-${lang}-4-kept-as-copy-desktop`);
      // Both lines are in the cloud: the phone's story and the laptop's copy.
      await cloudHasIt(laptop, await lastParagraph(laptop));
      await cloudHasIt(phone, await lastParagraph(phone));
      expect(errors.filter((error) => !/Failed to load resource/.test(error))).toEqual([]);
    } finally {
      await laptopContext.close();
      await phoneContext.close();
    }
  });
});

describe.each(['en', 'kr'] as const)('publishing in %s', (lang) => {
  test('a finished story is published from the ending screen, read by a visitor with no wallet, and gone once unpublished', async () => {
    const playerContext = await device(new TestWallet(50 + (lang === 'en' ? 1 : 2)), DESKTOP);
    const visitorContext = await browser.newContext({ viewport: PHONE });
    try {
      const player = await playerContext.newPage();
      const visitor = await visitorContext.newPage();
      const errors = [...collectPageErrors(player), ...collectPageErrors(visitor)];
      await signInWithCloudSaves(player, lang);
      // Publishing asks for no cloud saves: it sends the one story it publishes.
      await player.getByLabel(t(lang, 'keep')).uncheck();
      await setUpNewGame(player, 7, lang);
      const ending = player.getByRole('heading', { name: say(lang, 'ending') });
      for (let turns = 0; ; turns += 1) {
        await firstOption(player).or(ending).first().waitFor({ timeout: 20_000 });
        if (await ending.isVisible()) break;
        if (turns > 14) throw new Error('the story did not end by turn 14');
        await firstOption(player).click();
        await player.waitForFunction(() => !document.querySelector('.loading-overlay'), undefined, {
          timeout: 20_000,
        });
      }
      await player.getByRole('button', { name: t(lang, 'publish') }).click();
      await player.getByText(t(lang, 'whatGoesPublic')).waitFor();
      await screenshot(player, `publish-${lang}-1-what-goes-public-desktop`);
      await player.getByRole('button', { name: t(lang, 'publishIt'), exact: true }).click();
      const link = player.locator('.publish-panel__link a');
      await link.waitFor({ timeout: 20_000 });
      const address = (await link.getAttribute('href')) ?? '';
      expect(address).toMatch(/\/story\/[0-9a-f-]{36}$/);

      // A visitor with no wallet and no key reads it, on a phone.
      await visitor.goto(address);
      const page = visitor.locator('.published-story');
      await page.waitFor({ timeout: 20_000 });
      expect(await page.getAttribute('lang')).toBe(lang === 'en' ? 'en' : 'ko');
      expect(await visitor.locator('.published-story__log').textContent()).toContain(
        (await player
          .locator('.story-log .story-paragraph')
          .first()
          .textContent()
          .catch(() => '')) ?? '',
      );
      expect(await horizontalOverflow(visitor)).toBe(0);
      await screenshot(visitor, `publish-${lang}-2-visitor-phone`);

      // Unpublished: the page goes at once.
      await player.getByRole('button', { name: t(lang, 'unpublish') }).click();
      await player
        .getByRole('button', { name: t(lang, 'publishIt'), exact: true })
        .or(player.getByRole('button', { name: t(lang, 'publish') }))
        .first()
        .waitFor();
      await visitor.reload();
      // Said in the visitor's own interface language (English here): the story is not there.
      await visitor.getByText(t('en', 'missing')).waitFor({ timeout: 20_000 });
      await screenshot(visitor, `publish-${lang}-3-unpublished-phone`);
      expect(errors.filter((error) => !/Failed to load resource/.test(error))).toEqual([]);
    } finally {
      await playerContext.close();
      await visitorContext.close();
    }
  });
});
