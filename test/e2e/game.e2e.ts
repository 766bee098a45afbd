/**
 * A whole game in Chromium, from the API key to the ending and its saved result, against the
 * running server and a fake OpenAI-compatible model server (the provider is the edge faked),
 * in English and in Korean, with a screenshot of every view.
 */
import type { Page } from 'playwright-core';
import { TestWallet } from '../fixtures/testWallet';
import { userPrompt } from '../fixtures/fakeModelServer';
import { baseUrl } from './support/backend';
import {
  DESKTOP,
  PHONE,
  collectPageErrors,
  horizontalOverflow,
  screenshot,
} from './support/browser';
import { seriousViolations } from './support/axe';
import { injectTestWallet } from './support/injectWallet';
import { browser, model, withBrowserAndModel } from './support/session';

withBrowserAndModel(['sk-good']);

/** Accessibility problems found on the screens a journey looked at, by screen. */
let violations: string[] = [];
beforeEach(() => {
  violations = [];
});

/** A screenshot of the screen for a person to look at, and axe-core's look at it. */
async function look(page: Page, name: string) {
  await screenshot(page, name);
  for (const violation of await seriousViolations(page)) violations.push(`${name}: ${violation}`);
}

/** Connects the injected wallet and enters the key for the fake provider. */
async function signInAndEnterKey(page: Page, lang: 'en' | 'kr', shot: string) {
  const t = (en: string, kr: string) => (lang === 'en' ? en : kr);
  await page.goto(baseUrl());
  if (lang === 'kr') await page.getByLabel('Language').selectOption('kr');
  await page.getByRole('button', { name: t('Connect Wallet', '지갑 연결') }).click();
  await page.locator('.wallet-address__tick').waitFor();
  await page.getByLabel(t('Provider', '제공자')).selectOption('custom');
  await page.getByLabel(t('Base URL', '기본 URL')).fill(model.url);
  await page.getByLabel(t('Model', '모델'), { exact: true }).fill('fake-model');
  await page.getByLabel(t('API key', 'API 키')).fill('sk-bad');
  await look(page, `${shot}-1-api-key`);
  await page.getByRole('button', { name: t('Submit', '제출') }).click();
  await page
    .getByRole('alert')
    .getByText(lang === 'en' ? 'Invalid API key. Please check and try again.' : /API 키/)
    .waitFor();
  await page.getByLabel(t('API key', 'API 키')).fill('sk-good');
  await page.getByRole('button', { name: t('Submit', '제출') }).click();
  await page.waitForURL(`${baseUrl()}/game`);
}

async function playToTheEnd(page: Page, lang: 'en' | 'kr', shot: string) {
  const t = (en: string, kr: string) => (lang === 'en' ? en : kr);
  await page.getByRole('button', { name: t('Start New Game', '새 게임 시작') }).waitFor();
  await look(page, `${shot}-2-load-or-create`);
  await page.getByRole('button', { name: t('Start New Game', '새 게임 시작') }).click();

  await page.locator('.genre-chip').first().click();
  await look(page, `${shot}-3-genre`);
  await page.getByRole('button', { name: t('Submit Genre', '장르 제출') }).click();

  await page.getByRole('button', { name: t('Portrait 5', '초상화 5'), exact: true }).click();
  await look(page, `${shot}-4-portrait`);
  await page.getByRole('button', { name: t('Choose me', '이 캐릭터로 할래요') }).click();

  await page.getByRole('button', { name: t('Random', '무작위') }).click();
  await look(page, `${shot}-5-name`);
  // The opening scene comes back wrapped in prose and with a trailing comma, once garbled.
  model.enqueue(
    { json: { gender: 'female' } },
    {
      json: {
        characterQuirks: ['curious', 'stubborn', 'kind', 'reckless', 'witty'],
        characterGender: 'female',
        characterBio: 'A cartographer of forgotten roads.',
        characterFacialFeatures: ['freckles', 'scar', 'grey eyes', 'braids', 'smile'],
      },
    },
    { json: 'this is not JSON' },
  );
  await page.getByRole('button', { name: t('Submit', '제출') }).click();
  await page.getByRole('progressbar').waitFor();
  await look(page, `${shot}-6-loading`);

  let turns = 0;
  while (
    !(await page.getByRole('heading', { name: t('Adventure Complete', '모험 완료') }).isVisible())
  ) {
    const options = page.locator('.options__list button');
    await Promise.race([
      options.first().waitFor(),
      page.getByRole('heading', { name: t('Adventure Complete', '모험 완료') }).waitFor(),
    ]);
    if (!(await options.first().isVisible())) break;
    turns += 1;
    if (turns === 2) {
      // A rate limit and a garbled reply on the way; the game waits them out.
      model.enqueue({ status: 429, retryAfter: '1' }, { json: '{"storySegment": "broken' });
    }
    if (turns === 3) {
      await page
        .getByLabel(t('Enter your choice', '선택을 입력하세요'))
        .fill('I whistle a song of the old roads');
      await page.keyboard.press('Enter');
    } else {
      await options.first().click();
    }
    if (turns === 1) await look(page, `${shot}-7-playing`);
    await page.waitForFunction(() => !document.querySelector('.loading-overlay'), undefined, {
      timeout: 20_000,
    });
    if (turns > 12) throw new Error('the story did not end by turn 12');
    if (turns === 3) {
      // SPEC.md section 2: outcome badges from the 2nd turn, not on the first choice.
      const choices = page.locator('.story-log .story-choice');
      expect(await choices.nth(0).locator('.outcome-badge').count()).toBe(0);
      expect(await choices.nth(1).locator('.outcome-badge').count()).toBe(1);
      expect(await choices.nth(2).textContent()).toContain('I whistle a song of the old roads');
    }
  }
  expect(turns).toBeGreaterThanOrEqual(7);
  await look(page, `${shot}-8-ending`);
  return turns;
}

test('a full game in English: key, genre, portrait, name, opening, turns, ending, saved result', async () => {
  // Without motion, axe never measures text caught in the middle of its fade-in.
  const context = await browser.newContext({ viewport: DESKTOP, reducedMotion: 'reduce' });
  await injectTestWallet(context, new TestWallet(1));
  const page = await context.newPage();
  const errors = collectPageErrors(page);
  await signInAndEnterKey(page, 'en', 'game-en');
  const turns = await playToTheEnd(page, 'en', 'game-en');

  // The ending screen: its parts and the score.
  for (const label of ['Most Epic Moment', 'Signature Move', 'Character Trait', 'Theme Song']) {
    await page.getByText(label, { exact: true }).first().waitFor();
  }
  await page.getByText(`${turns}`).first().waitFor();
  await page.getByRole('button', { name: 'Save Adventure Results' }).click();
  await page.getByText('Adventure results saved!').waitFor();

  await page.goto(`${baseUrl()}/leaderboard`);
  await page.locator('tbody tr').first().waitFor();
  await look(page, 'game-en-9-leaderboard');
  await page.goto(`${baseUrl()}/profile`);
  await page.getByRole('heading', { level: 1 }).first().waitFor();
  await page.locator('.wallet-address__tick').waitFor();
  await look(page, 'game-en-10-profile');
  // The profile's statistics count the game just saved.
  const totalGames = page.locator('.stat').filter({ hasText: 'Total Games' }).locator('dd');
  expect(Number(await totalGames.textContent())).toBeGreaterThanOrEqual(1);
  expect(await page.locator('table.recent-games tbody tr').count()).toBeGreaterThanOrEqual(1);
  // The API key went to the model server only; never to our backend.
  const keyed = model.requests.filter(
    (request) => request.headers.authorization === 'Bearer sk-good',
  );
  expect(keyed.length).toBeGreaterThan(turns);
  expect(errors.filter((error) => !/Failed to load resource/.test(error))).toEqual([]);
  expect(violations).toEqual([]);
  await context.close();
});

test('the same game in Korean: Korean screens and Korean prompts', async () => {
  const context = await browser.newContext({ viewport: DESKTOP, reducedMotion: 'reduce' });
  await injectTestWallet(context, new TestWallet(1));
  const page = await context.newPage();
  const before = model.requests.length;
  await signInAndEnterKey(page, 'kr', 'game-kr');
  await playToTheEnd(page, 'kr', 'game-kr');
  // Every chat request (the model list is a GET, with no prompt).
  const prompts = model.requests
    .slice(before)
    .filter((request) => request.method === 'POST')
    .map((request) => userPrompt(request.body));
  expect(
    prompts.filter((prompt) => prompt !== 'hi').every((prompt) => /[가-힣]/.test(prompt)),
  ).toBe(true);
  await page.goto(`${baseUrl()}/leaderboard`);
  await page.locator('tbody tr').first().waitFor();
  await look(page, 'game-kr-9-leaderboard');
  expect(violations).toEqual([]);
  await context.close();
});

test.each(['en', 'kr'] as const)(
  'on a phone every setup view and the playing screen fit (%s)',
  async (lang) => {
    const t = (en: string, kr: string) => (lang === 'en' ? en : kr);
    const context = await browser.newContext({ viewport: PHONE, isMobile: true, hasTouch: true });
    await injectTestWallet(context, new TestWallet(1));
    const page = await context.newPage();
    const fits = async (shot: string) => {
      expect(await horizontalOverflow(page)).toBe(0);
      await screenshot(page, `game-phone-${lang}-${shot}`);
    };
    await signInAndEnterKey(page, lang, `game-phone-${lang}`);
    await page.getByRole('button', { name: t('Start New Game', '새 게임 시작') }).click();
    await page.locator('.genre-chip').first().click();
    await fits('genre');
    await page.getByRole('button', { name: t('Submit Genre', '장르 제출') }).click();
    await page.getByRole('button', { name: t('Choose me', '이 캐릭터로 할래요') }).waitFor();
    await fits('portrait');
    await page.getByRole('button', { name: t('Choose me', '이 캐릭터로 할래요') }).click();
    await page.getByRole('button', { name: t('Random', '무작위') }).click();
    await fits('name');
    await page.getByRole('button', { name: t('Submit', '제출') }).click();
    await page.locator('.options__list button').first().waitFor({ timeout: 20_000 });
    await fits('playing');
    await context.close();
  },
);
