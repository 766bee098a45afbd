import type { Browser } from 'playwright-core';
import {
  DESKTOP,
  PHONE,
  collectPageErrors,
  horizontalOverflow,
  launchBrowser,
  screenshot,
} from './support/browser';

const baseUrl = () => {
  const url = process.env.E2E_BASE_URL;
  if (!url) throw new Error('E2E_BASE_URL is not set: the e2e globalSetup did not run');
  return url;
};

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

test('the shell loads, switches to Korean and back, and follows the Leaderboard link', async () => {
  const page = await browser.newPage({ viewport: DESKTOP });
  const errors = collectPageErrors(page);
  await page.goto(baseUrl());

  await page
    .getByRole('heading', { level: 1, name: 'Every choice writes the next page.' })
    .waitFor();
  await screenshot(page, 'shell-home-en-desktop');

  await page.getByLabel('Language').selectOption('kr');
  await page.getByRole('link', { name: '리더보드' }).waitFor();
  expect(await page.getAttribute('html', 'lang')).toBe('ko');
  await page.getByRole('heading', { level: 1, name: '당신의 선택이 다음 장을 씁니다.' }).waitFor();
  await screenshot(page, 'shell-home-kr-desktop');

  await page.getByLabel('언어').selectOption('en');
  await page.getByRole('link', { name: 'Leaderboard' }).click();
  await page.waitForURL(`${baseUrl()}/leaderboard`);
  await page.getByRole('heading', { level: 1, name: 'Leaderboard' }).waitFor();
  await screenshot(page, 'shell-leaderboard-en-desktop');

  expect(errors).toEqual([]);
  await page.close();
});

test('the chosen language is remembered across a reload', async () => {
  const page = await browser.newPage({ viewport: DESKTOP });
  await page.goto(baseUrl());
  await page.getByLabel('Language').selectOption('kr');
  await page.getByRole('link', { name: '홈' }).waitFor();
  await page.reload();
  await page.getByRole('heading', { level: 1, name: '당신의 선택이 다음 장을 씁니다.' }).waitFor();
  expect(await page.getByLabel('언어').inputValue()).toBe('kr');
  await page.close();
});

test('an unknown route redirects to the home screen', async () => {
  const page = await browser.newPage({ viewport: DESKTOP });
  await page.goto(`${baseUrl()}/no/such/page`);
  await page.waitForURL(`${baseUrl()}/`);
  await page
    .getByRole('heading', { level: 1, name: 'Every choice writes the next page.' })
    .waitFor();
  await page.close();
});

test('a page whose chunk cannot be downloaded shows the friendly error with Reload', async () => {
  const page = await browser.newPage({ viewport: DESKTOP });
  await page.route('**/assets/profile.*.js', (route) => route.abort());
  await page.goto(baseUrl());
  await page.goto(`${baseUrl()}/profile`);
  await page.getByRole('heading', { name: 'Loading chunk failed' }).waitFor();
  await page.getByRole('button', { name: 'Reload' }).waitFor();
  // The header stays, so the player can still go elsewhere.
  await page.getByRole('link', { name: 'Leaderboard' }).click();
  await page.getByRole('heading', { level: 1, name: 'Leaderboard' }).waitFor();
  await page.close();
});

test.each(['en', 'kr'] as const)(
  'on a 390 px phone nothing scrolls sideways (%s)',
  async (lang) => {
    const page = await browser.newPage({ viewport: PHONE, isMobile: true, hasTouch: true });
    await page.goto(baseUrl());
    await page.getByLabel('Language').selectOption(lang);
    await page.getByRole('link', { name: lang === 'en' ? 'Home' : '홈' }).waitFor();
    expect(await horizontalOverflow(page)).toBe(0);
    await screenshot(page, `shell-home-${lang}-phone`);
    await page.close();
  },
);
