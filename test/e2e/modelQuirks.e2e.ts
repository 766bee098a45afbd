/**
 * The game reads what real models send (SPEC.md section 5, "Model replies", "Option text",
 * "Model options are normalised"): prose around the JSON, code fences, unquoted keys (Hangul
 * ones too), trailing commas, raw newlines inside strings, parenthesised remarks in options,
 * options that all share one risk or one alignment, an empty reply asked again. In Chromium,
 * against the shared e2e server and a fake model server sending exactly these texts; the
 * assertions are on what the player sees.
 */
import type { Page } from 'playwright-core';
import { TestWallet } from '../fixtures/testWallet';
import {
  gameReply,
  userPrompt,
  type ChatRequestBody,
  type ScriptedReply,
} from '../fixtures/fakeModelServer';
import { baseUrl } from './support/backend';
import { DESKTOP, collectPageErrors, screenshot } from './support/browser';
import { injectTestWallet } from './support/injectWallet';
import { browser, model, withBrowserAndModel } from './support/session';

const API_KEY = 'sk-quirks';

withBrowserAndModel([API_KEY]);
afterEach(() => model.replyWith(gameReply));

type Lang = 'en' | 'kr';
type PromptKind = 'recap' | 'conclusion' | 'segment' | 'opening' | 'other';

/** What a prompt asks for, told apart in gameReply's order by the reply fields it names. */
function kindOf(body: ChatRequestBody): PromptKind {
  const prompt = userPrompt(body);
  if (prompt.includes('wrapUpParagraph')) return 'recap';
  if (prompt.includes('isFinal')) return 'conclusion';
  if (prompt.includes('storySegment')) return 'segment';
  if (prompt.includes('storyStart')) return 'opening';
  return 'other';
}

/**
 * Answers the opening and the first segments from the scripts given (raw model texts, or any
 * scripted reply), each used once, in order; everything else as gameReply does.
 */
function scriptModel(scripts: Partial<Record<PromptKind, ScriptedReply[]>>) {
  const left = Object.fromEntries(
    Object.entries(scripts).map(([kind, replies]) => [kind, [...replies]]),
  ) as Partial<Record<PromptKind, ScriptedReply[]>>;
  model.replyWith((body) => left[kindOf(body)]?.shift() ?? gameReply(body));
}

interface ShownOption {
  text: string;
  /** The words of its tags, without their icons: 'Low risk', 'Moral', 'Trait: curious'. */
  tags: string[];
}

/** The options as the player sees them, in order. */
function shownOptions(page: Page): Promise<ShownOption[]> {
  return page.locator('.options__list button').evaluateAll((buttons) =>
    buttons.map((button) => ({
      text: button.querySelector('.option__text')?.textContent ?? '',
      tags: Array.from(button.querySelectorAll('.option__tags .story-tag')).map((tag) => {
        const words = tag.cloneNode(true) as Element;
        words.querySelectorAll('[aria-hidden="true"]').forEach((icon) => icon.remove());
        return (words.textContent ?? '').trim();
      }),
    })),
  );
}

const paragraphs = (page: Page) => page.locator('.story-log .story-paragraph').allTextContents();
const choices = (page: Page) => page.locator('.story-log .story-choice__text').allTextContents();
const turnsLine = (page: Page) => page.locator('.play-header__line').nth(1);
const noOverlay = (page: Page) =>
  page.waitForFunction(() => !document.querySelector('.loading-overlay'), undefined, {
    timeout: 20_000,
  });

/** Connects the wallet, sets the fake provider, enters the key: ends on load-or-create. */
async function signIn(page: Page, lang: Lang) {
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
  await page.waitForURL(`${baseUrl()}/game`);
  await page.getByRole('button', { name: t('Start New Game', '새 게임 시작') }).waitFor();
}

/** Genre, portrait and a random name, then waits for the opening's options at turn 0. */
async function startGame(page: Page, lang: Lang) {
  const t = (en: string, kr: string) => (lang === 'en' ? en : kr);
  await page.getByRole('button', { name: t('Start New Game', '새 게임 시작') }).click();
  await page.locator('.genre-chip').first().click();
  await page.getByRole('button', { name: t('Submit Genre', '장르 제출') }).click();
  await page.getByRole('button', { name: t('Portrait 5', '초상화 5'), exact: true }).click();
  await page.getByRole('button', { name: t('Choose me', '이 캐릭터로 할래요') }).click();
  await page.getByRole('button', { name: t('Random', '무작위') }).click();
  await page.getByRole('button', { name: t('Submit', '제출') }).click();
  await page.locator('.options__list button').first().waitFor({ timeout: 20_000 });
  await noOverlay(page);
}

/** Picks option `index` and waits for the next turn's options. */
async function choose(page: Page, index: number, turn: number) {
  await page.locator('.options__list button').nth(index).click();
  await turnsLine(page)
    .filter({ hasText: new RegExp(`: ${turn}$`) })
    .waitFor();
  await page.locator('.options__list button').first().waitFor({ timeout: 20_000 });
  await noOverlay(page);
}

/** A screenshot from the top: a full-page shot of a scrolled page draws the sticky header
 * over the story. */
async function shot(page: Page, name: string) {
  await page.evaluate(() => window.scrollTo(0, 0));
  await screenshot(page, name);
}

const realErrors = (errors: string[]) =>
  errors.filter((error) => !/Failed to load resource/.test(error));

// ---- English: the texts exactly as a chatty model sends them ----

/** Prose before and after; unquoted keys; trailing commas; a raw newline in the story; a
 * remark in brackets; three options all 'high' (so shown low, medium, high). */
const OPENING_EN = `Sure! Here is the opening scene you asked for, as JSON:

{
  storyStart: "Bells ring over the drowned harbour of Saltmere.
A hooded stranger presses a sealed letter into your hand.",
  options: [
    {text: "Climb the harbour wall to see who follows (this is risky)", risk: "high", alignment: "moral", traitAlignment: "curious",},
    {text: "Follow the stranger (risk: high) into the alley", risk: "high", alignment: "neutral"},
    {text: "Hide among the fishmongers and read the letter", risk: "High", alignment: "immoral",},
  ],
}

I hope you enjoy this adventure! Let me know if you would like a darker tone.`;

/** In a code fence; remarks in brackets, a full-width pair too; every option 'immoral' (so
 * shown moral, immoral, neutral, moral) while the risks are kept as sent. */
const TURN_1_EN = `\`\`\`json
{
  "storySegment": "You haul yourself onto the wet stones. Below, the stranger glances back once and is gone.",
  "options": [
    {"text": "Drop down into the fish market (you might be seen)", "risk": "low", "alignment": "immoral"},
    {"text": "Wave to the lighthouse keeper", "risk": "high", "alignment": "Immoral"},
    {"text": "Wait on the wall for the tide（the safest choice）", "risk": "medium", "alignment": "immoral"},
    {"text": "Shout a warning to the crowd", "risk": "high", "alignment": "immoral"}
  ],
  "outcome": "success",
  "scenarioType": "standard"
}
\`\`\``;

/** One line of prose first; unquoted keys; a raw newline inside an option's text; trailing
 * commas; 'moderate' for medium. */
const TURN_2_EN = `Here you go: {storySegment: "The market smells of salt and tar.
Somebody is whistling your name.", options: [{text: "Turn towards
the whistling", risk: "moderate", alignment: "moral",}, {text: "Keep your head down", risk: "low", alignment: "neutral",}, {text: "Pocket a gutting knife", risk: "high", alignment: "immoral",},], outcome: "partial", scenarioType: "standard",}`;

test('the game reads what real models send: prose, unquoted keys, commas, remarks, shared tags, an empty reply', async () => {
  scriptModel({
    opening: [{ json: OPENING_EN }],
    segment: [
      { empty: true },
      // The retry arrives slowly, so the notice of the garbled reply can be seen meanwhile.
      { json: TURN_1_EN, chunkChars: 40, chunkDelayMs: 120 },
      { json: TURN_2_EN },
    ],
  });
  const context = await browser.newContext({ viewport: DESKTOP, reducedMotion: 'reduce' });
  await injectTestWallet(context, new TestWallet(1));
  const page = await context.newPage();
  const errors = collectPageErrors(page);
  await signIn(page, 'en');
  const before = model.requests.length;
  await startGame(page, 'en');

  // The opening: prose, braces and the newline gone; remarks stripped; all 'high' cycled.
  expect(await paragraphs(page)).toEqual([
    'Bells ring over the drowned harbour of Saltmere. A hooded stranger presses a sealed letter into your hand.',
  ]);
  expect(await shownOptions(page)).toEqual([
    {
      text: 'Climb the harbour wall to see who follows',
      tags: ['Low risk', 'Moral', 'Trait: curious'],
    },
    { text: 'Follow the stranger into the alley', tags: ['Medium risk', 'Neutral'] },
    { text: 'Hide among the fishmongers and read the letter', tags: ['High risk', 'Immoral'] },
  ]);
  await shot(page, 'quirks-en-1-opening');

  // Turn 1: the first reply is empty; the player is told, and the game asks again.
  await page.locator('.options__list button').first().click();
  await page
    .getByText('The story came back garbled. Asking again (attempt 1)…')
    .waitFor({ timeout: 10_000 });
  await shot(page, 'quirks-en-2-empty-reply-retried');
  await turnsLine(page).filter({ hasText: 'Turns: 1' }).waitFor();
  await page.locator('.options__list button').first().waitFor({ timeout: 20_000 });
  await noOverlay(page);
  expect(await choices(page)).toEqual(['Climb the harbour wall to see who follows']);
  expect((await paragraphs(page)).at(-1)).toBe(
    'You haul yourself onto the wet stones. Below, the stranger glances back once and is gone.',
  );
  expect(await shownOptions(page)).toEqual([
    { text: 'Drop down into the fish market', tags: ['Low risk', 'Moral'] },
    { text: 'Wave to the lighthouse keeper', tags: ['High risk', 'Immoral'] },
    { text: 'Wait on the wall for the tide', tags: ['Medium risk', 'Neutral'] },
    { text: 'Shout a warning to the crowd', tags: ['High risk', 'Moral'] },
  ]);
  expect(await page.locator('.turn-error').count()).toBe(0);
  await shot(page, 'quirks-en-3-turn-1');

  // Turn 2: prose before the object, a newline in an option's text, 'moderate'.
  await choose(page, 2, 2);
  expect(await choices(page)).toEqual([
    'Climb the harbour wall to see who follows',
    'Wait on the wall for the tide',
  ]);
  expect((await paragraphs(page)).at(-1)).toBe(
    'The market smells of salt and tar. Somebody is whistling your name.',
  );
  expect(await shownOptions(page)).toEqual([
    { text: 'Turn towards the whistling', tags: ['Medium risk', 'Moral'] },
    { text: 'Keep your head down', tags: ['Low risk', 'Neutral'] },
    { text: 'Pocket a gutting knife', tags: ['High risk', 'Immoral'] },
  ]);
  await shot(page, 'quirks-en-4-turn-2');

  // What the model was asked: the segment for turn 1 twice (the empty reply, then again), and
  // the options as shown, without the remarks the model put in them.
  const asked = model.requests.slice(before).map((request) => request.body);
  const segments = asked.filter((body) => kindOf(body) === 'segment').map(userPrompt);
  expect(segments).toHaveLength(3);
  expect(segments[0]).toBe(segments[1]);
  expect(segments[0]).toContain('Climb the harbour wall to see who follows');
  expect(segments[0]).not.toContain('this is risky');
  expect(segments[2]).toContain('Wait on the wall for the tide');
  expect(segments[2]).not.toContain('the safest choice');
  expect(realErrors(errors)).toEqual([]);
  await context.close();
});

// ---- Korean: Hangul keys, Korean risk and alignment words ----

/** Korean prose around; unquoted keys, the option fields' Hangul ones (텍스트, 선택지, 내용,
 * 위험도, 위험, 도덕성, 특성); Korean level words, all different (so kept as sent). */
const OPENING_KR = `물론입니다! 요청하신 시작 장면입니다:
{storyStart: "종소리가 소금 항구 위로 울려 퍼진다.
두건 쓴 낯선 이가 봉인된 편지를 당신의 손에 쥐여 준다.", options: [{텍스트: "항구 성벽을 올라 누가 따라오는지 본다（위험한 선택）", 위험도: "낮음", 도덕성: "비도덕적", 특성: "호기심 많은",}, {선택지: "낯선 이를 따라 골목으로 들어간다 (조심해야 함)", 위험도: "높음", 도덕성: "도덕적"}, {내용: "생선 장수들 사이에 숨어 편지를 읽는다", 위험: "중간", 도덕성: "중립",},],}
즐거운 모험 되세요!`;

/** Every option '높음' and '선한' (so cycled to low, medium, high; moral, immoral, neutral). */
const TURN_1_KR = `다음 장면입니다.
{storySegment: "당신은 젖은 돌벽 위로 몸을 끌어올린다. 아래에서 낯선 이가 한 번 뒤돌아보고는 사라진다.", options: [{텍스트: "생선 시장으로 뛰어내린다 (들킬 수도 있음)", 위험도: "높음", 도덕성: "선한"}, {텍스트: "등대지기에게 손을 흔든다", 위험도: "위험도높음", 도덕성: "선한"}, {텍스트: "군중에게 경고를 외친다", 위험도: "높음", 도덕성: "선한",},], outcome: "success", scenarioType: "standard",}
이상입니다.`;

test('in Korean: Hangul keys unquoted, Korean risk and alignment words, Korean remarks stripped', async () => {
  scriptModel({ opening: [{ json: OPENING_KR }], segment: [{ json: TURN_1_KR }] });
  const context = await browser.newContext({ viewport: DESKTOP, reducedMotion: 'reduce' });
  await injectTestWallet(context, new TestWallet(1));
  const page = await context.newPage();
  const errors = collectPageErrors(page);
  await signIn(page, 'kr');
  const before = model.requests.length;
  await startGame(page, 'kr');

  expect(await paragraphs(page)).toEqual([
    '종소리가 소금 항구 위로 울려 퍼진다. 두건 쓴 낯선 이가 봉인된 편지를 당신의 손에 쥐여 준다.',
  ]);
  expect(await shownOptions(page)).toEqual([
    {
      text: '항구 성벽을 올라 누가 따라오는지 본다',
      tags: ['낮은 위험', '비도덕적', '특성: 호기심 많은'],
    },
    { text: '낯선 이를 따라 골목으로 들어간다', tags: ['높은 위험', '도덕적'] },
    { text: '생선 장수들 사이에 숨어 편지를 읽는다', tags: ['중간 위험', '중립'] },
  ]);
  await shot(page, 'quirks-kr-1-opening');

  await choose(page, 1, 1);
  expect(await choices(page)).toEqual(['낯선 이를 따라 골목으로 들어간다']);
  expect((await paragraphs(page)).at(-1)).toBe(
    '당신은 젖은 돌벽 위로 몸을 끌어올린다. 아래에서 낯선 이가 한 번 뒤돌아보고는 사라진다.',
  );
  expect(await shownOptions(page)).toEqual([
    { text: '생선 시장으로 뛰어내린다', tags: ['낮은 위험', '도덕적'] },
    { text: '등대지기에게 손을 흔든다', tags: ['중간 위험', '비도덕적'] },
    { text: '군중에게 경고를 외친다', tags: ['높은 위험', '중립'] },
  ]);
  await shot(page, 'quirks-kr-2-turn-1');

  // The prompts were Korean, and the choice went back to the model without its remark.
  const asked = model.requests.slice(before).map((request) => request.body);
  const opening = asked.find((body) => kindOf(body) === 'opening');
  expect(opening && userPrompt(opening)).toMatch(/[가-힣]/);
  const segment = asked.find((body) => kindOf(body) === 'segment');
  expect(segment && userPrompt(segment)).toContain('낯선 이를 따라 골목으로 들어간다');
  expect(segment && userPrompt(segment)).not.toContain('조심해야 함');
  expect(realErrors(errors)).toEqual([]);
  await context.close();
});
