/**
 * Journey 7 (issue 7) on each database the server runs on: PGlite, and PostgreSQL once where
 * one is configured or answers (always in CI). A finished game is saved to the leaderboard; the
 * same result saved again from a second tab is the spec's duplicate warning; and a client that
 * skips the check and writes straight to the table is refused by the database itself.
 */
import type { Page } from 'playwright-core';
import { TestWallet } from '../fixtures/testWallet';
import { freshPostgresDatabase, postgresAdminUrl } from '../server/support/databases';
import { e2eBackend } from './support/backend';
import { DESKTOP, collectPageErrors, screenshot } from './support/browser';
import { injectTestWallet } from './support/injectWallet';
import { connectAndEnterKey, playNewGameToTheEnd, type JourneyTarget } from './support/journey';
import { startServer, type RunningServer } from './support/server';
import { browser, model, withBrowserAndModel } from './support/session';
import { APP_START_TIMEOUT_MS } from '../support/timeouts';

const API_KEY = 'sk-results';

interface DatabaseUnderTest {
  name: string;
  /** The server's environment for it, and how to remove it afterwards. */
  open(): Promise<{ env: NodeJS.ProcessEnv; drop(): Promise<void> }>;
}

const adminUrl = postgresAdminUrl();
const DATABASES: DatabaseUnderTest[] = [
  { name: 'PGlite', open: async () => ({ env: {}, drop: async () => undefined }) },
  ...(adminUrl
    ? [
        {
          name: 'PostgreSQL',
          async open() {
            const database = await freshPostgresDatabase(adminUrl);
            return { env: { DATABASE_URL: database.url }, drop: database.drop };
          },
        },
      ]
    : []),
];

withBrowserAndModel([API_KEY]);

const saveButton = (page: Page) => page.getByRole('button', { name: 'Save Adventure Results' });

describe.each(DATABASES)('on $name', (database) => {
  let server: RunningServer;
  let drop: () => Promise<void> = async () => undefined;
  beforeAll(async () => {
    const opened = await database.open();
    drop = opened.drop;
    server = await startServer(opened.env);
  }, APP_START_TIMEOUT_MS);
  afterAll(async () => {
    await server?.stop();
    await drop();
  });

  test('a result saved, the same result from a second tab warned of, a bypassing write refused', async () => {
    const target: JourneyTarget = { url: server.url, model, apiKey: API_KEY };
    const shot = `results-${database.name.toLowerCase()}`;
    const context = await browser.newContext({ viewport: DESKTOP });
    await injectTestWallet(context, new TestWallet(1));
    const first = await context.newPage();
    const errors = collectPageErrors(first);
    await connectAndEnterKey(first, target);
    const turns = await playNewGameToTheEnd(first);
    expect(turns).toBeGreaterThanOrEqual(7);

    // A second tab opens the same finished story from the saved list (auto-saved at the end).
    const second = await context.newPage();
    await connectAndEnterKey(second, target);
    const card = second.locator('article.story-card').filter({ hasText: 'Finished:' });
    await card.getByRole('button', { name: /^Load / }).click();
    await second.getByRole('heading', { name: 'Adventure Complete' }).waitFor();

    await first.bringToFront();
    await saveButton(first).click();
    await first.getByText('Adventure results saved!').waitFor();
    await first
      .getByText("This story's local save was deleted: the result is kept on the leaderboard.")
      .waitFor();
    await screenshot(first, `${shot}-saved`);

    await second.bringToFront();
    await saveButton(second).click();
    await second.getByText('This result has already been saved recently.').waitFor();
    await screenshot(second, `${shot}-duplicate`);

    // The leaderboard has the one row.
    await second.goto(`${server.url}/leaderboard`);
    await second.locator('tbody tr').first().waitFor();
    expect(await second.locator('tbody tr').count()).toBe(1);

    // A client that skips the duplicate check and writes the same row is refused by the database.
    const { address, token } = await first.evaluate(() => {
      const current = window.localStorage.getItem('current_wallet_address') ?? '';
      return { address: current, token: window.localStorage.getItem(`auth_token_${current}`) };
    });
    expect(token).toBeTruthy();
    const client = e2eBackend(server.url).backend.forWallet({ address, token: token! });
    const saved = await client.from('game_results').select('*').eq('wallet_address', address);
    expect(saved.error).toBeNull();
    expect(saved.data).toHaveLength(1);
    const { id: _id, created_at: _createdAt, ...row } = saved.data![0] as Record<string, unknown>;
    const again = await client.from('game_results').insert(row);
    expect(again.error?.code).toBe('23505');
    const after = await client.from('game_results').select('id').eq('wallet_address', address);
    expect(after.data).toHaveLength(1);

    expect(errors.filter((error) => !/Failed to load resource/.test(error))).toEqual([]);
    await context.close();
  });
});
