/**
 * A published story's page, /story/<id>, in Chromium as a visitor with no wallet and no key
 * meets it: stories saved and published through the API by a really signed-in wallet, read on
 * a desktop and on a 390 px phone, in English and in Korean, reached from the leaderboard; and
 * a story that is not published (any more).
 */
import { randomUUID } from 'node:crypto';
import { Wallet } from 'ethers';
import type { Browser, Page } from 'playwright-core';
import type { BackendClient } from '../../src/api/backend';
import { plausibleResult } from '../server/support/results';
import { signIn } from '../server/support/testServer';
import { seriousViolations } from './support/axe';
import { e2eBackend } from './support/backend';
import {
  DESKTOP,
  PHONE,
  collectPageErrors,
  horizontalOverflow,
  launchBrowser,
  screenshot,
} from './support/browser';
import { startServer, type RunningServer } from './support/server';
import { APP_START_TIMEOUT_MS } from '../support/timeouts';

let browser: Browser;
/** A server of this file's own: its leaderboard holds only this file's results. */
let server: RunningServer;
let owner: BackendClient;
let ownerAddress: string;

interface StoryText {
  language: 'en' | 'kr';
  name: string;
  genre: string;
  ending: string;
  log: { kind: 'paragraph' | 'choice'; text: string; outcome?: string }[];
  recap: Record<string, string>;
}

const ENGLISH: StoryText = {
  language: 'en',
  name: 'Mira Thornwood',
  genre: 'Fantasy',
  ending: 'Bittersweet Resolution',
  log: [
    {
      kind: 'paragraph',
      text:
        'The city lay under a green sea, and the bells of its drowned towers still rang when ' +
        'the tide turned. Mira had come for the maps the cartographers left behind, sealed in ' +
        'wax and lead.',
    },
    { kind: 'choice', text: 'Dive for the great bell', outcome: 'success' },
    {
      kind: 'paragraph',
      text: '<script>alert("boo")</script> was scratched into the bell, and nothing more happened.',
    },
    { kind: 'choice', text: 'Swim up before the air runs out', outcome: 'partial' },
    {
      kind: 'paragraph',
      text: 'She surfaced into rain. The last map was in her hand, and the city was gone.',
    },
    { kind: 'choice', text: 'Burn the other maps', outcome: 'failure' },
  ],
  recap: {
    wrapUpParagraph: 'She kept the last map, and let the rest of the city go back to the sea.',
    bigMoment: 'Ringing the drowned bell.',
    frequentActivity: 'Listening to the water.',
    characterTraitHighlight: 'Patience.',
    themeExploration: 'What we keep, and what keeps us.',
  },
};

const KOREAN: StoryText = {
  language: 'kr',
  name: '김서연',
  genre: '판타지',
  ending: '씁쓸한 결말',
  log: [
    { kind: 'paragraph', text: '바다 밑에 잠긴 도시에서는 밀물이 바뀔 때마다 종소리가 울렸다.' },
    { kind: 'choice', text: '가장 큰 종을 찾아 잠수한다', outcome: 'success' },
    { kind: 'paragraph', text: '서연은 마지막 지도를 손에 쥐고 빗속으로 떠올랐다.' },
    { kind: 'choice', text: '나머지 지도를 태운다', outcome: 'partial' },
  ],
  recap: {
    wrapUpParagraph: '서연은 마지막 지도를 지키고, 도시는 바다에 돌려보냈다.',
    bigMoment: '잠긴 종을 울린 순간.',
    frequentActivity: '물소리에 귀 기울이기.',
    characterTraitHighlight: '인내.',
    themeExploration: '우리가 지키는 것, 그리고 우리를 지키는 것.',
  },
};

/** Saves a finished story for the owner and publishes it, as the game's publish button does. */
async function publishStory(story: StoryText): Promise<string> {
  const id = randomUUID();
  const saved = await owner.rpc('save_story', {
    p_id: id,
    p_base_revision: 0,
    p_saved_at: new Date().toISOString(),
    p_language: story.language,
    p_head: {
      chosenCharacter: story.name,
      chosenGenre: story.genre,
      isFinal: true,
      endingType: story.ending,
      game: {
        chosenGenre: story.genre,
        chosenImage: 7,
        chosenCharacter: story.name,
        storyNote: 'PINNED NOTE, never public',
        turnCount: 12,
        isFinal: true,
        finalScore: 1234,
        recap: story.recap,
      },
    },
    p_lengths: { storyLog: story.log.length },
    p_parts: story.log.map((value, index) => ({
      list: 'storyLog',
      index,
      value: { ...value, outcome: value.outcome ?? null, freeText: false },
    })),
  });
  expect(saved.error).toBeNull();
  const published = await owner.rpc('publish_story', { p_id: id, p_published: true });
  expect(published.error).toBeNull();
  return id;
}

beforeAll(async () => {
  [browser, server] = await Promise.all([
    launchBrowser(),
    startServer({ SIGN_IN_RATE_LIMIT: '1000' }),
  ]);
  const target = e2eBackend(server.url);
  const wallet = Wallet.createRandom();
  ownerAddress = wallet.address.toLowerCase();
  owner = target.backend.forWallet({ address: ownerAddress, token: await signIn(target, wallet) });
}, APP_START_TIMEOUT_MS);
afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

/** A visitor's page: a fresh context, so no wallet, no key and no saved settings. */
async function visitorPage(viewport: typeof DESKTOP, phone = false): Promise<Page> {
  const context = await browser.newContext({
    viewport,
    ...(phone ? { isMobile: true, hasTouch: true } : {}),
  });
  return context.newPage();
}

test('a visitor reads a published story on a desktop and a phone, in its own language', async () => {
  const english = await publishStory(ENGLISH);
  const korean = await publishStory(KOREAN);

  for (const [id, story] of [
    [english, ENGLISH],
    [korean, KOREAN],
  ] as const) {
    for (const [device, viewport] of [
      ['desktop', DESKTOP],
      ['phone', PHONE],
    ] as const) {
      const page = await visitorPage(viewport, device === 'phone');
      const errors = collectPageErrors(page);
      await page.goto(`${server.url}/story/${id}`);
      const title = `${story.name} · ${story.genre}`;
      await page.getByRole('heading', { level: 1, name: title }).waitFor();
      // The server's tags, for link previews, are in the page the browser got.
      expect(await page.locator('meta[property="og:title"]').getAttribute('content')).toBe(title);
      expect(await page.title()).toBe(
        `${title} · ${story.language === 'kr' ? '테일위버' : 'Taleweaver'}`,
      );
      const article = page.locator('article.published-story');
      expect(await article.getAttribute('lang')).toBe(story.language === 'kr' ? 'ko' : 'en');
      for (const entry of story.log) {
        await article.getByText(entry.text, { exact: true }).waitFor();
      }
      await article.getByText(story.recap.wrapUpParagraph!).waitFor();
      await article.getByText(story.ending).first().waitFor();
      const play = article.getByRole('link', {
        name: story.language === 'kr' ? '나만의 이야기 시작하기' : 'Play your own story',
      });
      await play.waitFor();
      expect(await horizontalOverflow(page)).toBe(0);
      // The image loaded, from the site itself (CSP: img-src 'self').
      expect(
        await page
          .locator('.published-story__portrait')
          .evaluate((image: HTMLImageElement) => image.complete && image.naturalWidth > 0),
      ).toBe(true);
      await screenshot(page, `published-story-${story.language}-${device}`);
      expect(await seriousViolations(page)).toEqual([]);
      expect(errors).toEqual([]);
      if (story.language === 'en' && device === 'desktop') {
        // The story's text never ran as script, and nothing of the wallet but its short form.
        expect(
          await page.evaluate(() => document.querySelectorAll('script:not([src])').length),
        ).toBe(0);
        expect(await page.content()).not.toContain(ownerAddress);
        expect(await page.content()).not.toContain('PINNED NOTE');
        await play.click();
        await page.waitForURL(`${server.url}/`);
      }
      await page.context().close();
    }
  }
});

test('the leaderboard links a published story, and a story taken down says so', async () => {
  const id = await publishStory({ ...ENGLISH, name: 'Ada Quill' });
  const result = await owner.from('game_results').insert({
    ...plausibleResult({ character: 'Ada Quill' }),
    wallet_address: ownerAddress,
    story_id: id,
  });
  expect(result.error).toBeNull();

  const page = await visitorPage(PHONE, true);
  const errors = collectPageErrors(page);
  await page.goto(`${server.url}/leaderboard`);
  const link = page.locator('.leaderboard-story-link');
  await link.waitFor();
  expect(await horizontalOverflow(page)).toBe(0);
  await screenshot(page, 'leaderboard-story-link-en-phone');
  // The hidden hint is a box of its own (absolutely positioned), so names count a space before it.
  await page.getByRole('link', { name: /^Ada Quill ?, read the story$/ }).click();
  await page.waitForURL(`${server.url}/story/${id}`);
  await page.getByRole('heading', { level: 1, name: 'Ada Quill · Fantasy' }).waitFor();

  expect((await owner.rpc('publish_story', { p_id: id, p_published: false })).error).toBeNull();
  await page.reload();
  await page.getByRole('heading', { name: 'This story is not published (any more).' }).waitFor();
  await page.getByRole('link', { name: 'Play your own story' }).waitFor();
  expect(await horizontalOverflow(page)).toBe(0);
  await screenshot(page, 'published-story-missing-en-phone');
  expect(await seriousViolations(page)).toEqual([]);

  // The same in Korean, for a visitor who plays in Korean.
  await page.getByLabel('Language').selectOption('kr');
  await page.getByRole('heading', { name: /^이 이야기는 공개되어 있지 않습니다/ }).waitFor();
  await screenshot(page, 'published-story-missing-kr-phone');
  // The server answered the page with 404 (the SPA still showed it).
  expect(errors.filter((error) => !/404/.test(error))).toEqual([]);
  await page.context().close();
});
