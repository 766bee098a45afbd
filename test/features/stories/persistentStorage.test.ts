/**
 * The browser's navigator.storage as the stories' flows hear it (persistentStorage.ts): its
 * yes and no, and 'unsupported' where it has no way to promise.
 */
import { browserPersistentStorage } from '../../../src/features/stories/persistentStorage';

const own = Object.getOwnPropertyDescriptor(globalThis, 'navigator');
afterEach(() => {
  if (own) Object.defineProperty(globalThis, 'navigator', own);
  else delete (globalThis as { navigator?: unknown }).navigator;
});

function browserWith(storage: Partial<StorageManager> | undefined) {
  Object.defineProperty(globalThis, 'navigator', {
    value: { storage },
    configurable: true,
    writable: true,
  });
  return browserPersistentStorage();
}

test('a browser that promised, asked either way', async () => {
  const browser = browserWith({
    persisted: () => Promise.resolve(true),
    persist: () => Promise.resolve(true),
  });
  expect(await browser.persisted()).toBe('persisted');
  expect(await browser.persist()).toBe('persisted');
});

test('a browser that has not promised, and refuses', async () => {
  const persist = jest.fn(() => Promise.resolve(false));
  const browser = browserWith({ persisted: () => Promise.resolve(false), persist });
  expect(await browser.persisted()).toBe('notPersisted');
  expect(persist).not.toHaveBeenCalled();
  expect(await browser.persist()).toBe('notPersisted');
  expect(persist).toHaveBeenCalledTimes(1);
});

test('the page is read when asked, not when the context is made', async () => {
  const browser = browserWith(undefined);
  browserWith({ persisted: () => Promise.resolve(true), persist: () => Promise.resolve(true) });
  expect(await browser.persisted()).toBe('persisted');
});

test.each([
  ['no navigator.storage', undefined],
  ['a storage manager without persist()', { estimate: () => Promise.resolve({}) }],
])('%s: unsupported, and nothing asked', async (_which, storage) => {
  const browser = browserWith(storage);
  expect(await browser.persisted()).toBe('unsupported');
  expect(await browser.persist()).toBe('unsupported');
});
