/**
 * The browser and the fake model server most specs share: started before a spec's tests and
 * closed after them. `browser` and `model` are live bindings: a spec imports them and reads
 * them in its tests, after withBrowserAndModel's beforeAll has set them.
 */
import type { Browser } from 'playwright-core';
import { startFakeModelServer, type FakeModelServer } from '../../fixtures/fakeModelServer';
import { launchBrowser } from './browser';

export let browser: Browser;
export let model: FakeModelServer;

/** Registers the spec's beforeAll and afterAll; the model server accepts `validKeys`. */
export function withBrowserAndModel(validKeys: readonly string[]): void {
  beforeAll(async () => {
    [browser, model] = await Promise.all([
      launchBrowser(),
      startFakeModelServer({ validKeys: [...validKeys] }),
    ]);
  });
  afterAll(async () => {
    await browser?.close();
    await model?.close();
  });
}
