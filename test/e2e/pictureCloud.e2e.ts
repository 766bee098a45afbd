/**
 * Pictures of the story in the wallet's cloud and on a published page (issue 41), in Chromium:
 * a picture a laptop keeps of a cloud-saved story goes up with its next save and is shown by a
 * phone that loads the story from the wallet's cloud; a published story's page shows its
 * pictures under their paragraphs with the scene's words as alt text, on a desktop in English
 * and a 390 px phone in Korean, with no serious axe-core violation, and its Open Graph image is
 * its opening picture, served by the server as image bytes. The pictures are real WebP files
 * the browser's own canvas encodes; the laptop's comes in with a story file it imports (the
 * app's own way in for a picture it did not draw: drawing needs an image model, which the fake
 * model server does not list).
 */
import { randomUUID } from 'node:crypto';
import { Wallet } from 'ethers';
import type { BrowserContext, Page } from 'playwright-core';
import { TestWallet } from '../fixtures/testWallet';
import { seriousViolations } from './support/axe';
import { baseUrl, e2eBackend } from './support/backend';
import {
  DESKTOP,
  PHONE,
  collectPageErrors,
  horizontalOverflow,
  screenshot,
} from './support/browser';
import { injectTestWallet } from './support/injectWallet';
import { fillKeyForm, submitKey } from './support/journey';
import { browser, model, withBrowserAndModel } from './support/session';
import { storyToJson } from '../../src/features/stories';
import { savedStory } from '../fixtures/savedStories';
import { signIn } from '../server/support/testServer';

const API_KEY = 'sk-picture-cloud-e2e-41';

withBrowserAndModel([API_KEY]);

/**
 * A real WebP picture the page's canvas encodes: a sea-green gradient with a bell, `label`
 * written on it. Returns its base64 and size.
 */
function drawWebp(page: Page, label: string, width = 768, height = 512) {
  return page.evaluate(
    async ({ label, width, height }) => {
      const canvas = document.createElement('canvas');
      canvas.width = width;
      canvas.height = height;
      const context = canvas.getContext('2d')!;
      const sea = context.createLinearGradient(0, 0, 0, height);
      sea.addColorStop(0, '#1d4e5f');
      sea.addColorStop(1, '#0b1f2a');
      context.fillStyle = sea;
      context.fillRect(0, 0, width, height);
      context.fillStyle = '#d8b45a';
      context.beginPath();
      context.arc(width / 2, height / 2, height / 5, Math.PI, 0);
      context.lineTo(width / 2 + height / 4, height / 2 + height / 6);
      context.lineTo(width / 2 - height / 4, height / 2 + height / 6);
      context.fill();
      context.font = `${Math.round(height / 12)}px sans-serif`;
      context.fillText(label, 24, height - 32);
      const blob = await new Promise<Blob>((resolve) =>
        canvas.toBlob((made) => resolve(made!), 'image/webp', 0.8),
      );
      const bytes = new Uint8Array(await blob.arrayBuffer());
      let binary = '';
      for (const byte of bytes) binary += String.fromCharCode(byte);
      return { base64: btoa(binary), size: bytes.length, type: blob.type };
    },
    { label, width, height },
  );
}

async function device(wallet: TestWallet, viewport: typeof DESKTOP): Promise<BrowserContext> {
  const context = await browser.newContext({ viewport });
  await injectTestWallet(context, wallet);
  return context;
}

/** Signs in, enters the key, and keeps stories with the wallet (or not): ends on load-or-create. */
async function signInWithCloudSaves(page: Page, { keep = true } = {}) {
  const url = baseUrl();
  await page.goto(url);
  await page.getByRole('button', { name: 'Connect wallet' }).click();
  await page.locator('.wallet-address__tick').waitFor();
  await fillKeyForm(page, { url, model, apiKey: API_KEY });
  await submitKey(page, url);
  const setting = page.getByLabel('Keep my stories with my wallet');
  if (keep && !(await setting.isChecked())) await setting.check();
}

/** The pictures the signed-in wallet's cloud keeps (turn and alt), as its own token reads them. */
function cloudPictures(page: Page) {
  return page.evaluate(async (server) => {
    const sessions = Object.keys(localStorage).filter((key) => key.startsWith('auth_token_'));
    const token = sessions[0] && localStorage.getItem(sessions[0]);
    const response = await fetch(`${server}/rest/v1/story_pictures?select=turn,alt,bytes`, {
      headers: { apikey: 'sb_publishable_taleweaver_local', authorization: `Bearer ${token}` },
    });
    return (await response.json()) as { turn: number; alt: string; bytes: number }[];
  }, baseUrl());
}

const OPENING = 'At dawn the keeper climbed the last stair alone, and found the lamp already lit.';

test('a picture kept on a laptop goes up with the story and shows on the phone that loads it', async () => {
  const wallet = new TestWallet(141);
  const laptopContext = await device(wallet, DESKTOP);
  const phoneContext = await device(wallet, PHONE);
  try {
    const laptop = await laptopContext.newPage();
    const phone = await phoneContext.newPage();
    const errors = [...collectPageErrors(laptop), ...collectPageErrors(phone)];

    // The laptop keeps an illustrated story with its opening picture: imported from a story
    // file (the app's own way in for a picture it did not draw), a real WebP in it.
    await signInWithCloudSaves(laptop);
    const webp = await drawWebp(laptop, 'opening');
    expect(webp.type).toBe('image/webp');
    const alt = `The opening scene: ${OPENING}`;
    const file = storyToJson(
      savedStory({
        previousParagraph: OPENING,
        game: {
          illustrated: true,
          previousParagraph: OPENING,
          storyLog: [{ kind: 'paragraph', text: OPENING }],
          options: [
            { text: 'Climb to the lamp', risk: 'high', alignment: 'neutral', traitAlignment: '' },
            { text: 'Call out', risk: 'low', alignment: 'moral', traitAlignment: '' },
          ],
        },
      }),
      [
        {
          moment: 'opening',
          turn: 0,
          mediaType: 'image/webp',
          width: 768,
          height: 512,
          bytes: webp.size,
          alt,
          model: 'fake-image-model',
          createdAt: new Date().toISOString(),
          data: webp.base64,
        },
      ],
    );
    await laptop.locator('.saved-list__file').setInputFiles({
      name: 'mira-vale.json',
      mimeType: 'application/json',
      buffer: Buffer.from(file),
    });
    await laptop.getByText('Story imported!').waitFor();

    // It goes up to the wallet's cloud, and its picture with it.
    let inCloud = await cloudPictures(laptop);
    for (let tries = 0; inCloud.length === 0 && tries < 100; tries += 1) {
      await laptop.waitForTimeout(200);
      inCloud = await cloudPictures(laptop);
    }
    expect(inCloud).toEqual([{ turn: 0, alt, bytes: webp.size }]);

    // The phone loads the story from the wallet's cloud; the picture comes down and shows.
    await signInWithCloudSaves(phone, { keep: false });
    const kept = phone.locator('.cloud-stories');
    await kept.getByText('Kept with your wallet, not in this browser').waitFor({ timeout: 20_000 });
    await kept.getByRole('button', { name: 'Load' }).first().click();
    await phone.getByText(OPENING).first().waitFor({ timeout: 20_000 });
    await phone.waitForFunction(
      (text) => {
        const image = [...document.querySelectorAll('img')].find((img) => img.alt === text);
        return image !== undefined && image.complete && image.naturalWidth === 768;
      },
      alt,
      { timeout: 20_000 },
    );
    const shown = phone.getByRole('img', { name: alt });
    expect(await shown.getAttribute('src')).toMatch(/^blob:/);
    expect(await horizontalOverflow(phone)).toBe(0);
    await screenshot(phone, 'picture-cloud-en-phone-from-laptop');
    expect(await seriousViolations(phone)).toEqual([]);
    expect(errors.filter((error) => !/Failed to load resource/.test(error))).toEqual([]);
  } finally {
    await laptopContext.close();
    await phoneContext.close();
  }
});

const STORIES = {
  en: {
    name: 'Mira Thornwood',
    genre: 'Fantasy',
    ending: 'Bittersweet Resolution',
    paragraphs: [
      'The city lay under a green sea, and the bells of its drowned towers still rang when the tide turned.',
      'Mira rang the great bell once, and the water above her turned to light.',
      'She surfaced into rain. The last map was in her hand, and the city was gone.',
    ],
    choices: ['Dive for the great bell', 'Swim up before the air runs out'],
    wrapUp: 'She kept the last map, and let the rest of the city go back to the sea.',
  },
  kr: {
    name: '김서연',
    genre: '판타지',
    ending: '씁쓸한 결말',
    paragraphs: [
      '바다 밑에 잠긴 도시에서는 밀물이 바뀔 때마다 종소리가 울렸다.',
      '서연이 큰 종을 한 번 울리자, 머리 위의 물이 빛으로 바뀌었다.',
      '서연은 마지막 지도를 손에 쥐고 빗속으로 떠올랐다.',
    ],
    choices: ['가장 큰 종을 찾아 잠수한다', '숨이 다하기 전에 떠오른다'],
    wrapUp: '서연은 마지막 지도를 지키고, 도시는 바다에 돌려보냈다.',
  },
} as const;

test('a published story’s page shows its pictures with their alt text, and its link shows the opening picture', async () => {
  const target = e2eBackend(baseUrl());
  const wallet = Wallet.createRandom();
  const owner = target.backend.forWallet({
    address: wallet.address.toLowerCase(),
    token: await signIn(target, wallet),
  });
  const painter = await (await browser.newContext()).newPage();

  for (const [language, viewport, device] of [
    ['en', DESKTOP, 'desktop'],
    ['kr', PHONE, 'phone'],
  ] as const) {
    const story = STORIES[language];
    const id = randomUUID();
    const log = [
      { kind: 'paragraph', text: story.paragraphs[0] },
      { kind: 'choice', text: story.choices[0], outcome: 'success', freeText: false },
      { kind: 'paragraph', text: story.paragraphs[1] },
      { kind: 'choice', text: story.choices[1], outcome: 'partial', freeText: false },
      { kind: 'paragraph', text: story.paragraphs[2] },
    ];
    const saved = await owner.rpc('save_story', {
      p_id: id,
      p_base_revision: 0,
      p_saved_at: new Date().toISOString(),
      p_language: language,
      p_head: {
        chosenCharacter: story.name,
        chosenGenre: story.genre,
        isFinal: true,
        endingType: story.ending,
        game: {
          chosenGenre: story.genre,
          chosenImage: 7,
          chosenCharacter: story.name,
          turnCount: 2,
          isFinal: true,
          finalScore: 812,
          recap: {
            wrapUpParagraph: story.wrapUp,
            bigMoment: story.choices[0],
            frequentActivity: story.choices[1],
            characterTraitHighlight: story.name,
            themeExploration: story.genre,
          },
        },
      },
      p_lengths: { storyLog: log.length },
      p_parts: log.map((value, index) => ({ list: 'storyLog', index, value })),
    });
    expect(saved.error).toBeNull();
    // The opening, the second paragraph's moment, and the ending, each its scene's words.
    const pictures = [
      { turn: 0, moment: 'opening', alt: story.paragraphs[0] },
      { turn: 1, moment: 'moment', alt: story.paragraphs[1] },
      { turn: -1, moment: 'ending', alt: story.paragraphs[2] },
    ];
    for (const picture of pictures) {
      const webp = await drawWebp(painter, `${language} ${picture.moment}`);
      const { error } = await owner.rpc('save_story_picture', {
        p_story_id: id,
        p_turn: picture.turn,
        p_moment: picture.moment,
        p_media_type: 'image/webp',
        p_data: webp.base64,
        p_width: 768,
        p_height: 512,
        p_alt: picture.alt,
        p_model: 'fake-image-model',
        p_created_at: new Date().toISOString(),
      });
      expect(error).toBeNull();
    }
    expect((await owner.rpc('publish_story', { p_id: id, p_published: true })).error).toBeNull();

    // A visitor with no wallet and no key.
    const context = await browser.newContext({
      viewport,
      ...(device === 'phone' ? { isMobile: true, hasTouch: true } : {}),
    });
    const page = await context.newPage();
    const errors = collectPageErrors(page);
    await page.goto(`${baseUrl()}/story/${id}`);
    await page.getByRole('heading', { level: 1, name: `${story.name} · ${story.genre}` }).waitFor();
    for (const picture of pictures) {
      await page.waitForFunction(
        (text) => {
          const image = [...document.querySelectorAll('img')].find((img) => img.alt === text);
          return image !== undefined && image.complete && image.naturalWidth === 768;
        },
        picture.alt,
        { timeout: 20_000 },
      );
    }
    // Each under its paragraph; the ending's in the ending.
    const log$ = page.locator('.published-story__log');
    expect(
      await log$.evaluate((element) =>
        [...element.children].map((child) =>
          child.tagName === 'FIGURE' ? `[${child.querySelector('img')?.alt}]` : 'text',
        ),
      ),
    ).toEqual([
      'text',
      `[${story.paragraphs[0]}]`,
      'text',
      'text',
      `[${story.paragraphs[1]}]`,
      'text',
      'text',
    ]);
    expect(await page.locator('.published-ending img').getAttribute('alt')).toBe(
      story.paragraphs[2],
    );
    expect(await page.locator('.published-picture img').first().getAttribute('src')).toMatch(
      /^blob:/,
    );

    // The link's image is the opening picture, which the server serves as its bytes.
    const image = await page.locator('meta[property="og:image"]').getAttribute('content');
    expect(image).toBe(`${baseUrl()}/story/${id}/opening-picture`);
    const served = await page.request.get(image!);
    expect(served.status()).toBe(200);
    expect(served.headers()['content-type']).toBe('image/webp');
    expect((await served.body()).subarray(8, 12).toString()).toBe('WEBP');

    expect(await horizontalOverflow(page)).toBe(0);
    await screenshot(page, `published-pictures-${language}-${device}`);
    expect(await seriousViolations(page)).toEqual([]);
    expect(errors).toEqual([]);
    await context.close();
  }
  await painter.context().close();
});
