import { MAX_ENTRIES, SharedReads } from '../../server/sharedReads';

/** A clock the test moves by hand. */
function clock() {
  let now = 0;
  return { now: () => now, advance: (ms: number) => (now += ms) };
}

/** A fetch whose answers are numbered, so a test can tell a shared answer from a fresh one. */
function counter() {
  let calls = 0;
  return { fetch: async () => (calls += 1), calls: () => calls };
}

test('reads of one key share one answer while it is fresh', async () => {
  const time = clock();
  const reads = new SharedReads<number>(time.now, 1000);
  const source = counter();
  const answers = await Promise.all([1, 2, 3].map(() => reads.read('top', source.fetch)));
  time.advance(999);
  answers.push(await reads.read('top', source.fetch));
  expect(answers).toEqual([1, 1, 1, 1]);
  expect(source.calls()).toBe(1);
});

test('a write makes the next read ask again, even within the maximum age', async () => {
  const reads = new SharedReads<number>(clock().now, 1000);
  const source = counter();
  expect(await reads.read('top', source.fetch)).toBe(1);
  reads.invalidate();
  expect(await reads.read('top', source.fetch)).toBe(2);
});

test('an answer older than the maximum age is asked for again', async () => {
  const time = clock();
  const reads = new SharedReads<number>(time.now, 1000);
  const source = counter();
  await reads.read('top', source.fetch);
  time.advance(1001);
  expect(await reads.read('top', source.fetch)).toBe(2);
});

test('keys do not share answers', async () => {
  const reads = new SharedReads<number>(clock().now, 1000);
  const source = counter();
  expect([await reads.read('a', source.fetch), await reads.read('b', source.fetch)]).toEqual([
    1, 2,
  ]);
});

test('a failed read is not kept: the next read asks again', async () => {
  const reads = new SharedReads<number>(clock().now, 1000);
  await expect(reads.read('top', () => Promise.reject(new Error('down')))).rejects.toThrow('down');
  expect(await reads.read('top', async () => 7)).toBe(7);
});

test('remembers at most MAX_ENTRIES queries, forgetting the oldest', async () => {
  const reads = new SharedReads<number>(clock().now, 1000);
  const source = counter();
  for (let key = 0; key <= MAX_ENTRIES; key += 1) await reads.read(`q${key}`, source.fetch);
  expect(await reads.read(`q${MAX_ENTRIES}`, source.fetch)).toBe(MAX_ENTRIES + 1);
  expect(await reads.read('q0', source.fetch)).toBe(MAX_ENTRIES + 2);
});
