/**
 * The published story's page as the Node server sends it (server/storyPage.ts): a published
 * story's /story/<id> carries its Open Graph tags, every value from the story escaped; an id
 * that is no published story's gets the plain page with 404, for the SPA to say so. Stories are
 * saved and published through the real RPCs by a really signed-in wallet.
 */
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Wallet } from 'ethers';
import type { BackendClient } from '../../src/api/backend';
import { PageTemplate, escapeHtml, openingLines, withStoryTags } from '../../server/storyPage';
import { DATABASE_START_TIMEOUT_MS, testBackends } from './support/databases';
import { signIn, startTestServer, type TestServer } from './support/testServer';
import { STOP_TIMEOUT_MS } from '../support/timeouts';

/** index.html as the build writes it (minified: no spaces between tags). */
const INDEX_HTML =
  '<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" ' +
  'content="width=device-width,initial-scale=1"><meta name="description" content="Taleweaver: ' +
  'an AI text adventure written turn by turn for you."><title>Taleweaver</title>' +
  '<script defer="defer" src="/assets/main.0123abcd.js"></script></head><body>' +
  '<div id="root"></div></body></html>';

const OPENING =
  'The city lay under a green sea, and the bells of its drowned towers still rang when the ' +
  'tide turned. Mira had come for the maps the cartographers left behind, sealed in wax and ' +
  'lead, and for one bell in particular.';

interface StoryText {
  name?: string;
  genre?: string;
  language?: 'en' | 'kr';
  opening?: string;
}

/** A finished story's record without its lists, as the browser keeps it (cloudStories.test.ts). */
const head = ({ name = 'Mira', genre = 'Fantasy' }: StoryText) => ({
  chosenCharacter: name,
  chosenGenre: genre,
  isFinal: true,
  endingType: 'Bittersweet Resolution',
  game: {
    chosenGenre: genre,
    chosenImage: 7,
    chosenCharacter: name,
    turnCount: 9,
    isFinal: true,
    finalScore: 412,
  },
});

async function saveStory(client: BackendClient, id: string, story: StoryText = {}) {
  const log = [
    { kind: 'choice', text: 'Begin', outcome: null, freeText: false },
    { kind: 'paragraph', text: story.opening ?? OPENING },
    { kind: 'choice', text: 'Dive for the bell', outcome: 'success', freeText: false },
    { kind: 'paragraph', text: 'A second paragraph, never in the preview.' },
  ];
  const { error } = await client.rpc('save_story', {
    p_id: id,
    p_base_revision: 0,
    p_saved_at: new Date().toISOString(),
    p_language: story.language ?? 'en',
    p_head: head(story),
    p_lengths: { storyLog: log.length },
    p_parts: log.map((value, index) => ({ list: 'storyLog', index, value })),
  });
  expect(error).toBeNull();
}

async function publish(client: BackendClient, id: string, published = true) {
  const { error } = await client.rpc('publish_story', { p_id: id, p_published: published });
  expect(error).toBeNull();
}

/** The content of each meta tag the page carries, by its name or property, decoded. */
function metaTags(html: string): Record<string, string> {
  const tags: Record<string, string> = {};
  for (const [, key, value] of html.matchAll(
    /<meta (?:name|property)="([^"]+)" content="([^"]*)">/g,
  )) {
    tags[key!] = decodeEntities(value!);
  }
  return tags;
}

const decodeEntities = (text: string) =>
  text.replace(/&#(\d+);/g, (_match, code: string) => String.fromCharCode(Number(code)));

describe.each(testBackends())('the story page on $name', (database) => {
  let server: TestServer;
  let distDir: string;
  let owner: BackendClient;

  beforeAll(async () => {
    distDir = fs.mkdtempSync(path.join(os.tmpdir(), 'taleweaver-story-dist-'));
    fs.writeFileSync(path.join(distDir, 'index.html'), INDEX_HTML);
    server = await startTestServer(database, {
      SERVE_APP: 'true',
      DIST_DIR: distDir,
      SIGN_IN_RATE_LIMIT: '1000',
      STORY_WRITE_RATE_LIMIT: '1000',
    });
    const wallet = Wallet.createRandom();
    owner = server.backend.forWallet({
      address: wallet.address.toLowerCase(),
      token: await signIn(server, wallet),
    });
  }, DATABASE_START_TIMEOUT_MS);
  afterAll(async () => {
    await server.close();
    fs.rmSync(distDir, { recursive: true, force: true });
  }, STOP_TIMEOUT_MS);

  /** The page as a browser asks for it, over the network. */
  async function page(url: string) {
    const response = await fetch(`${server.url}${url}`, {
      headers: { accept: 'text/html,application/xhtml+xml' },
    });
    return {
      statusCode: response.status,
      headers: Object.fromEntries(response.headers),
      body: await response.text(),
    };
  }

  test('a published story carries its title, opening lines and portrait', async () => {
    const id = randomUUID();
    await saveStory(owner, id);
    await publish(owner, id);

    const response = await page(`/story/${id}`);
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(response.headers['cache-control']).toBe('no-cache');
    // The security headers as on every page; nothing inline was added.
    expect(response.headers['content-security-policy']).toContain("script-src 'self'");
    const origin = server.url;
    const description = openingLines(OPENING);
    expect(metaTags(response.body)).toEqual({
      viewport: 'width=device-width,initial-scale=1',
      description,
      'og:type': 'article',
      'og:site_name': 'Taleweaver',
      'og:title': 'Mira · Fantasy',
      'og:description': description,
      'og:url': `${origin}/story/${id}`,
      'og:image': `${origin}/characters/7.png`,
      'og:image:width': '256',
      'og:image:height': '256',
      'og:locale': 'en_US',
      'twitter:card': 'summary',
    });
    expect(description).toBe(
      'The city lay under a green sea, and the bells of its drowned towers still rang when the ' +
        'tide turned. Mira had come for the maps the cartographers left behind, sealed in wax ' +
        'and lead, and for one bell…',
    );
    expect(response.body).toContain('<title>Mira · Fantasy · Taleweaver</title>');
    expect(response.body).toContain('<html lang="en">');
    expect(response.body).toContain(`<link rel="canonical" href="${origin}/story/${id}">`);
    // The app itself as the build made it, the site's own description replaced.
    expect(response.body).toContain('<script defer="defer" src="/assets/main.0123abcd.js">');
    expect(response.body).not.toContain('an AI text adventure');
  });

  test('a story with an opening picture shows it in link previews, served here as its bytes', async () => {
    const id = randomUUID();
    await saveStory(owner, id);
    const webp = Buffer.concat([Buffer.from('RIFF\0\0\0\0WEBPVP8 '), Buffer.alloc(3000, 5)]);
    const picture = {
      p_story_id: id,
      p_media_type: 'image/webp',
      p_data: webp.toString('base64'),
      p_width: 1024,
      p_height: 683,
      p_model: 'test-image-model',
      p_created_at: new Date().toISOString(),
    };
    for (const [turn, moment] of [
      [1, 'moment'],
      [0, 'opening'],
    ] as const) {
      const { error } = await owner.rpc('save_story_picture', {
        ...picture,
        p_turn: turn,
        p_moment: moment,
        p_alt: `The scene of turn ${turn}.`,
      });
      expect(error).toBeNull();
    }
    const pictureUrl = `${server.url}/story/${id}/opening-picture`;
    // Not published yet: neither the page nor the picture is anyone's.
    expect((await fetch(pictureUrl)).status).toBe(404);

    await publish(owner, id);
    const tags = metaTags((await page(`/story/${id}`)).body);
    expect(tags).toMatchObject({
      'og:image': pictureUrl,
      'og:image:width': '1024',
      'og:image:height': '683',
      'twitter:card': 'summary_large_image',
    });
    const served = await fetch(pictureUrl);
    expect(served.status).toBe(200);
    expect(served.headers.get('content-type')).toBe('image/webp');
    expect(served.headers.get('cache-control')).toBe('public, max-age=300');
    expect(Buffer.from(await served.arrayBuffer())).toEqual(webp);

    // Taken down: the picture goes with the page.
    await publish(owner, id, false);
    expect((await fetch(pictureUrl)).status).toBe(404);
  });

  test('a published story without an opening picture has no picture served', async () => {
    const id = randomUUID();
    await saveStory(owner, id);
    await publish(owner, id);
    expect(metaTags((await page(`/story/${id}`)).body)['og:image']).toBe(
      `${server.url}/characters/7.png`,
    );
    expect((await fetch(`${server.url}/story/${id}/opening-picture`)).status).toBe(404);
    expect((await fetch(`${server.url}/story/not-a-story/opening-picture`)).status).toBe(404);
  });

  test('story text that looks like HTML stays text in every tag', async () => {
    const id = randomUUID();
    const name = 'Mira"><script>alert(1)</script>';
    const opening = `"><script>alert(2)</script> It's <b>bold</b> & $& $' $1 costs.`;
    await saveStory(owner, id, { name, genre: "Noir'><img src=x onerror=alert(3)>", opening });
    await publish(owner, id);

    const { statusCode, body } = await page(`/story/${id}`);
    expect(statusCode).toBe(200);
    // The one script is the app's own; no tag came from the story.
    expect(body.match(/<script/g)).toHaveLength(1);
    expect(body).not.toMatch(/<img|<b>|alert\(1\)<\/script>/);
    const tags = metaTags(body);
    expect(tags['og:title']).toBe(`${name} · Noir'><img src=x onerror=alert(3)>`);
    expect(tags['og:description']).toBe(opening);
    expect(body).toContain(`<title>${escapeHtml(`${tags['og:title']} · Taleweaver`)}</title>`);
  });

  test('a Korean story says so to the page and to link previews', async () => {
    const id = randomUUID();
    await saveStory(owner, id, {
      name: '김서연',
      genre: '판타지',
      language: 'kr',
      opening: '바다 밑의 도시.',
    });
    await publish(owner, id);
    const { body } = await page(`/story/${id}`);
    expect(body).toContain('<html lang="ko">');
    expect(metaTags(body)).toMatchObject({
      'og:title': '김서연 · 판타지',
      'og:description': '바다 밑의 도시.',
      'og:locale': 'ko_KR',
    });
  });

  test('an unpublished, unknown or malformed id gets the plain page with 404', async () => {
    const saved = randomUUID();
    await saveStory(owner, saved);
    const withdrawn = randomUUID();
    await saveStory(owner, withdrawn);
    await publish(owner, withdrawn);
    await publish(owner, withdrawn, false);

    for (const url of [
      `/story/${saved}`,
      `/story/${withdrawn}`,
      `/story/${randomUUID()}`,
      '/story/not-a-story',
      "/story/'%20or%201=1--",
    ]) {
      const response = await page(url);
      expect([url, response.statusCode, response.headers['cache-control']]).toEqual([
        url,
        404,
        'no-cache',
      ]);
      expect(response.headers['content-type']).toMatch(/^text\/html/);
      expect(response.body).toBe(INDEX_HTML);
    }
  });

  test('only a browser asking for a page gets one', async () => {
    const id = randomUUID();
    const response = await server.app.inject({ url: `/story/${id}` });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({ message: `No route for GET /story/${id}` });
  });
});

describe('the page template', () => {
  test('is read once, and again when a new build replaces it', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'taleweaver-template-'));
    const file = path.join(dir, 'index.html');
    fs.writeFileSync(file, '<title>one</title>');
    const template = PageTemplate.of(dir);
    const read = jest.spyOn(fs.promises, 'readFile');
    expect(await template.html()).toBe('<title>one</title>');
    expect(await template.html()).toBe('<title>one</title>');
    expect(read).toHaveBeenCalledTimes(1);
    fs.writeFileSync(file, '<title>two</title>');
    fs.utimesSync(file, new Date(), new Date(Date.now() + 5_000));
    expect(await template.html()).toBe('<title>two</title>');
    read.mockRestore();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  test('og:url and og:image name the site given, and a page without a head still gets its tags', () => {
    const html = withStoryTags(
      '<!doctype html><title>Taleweaver</title>',
      {
        id: 'abc',
        title: 'Mira · Fantasy',
        description: 'Once.',
        language: 'en',
        portrait: 3,
        openingPicture: null,
      },
      'https://taleweaver.example',
    );
    expect(metaTags(html)).toMatchObject({
      'og:url': 'https://taleweaver.example/story/abc',
      'og:image': 'https://taleweaver.example/characters/3.png',
    });
    expect(html).toMatch(/^<!doctype html><title>Mira · Fantasy · Taleweaver<\/title><meta /);
  });

  test('the opening lines are cut at a word, whole characters kept', () => {
    expect(openingLines('  Short\n\nand   sweet. ')).toBe('Short and sweet.');
    expect(openingLines('word '.repeat(60))).toMatch(/^(word ){39}word…$/);
    expect(openingLines('가'.repeat(300))).toBe(`${'가'.repeat(200)}…`);
    expect(Array.from(openingLines('😀'.repeat(300)))).toHaveLength(201);
  });
});
