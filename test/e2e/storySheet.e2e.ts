/**
 * Issue 40, a story that remembers, played in Chromium past turn 30 against the fake model
 * server: a person and an item the model put on the story sheet in turn 3 are told in the
 * prompts of turns 25 and 30, when turn 3's summary no longer is; the person, dead since turn 6,
 * is told as dead; the sheet is shown, corrected and kept through a reload. English on a
 * desktop, Korean on a 390 px phone.
 */
import type { Page } from 'playwright-core';
import { TestWallet } from '../fixtures/testWallet';
import {
  gameReply,
  userPrompt,
  type ChatRequestBody,
  type CompletionReply,
} from '../fixtures/fakeModelServer';
import { baseUrl } from './support/backend';
import { DESKTOP, PHONE, collectPageErrors, screenshot } from './support/browser';
import { injectTestWallet } from './support/injectWallet';
import { storedStories } from './support/storiesDb';
import { browser, model, withBrowserAndModel } from './support/session';

const API_KEY = 'sk-sheet-e2e-51a9';
withBrowserAndModel([API_KEY]);

type Lang = 'en' | 'kr';

const NAMES = {
  en: { person: 'Mara', item: 'Brass key', dead: 'Mara (dead)', place: (n: number) => `Dock ${n}` },
  kr: {
    person: '마라',
    item: '놋쇠 열쇠',
    dead: '마라(사망)',
    place: (n: number) => `${n}번 부두`,
  },
} as const;

/** The turn a story prompt is for (0 for the opening), as the prompt says it. */
function turnOf(prompt: string): number {
  const match = /Turn (\d+)\.|(\d+)번째 턴\./.exec(prompt);
  return match ? Number(match[1] ?? match[2]) : 0;
}

/**
 * A summary as long as the prompts ask for (about 40 words), and no other turn's like it: its
 * first sentence, the gist older turns are told by, is present in a prompt only while the
 * memory keeps the turn at all.
 */
const summaryOf = (turn: number) =>
  `Memory marker ${turn}: the tide turned once more. The hero weighed the harbour's secrets ` +
  'against the watch, traded a favour for a lantern, and learned that the bells under the water ' +
  'ring only for those who have lost something they cannot name.';
const gistOf = (turn: number) => `Memory marker ${turn}: the tide turned once more.`;

/** The options of the conclusion check's reply, which the default reply ends the story with none of. */
const THREE_OPTIONS = [
  { text: 'Walk on along the quay.', risk: 'low', alignment: 'neutral', traitAlignment: '' },
  { text: 'Dive for the bell.', risk: 'high', alignment: 'moral', traitAlignment: '' },
  { text: 'Bribe the watchman.', risk: 'medium', alignment: 'immoral', traitAlignment: '' },
];

/**
 * The model of a long story: it never ends it, and it keeps the sheet: in turn 3 it adds a
 * person and an item, in turn 6 the person dies, and every fifth turn a dock is found.
 */
function longStory(lang: Lang) {
  const names = NAMES[lang];
  return (body: ChatRequestBody): CompletionReply => {
    const reply = gameReply(body);
    const json = reply.json as Record<string, unknown>;
    const prompt = userPrompt(body);
    if (typeof json.storySegment !== 'string' && typeof json.storyStart !== 'string') return reply;
    const turn = turnOf(prompt);
    const changes: unknown[] = [];
    if (turn === 3) {
      changes.push(
        { op: 'add', kind: 'person', name: names.person, note: 'the ferry keeper, an ally' },
        { op: 'add', kind: 'item', name: names.item, note: 'opens the drowned vault' },
      );
    }
    if (turn === 6) {
      changes.push({ op: 'update', kind: 'person', name: names.person, note: 'dead: drowned' });
    }
    if (turn > 0 && turn % 5 === 0) {
      changes.push({ op: 'add', kind: 'place', name: names.place(turn), note: 'quiet at night' });
    }
    if (typeof json.storySegment === 'string') {
      json.storySegment = `Scene ${turn}. ${json.storySegment}`;
      json.storySummary = summaryOf(turn);
      // From turn 7 the conclusion check: this story goes on.
      if ('isFinal' in json) Object.assign(json, { isFinal: false, options: THREE_OPTIONS });
    }
    if (turn > 0) json.sheetChanges = changes;
    return reply;
  };
}

const options = (page: Page) => page.locator('.options__list button');

async function play(page: Page, lang: Lang, turns: number) {
  const t = (en: string, kr: string) => (lang === 'en' ? en : kr);
  for (let turn = 1; turn <= turns; turn += 1) {
    await options(page).first().click();
    await page
      .locator('.play-header__line')
      .nth(1)
      .getByText(t(`Turns: ${turn}`, `턴: ${turn}`))
      .waitFor({ timeout: 30_000 });
    await options(page).first().waitFor({ timeout: 30_000 });
  }
}

const storyPrompt = (turn: number) =>
  model.requests
    .map((request) => userPrompt(request.body as ChatRequestBody))
    .filter((prompt) => prompt.includes('"storySegment"') && turnOf(prompt) === turn)
    .at(-1);

async function begin(page: Page, lang: Lang) {
  const t = (en: string, kr: string) => (lang === 'en' ? en : kr);
  await page.goto(baseUrl());
  if (lang === 'kr') await page.getByLabel('Language').selectOption('kr');
  await page.getByRole('button', { name: t('Connect Wallet', '지갑 연결') }).click();
  await page.locator('.wallet-address__tick').waitFor();
  await page.getByLabel(t('Provider', '제공자')).selectOption('custom');
  await page.getByLabel(t('Base URL', '기본 URL')).fill(model.url);
  await page.getByLabel(t('Model', '모델'), { exact: true }).fill('fake-model');
  await page.getByLabel(t('API key', 'API 키')).fill(API_KEY);
  await page.getByRole('button', { name: t('Submit', '제출') }).click();
  await page.getByRole('button', { name: t('Start New Game', '새 게임 시작') }).click();
  await page.locator('.genre-chip').first().click();
  await page.getByRole('button', { name: t('Submit Genre', '장르 제출') }).click();
  await page.getByRole('button', { name: t('Portrait 7', '초상화 7'), exact: true }).click();
  await page.getByRole('button', { name: t('Choose me', '이 캐릭터로 할래요') }).click();
  await page.getByLabel(t('First Name', '이름'), { exact: true }).fill(t('Ines', '이네스'));
  await page.getByLabel(t('Last Name', '성'), { exact: true }).fill(t('Varga', '바르가'));
  await page.getByRole('button', { name: t('Submit', '제출'), exact: true }).click();
  await options(page).first().waitFor({ timeout: 30_000 });
}

describe.each([
  { lang: 'en' as const, viewport: DESKTOP, device: 'desktop' },
  { lang: 'kr' as const, viewport: PHONE, device: 'phone' },
])('a story past turn 30 ($lang, $device)', ({ lang, viewport, device }) => {
  beforeEach(() => model.replyWith(longStory(lang)));
  afterEach(() => model.replyWith(gameReply));

  test('remembers turn 3’s person and item, told as the sheet says, and keeps it', async () => {
    const names = NAMES[lang];
    const t = <T>(en: T, kr: T): T => (lang === 'en' ? en : kr);
    const context = await browser.newContext({ viewport });
    await injectTestWallet(context, new TestWallet(4));
    const page = await context.newPage();
    const errors = collectPageErrors(page);
    await begin(page, lang);
    await play(page, lang, 30);

    for (const turn of [25, 30]) {
      const prompt = storyPrompt(turn);
      expect(prompt).toBeDefined();
      expect(prompt).toContain(names.dead);
      expect(prompt).toContain(`${names.item}:`);
      // Turn 3's summary has left the memory; the sheet has not.
      expect(prompt).not.toContain(gistOf(3));
      expect(prompt).toContain(summaryOf(turn - 1));
    }
    // Before turn 3's reply nothing of the sheet was told, and then it was.
    expect(storyPrompt(3)).not.toContain(names.item);
    expect(storyPrompt(4)).toContain(names.item);

    // What the turns cost: this server (the lenient fake) reports no usage, and Story so far
    // says so rather than guess (the hosted providers' counts: providers.e2e.ts).
    await page.getByText(t('Story so far', '지금까지의 이야기')).click();
    const rows = page.locator('.turn-cost__row');
    const notReported = t(
      'tokens not reported by the provider',
      '제공자가 토큰 사용량을 알려 주지 않았습니다',
    );
    await rows
      .filter({ hasText: t('Turn 30', '30번째 턴') })
      .getByText(notReported)
      .waitFor();
    const total = rows.filter({ hasText: t('This story', '이 이야기 전체') });
    expect(await total.textContent()).toBe(t('This story', '이 이야기 전체') + notReported);
    await page.locator('.turn-cost').scrollIntoViewIfNeeded();
    await screenshot(page, `cost-${lang}-${device}`);
    await page.getByText(t('Story so far', '지금까지의 이야기')).click();

    // The sheet, as the player sees it.
    await page.getByText(t('Story sheet', '이야기 시트')).click();
    const people = page.locator('.story-sheet__group').filter({
      has: page.getByRole('heading', { name: t('People', '인물') }),
    });
    await people.getByText(names.person, { exact: true }).waitFor();
    await people.getByText(t('dead', '사망'), { exact: true }).waitFor();
    expect(await page.locator('.story-sheet__group').count()).toBe(4);
    await page
      .getByRole('button', { name: t(`Correct ${names.item}`, `${names.item} 바로잡기`) })
      .click();
    const correction = t(
      'opens the drowned vault and the bell tower',
      '가라앉은 금고와 종탑을 연다',
    );
    await page
      .getByRole('textbox', {
        name: t(
          `What the storyteller should know of ${names.item}`,
          `${names.item}에 대해 이야기꾼이 알아야 할 것`,
        ),
      })
      .fill(correction);
    await page.keyboard.press('Control+Enter');
    await page.getByText(correction).waitFor();
    await page.locator('.story-sheet').scrollIntoViewIfNeeded();
    await screenshot(page, `sheet-${lang}-${device}`);

    // Kept with the story: after a reload the sheet, the player's correction in it, comes back.
    await waitUntilStored(page, (sheet) => JSON.stringify(sheet).includes(correction));
    await page.reload();
    await page.locator('.wallet-address__tick').waitFor();
    await page.getByRole('button', { name: t('Submit', '제출') }).click();
    await page
      .getByRole('button', {
        name: t("Load Ines Varga's story", '바르가이네스의 스토리 불러오기'),
      })
      .click();
    await page.locator('.play-header').waitFor();
    await page.getByText(t('Story sheet', '이야기 시트')).click();
    await page.getByText(correction).waitFor();
    await options(page).first().click();
    await page
      .locator('.play-header__line')
      .nth(1)
      .getByText(t('Turns: 31', '턴: 31'))
      .waitFor({ timeout: 30_000 });
    expect(storyPrompt(31)).toContain(`${names.item}: ${correction}`);
    expect(errors).toEqual([]);
    await context.close();
  });
});

/** Until MyStoriesDB holds a story whose sheet `holds` says so (the auto-save is 100 ms late). */
async function waitUntilStored(page: Page, holds: (sheet: unknown) => boolean) {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const stories = await storedStories<{ game: { storySheet?: unknown } }>(page);
    if (stories.some((story) => holds(story.game.storySheet))) return;
    if (Date.now() > deadline) throw new Error('the corrected sheet was not saved');
    await page.waitForTimeout(100);
  }
}
