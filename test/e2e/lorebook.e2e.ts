/**
 * Issue 40, part 2 in Chromium: the lorebook a player writes. On an English desktop, entries
 * written at the name before the opening and beside "Story so far" while playing, changed,
 * removed and put back, kept for the genre, all of it kept over a reload, and a new story of
 * the genre starting with a copy; on a Korean phone, the same panel used from the keyboard,
 * readable at 390 px, kept over a reload. Against the shared e2e server and a fake model server.
 */
import path from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { TestWallet } from '../fixtures/testWallet';
import { baseUrl } from './support/backend';
import {
  DESKTOP,
  PHONE,
  RESULTS_DIR,
  SCREENSHOTS_TAKEN,
  collectPageErrors,
  horizontalOverflow,
  screenshot,
} from './support/browser';
import { injectTestWallet } from './support/injectWallet';
import { connectAndEnterKey } from './support/journey';
import { storedStories } from './support/storiesDb';
import { browser, model, withBrowserAndModel } from './support/session';
import { say, type Lang } from './support/words';

const API_KEY = 'sk-lorebook-e2e-5d2a';
withBrowserAndModel([API_KEY]);

interface StoredEntry {
  name: string;
  keywords: string[];
  text: string;
  always: boolean;
}

async function newPage(viewport: { width: number; height: number }) {
  const context = await browser.newContext({ viewport });
  await injectTestWallet(context, new TestWallet(1));
  return { context, page: await context.newPage() };
}

/** Connects the wallet and enters the key in the interface language; ends at load-or-create. */
async function signIn(page: Page, lang: Lang) {
  if (lang === 'en') return connectAndEnterKey(page, { url: baseUrl(), model, apiKey: API_KEY });
  await page.goto(baseUrl());
  await page.getByLabel('Language').selectOption('kr');
  await page.getByRole('button', { name: say('kr', 'connect') }).click();
  await page.locator('.wallet-address__tick').waitFor();
  await page.getByLabel(say('kr', 'provider')).selectOption('custom');
  await page.getByLabel(say('kr', 'baseUrl')).fill(model.url);
  await page.getByLabel(say('kr', 'model'), { exact: true }).fill('fake-model');
  await page.getByLabel(say('kr', 'apiKey')).fill(API_KEY);
  await page.getByRole('button', { name: say('kr', 'submit') }).click();
  await page.getByRole('button', { name: say('kr', 'startNewGame') }).waitFor();
}

/** From load-or-create to the name: the first genre chip, a portrait. Returns the genre. */
async function chooseGenreAndPortrait(page: Page, lang: Lang): Promise<string> {
  await page.getByRole('button', { name: say(lang, 'startNewGame') }).click();
  const chip = page.locator('.genre-chip').first();
  // With an unfinished story saved, the game first asks whether to go on with it.
  const startNew = page.getByRole('button', {
    name: lang === 'en' ? 'Start a new story' : /새 이야기/,
  });
  await chip.or(startNew).first().waitFor();
  if (await startNew.isVisible()) await startNew.click();
  const genre = (await chip.textContent())!;
  await chip.click();
  await page.getByRole('button', { name: say(lang, 'submitGenre') }).click();
  await page.getByRole('button', { name: say(lang, 'portrait5'), exact: true }).click();
  await page.getByRole('button', { name: say(lang, 'chooseMe') }).click();
  return genre;
}

const options = (page: Page) => page.locator('.options__list button');

/** The turn's options are offered and nothing is loading. */
async function turnDone(page: Page) {
  await options(page).first().waitFor({ timeout: 30_000 });
  await page.waitForFunction(() => !document.querySelector('.loading-overlay'), undefined, {
    timeout: 30_000,
  });
}

async function waitUntilAsync(what: string, check: () => Promise<boolean>, timeoutMs = 15_000) {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting until ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** The lorebook MyStoriesDB keeps for the character's story. */
async function storedLorebook(page: Page, character: string): Promise<StoredEntry[] | null> {
  const stories = await storedStories<{
    game: { chosenCharacter?: string; lorebook?: StoredEntry[] };
  }>(page);
  return stories.find((story) => story.game.chosenCharacter === character)?.game.lorebook ?? null;
}

/**
 * After a reload: the key again, then the story from the saved list, once MyStoriesDB holds
 * the lorebook as `saved` says (the auto-save comes 100 ms after the story's last change).
 */
async function reloadAndLoad(
  page: Page,
  character: string,
  lang: Lang,
  saved: (lorebook: StoredEntry[]) => boolean,
) {
  await waitUntilAsync(`${character}'s lorebook is saved as the test left it`, async () => {
    const lorebook = await storedLorebook(page, character);
    return lorebook !== null && saved(lorebook);
  });
  await page.reload();
  await page.locator('.wallet-address__tick').waitFor();
  await page.getByRole('button', { name: say(lang, 'submit') }).click();
  const load = lang === 'en' ? `Load ${character}'s story` : `${character}의 스토리 불러오기`;
  await page.getByRole('button', { name: load }).click();
  await page.locator('.play-header').waitFor();
}

/** The panel, open: the closed summary clicked, then its words waited for. */
async function openLorebook(page: Page, lang: Lang): Promise<Locator> {
  await page.locator('.lorebook > summary').click();
  const panel = page.locator('.lorebook-panel');
  await panel
    .getByText(lang === 'en' ? /Write down what the storyteller/ : /이야기꾼이 잊으면/)
    .waitFor();
  return panel;
}

interface Draft {
  name: string;
  keywords: string;
  text: string;
  always?: boolean;
}

const FIELDS = {
  en: {
    add: 'Add an entry',
    name: 'Name',
    keywords: 'Keywords, separated by commas',
    text: 'What the storyteller should know',
    always: /Always tell the storyteller/,
    save: 'Save entry',
  },
  kr: {
    add: '항목 추가',
    name: '이름',
    keywords: '키워드 (쉼표로 구분)',
    text: '이야기꾼이 알아야 할 내용',
    always: /항상 이야기꾼에게 전하기/,
    save: '항목 저장',
  },
} as const;

/** Adds an entry with the mouse. */
async function addEntry(panel: Locator, lang: Lang, draft: Draft) {
  const field = FIELDS[lang];
  await panel.getByRole('button', { name: field.add }).click();
  await panel.getByRole('textbox', { name: field.name, exact: true }).fill(draft.name);
  await panel.getByRole('textbox', { name: field.keywords }).fill(draft.keywords);
  await panel.getByRole('textbox', { name: field.text }).fill(draft.text);
  if (draft.always) await panel.getByRole('checkbox', { name: field.always }).check();
  await panel.getByRole('button', { name: field.save }).click();
  await panel.getByText(draft.text).waitFor();
}

/** A picture of the panel alone, beside the page's full one, to look at closely. */
async function panelPicture(panel: Locator, name: string) {
  if (!SCREENSHOTS_TAKEN) return;
  await panel.scrollIntoViewIfNeeded();
  await panel.screenshot({ path: path.join(RESULTS_DIR, `${name}.png`) });
}

const ORLA_TEXT =
  'The ferryman’s daughter. She rows the black river at night and owes the hero a debt. <img src=x onerror="window.hacked=1">';

test('English desktop: written before the opening and while playing, changed, removed and put back, kept for the genre and over a reload', async () => {
  const { context, page } = await newPage(DESKTOP);
  const errors = collectPageErrors(page);
  await signIn(page, 'en');
  const genre = await chooseGenreAndPortrait(page, 'en');

  // Before the first word: the world's rule, told from the opening on.
  let panel = await openLorebook(page, 'en');
  await page.getByText('No entries yet.').waitFor();
  await addEntry(panel, 'en', {
    name: 'The Pale Court',
    keywords: 'Pale Court, the Court',
    text: 'The drowned nobles who rule under the harbour. They never lie, but never answer plainly.',
    always: true,
  });
  await panel.getByText('always', { exact: true }).waitFor();
  await screenshot(page, 'lore-naming-en-desktop');
  await panelPicture(page.locator('.lorebook'), 'lore-naming-en-desktop-panel');

  await page.getByLabel('First Name').fill('Nell');
  await page.getByLabel('Last Name').fill('Harrow');
  await page.getByRole('button', { name: 'Submit', exact: true }).click();
  await turnDone(page);

  // Beside Story so far: the entry written at the name is there, and more are added.
  const lorebook = page.locator('.lorebook');
  expect(await lorebook.locator('summary').textContent()).toBe('Lorebook · 1 entry');
  panel = await openLorebook(page, 'en');
  await addEntry(panel, 'en', {
    name: 'Orla',
    keywords: 'Orla, ferryman’s daughter',
    text: ORLA_TEXT,
  });
  await addEntry(panel, 'en', {
    name: 'The brass key',
    keywords: 'brass key',
    text: 'Opens the tide gate. Nell found it in turn 3.',
  });
  // Player text is text: the markup shows as written and nothing of it runs.
  expect(await page.evaluate(() => (window as { hacked?: number }).hacked)).toBeUndefined();
  expect(await panel.locator('img').count()).toBe(0);

  // Changed in place.
  await panel.getByRole('button', { name: 'Edit The brass key' }).click();
  const text = panel.getByRole('textbox', { name: 'What the storyteller should know' });
  const changed = 'Opens the tide gate, once. It is warm when the Court is near.';
  await text.fill(changed);
  await panel.getByText(`${changed.length} / 500 characters`).waitFor();
  await panel.getByRole('button', { name: 'Save entry' }).click();
  await panel.getByText('It is warm when the Court is near.', { exact: false }).waitFor();

  // Removed at once, and put back in its place by Undo.
  await panel.getByRole('button', { name: 'Remove Orla' }).click();
  await panel.getByText('“Orla” removed.').waitFor();
  expect(await panel.locator('.lorebook__name').allTextContents()).toEqual([
    'The Pale Courtalways',
    'The brass key',
  ]);
  await panel.getByRole('button', { name: 'Undo' }).click();
  expect(await panel.locator('.lorebook__name').allTextContents()).toEqual([
    'The Pale Courtalways',
    'Orla',
    'The brass key',
  ]);

  // Kept for the genre, in this browser.
  await panel
    .getByRole('button', { name: `Start new “${genre}” stories with this lorebook` })
    .click();
  await panel.getByText(`New “${genre}” stories start with this lorebook.`).waitFor();
  await screenshot(page, 'lore-playing-en-desktop');
  await panelPicture(lorebook, 'lore-playing-en-desktop-panel');

  // A turn played with the lorebook open: while the paragraph is written it is only shown.
  await options(page).first().click();
  await turnDone(page);

  await reloadAndLoad(page, 'Nell Harrow', 'en', (saved) => saved.length === 3);
  expect(await lorebook.locator('summary').textContent()).toBe('Lorebook · 3 entries');
  panel = await openLorebook(page, 'en');
  expect(await panel.locator('.lorebook__name').allTextContents()).toEqual([
    'The Pale Courtalways',
    'Orla',
    'The brass key',
  ]);
  await panel.getByText(ORLA_TEXT).waitFor();
  await panel.getByText('Keywords: Orla, ferryman’s daughter').waitFor();
  await panel.getByText(`New “${genre}” stories start with this lorebook.`).waitFor();
  const stored = await storedLorebook(page, 'Nell Harrow');
  expect(stored?.map((entry) => entry.name)).toEqual(['The Pale Court', 'Orla', 'The brass key']);
  expect(stored?.[0]).toMatchObject({ keywords: ['Pale Court', 'the Court'], always: true });
  await screenshot(page, 'lore-reloaded-en-desktop');

  // A new story of the same genre starts with a copy, at its name already.
  await page.reload();
  await page.locator('.wallet-address__tick').waitFor();
  await page.getByRole('button', { name: 'Submit' }).click();
  expect(await chooseGenreAndPortrait(page, 'en')).toBe(genre);
  expect(await page.locator('.lorebook > summary').textContent()).toBe('Lorebook · 3 entries');
  expect(errors).toEqual([]);
  await context.close();
});

test('Korean phone, from the keyboard: an entry written, removed and put back, readable at 390 px, kept over a reload', async () => {
  const { context, page } = await newPage(PHONE);
  const errors = collectPageErrors(page);
  await signIn(page, 'kr');
  await chooseGenreAndPortrait(page, 'kr');
  await page.getByRole('button', { name: say('kr', 'random'), exact: true }).click();
  await page.getByRole('button', { name: say('kr', 'submit'), exact: true }).click();
  await turnDone(page);
  const character = (await page.locator('.character-panel__name').textContent())!;

  // Open the panel and write an entry from the keyboard alone.
  await page.locator('.lorebook > summary').focus();
  await page.keyboard.press('Enter');
  const panel = page.locator('.lorebook-panel');
  await panel.getByText(/이야기꾼이 잊으면/).waitFor();
  await panel.getByRole('button', { name: '항목 추가' }).focus();
  await page.keyboard.press('Enter');
  // The form opens on its name.
  await page.keyboard.type('붉은 용');
  await page.keyboard.press('Tab');
  await page.keyboard.type('용, 붉은 용, 불의 군주');
  await page.keyboard.press('Tab');
  const dragon = '북쪽 봉우리에 잠든 늙은 용. 주인공의 아버지를 기억하며, 거짓말을 싫어한다.';
  await page.keyboard.type(dragon);
  await panel.getByText(`${dragon.length} / 500자`).waitFor();
  await page.keyboard.press('Tab');
  await page.keyboard.press('Space');
  await panel.getByText(/3개 중 1개 사용 중/).waitFor();
  await page.keyboard.press('Control+Enter');
  await panel.getByText('키워드: 용, 붉은 용, 불의 군주').waitFor();
  await panel.getByText('항상', { exact: true }).waitFor();
  // Focus is on the new entry's own button.
  expect(await page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe(
    '붉은 용 고치기',
  );

  await addEntry(panel, 'kr', {
    name: '등대지기 한솔',
    keywords: '한솔, 등대지기',
    text: '섬의 등대지기. 밤마다 같은 노래를 부르고, 주인공에게 빚이 있다.',
  });
  expect(await horizontalOverflow(page)).toBe(0);
  await screenshot(page, 'lore-panel-kr-phone');
  await panelPicture(page.locator('.lorebook'), 'lore-panel-kr-phone-panel');

  // Removed from the keyboard, and put back with Undo (focus waits on it).
  await panel.getByRole('button', { name: '등대지기 한솔 지우기' }).focus();
  await page.keyboard.press('Enter');
  await panel.getByText('‘등대지기 한솔’ 항목을 지웠습니다.').waitFor();
  expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('되돌리기');
  await page.keyboard.press('Enter');
  await panel.getByText('섬의 등대지기.', { exact: false }).waitFor();

  // The form at 390 px, opened to change the dragon.
  await panel.getByRole('button', { name: '붉은 용 고치기' }).click();
  expect(await horizontalOverflow(page)).toBe(0);
  await panelPicture(page.locator('.lorebook'), 'lore-form-kr-phone-panel');
  await page.keyboard.press('Escape');

  await reloadAndLoad(page, character, 'kr', (saved) => saved.length === 2);
  expect(await page.locator('.lorebook > summary').textContent()).toBe('설정집 · 항목 2개');
  await openLorebook(page, 'kr');
  expect(await page.locator('.lorebook__name').allTextContents()).toEqual([
    '붉은 용항상',
    '등대지기 한솔',
  ]);
  await screenshot(page, 'lore-reloaded-kr-phone');
  expect(errors).toEqual([]);
  await context.close();
});
