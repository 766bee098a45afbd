/**
 * Budget 3, first story words after a choice: the fake model server streams a 600-token reply
 * (tokens of a real tokenizer, gpt-tokenizer) at 40 tokens/s after a 300 ms first-token delay.
 * The server records when each token went out; the page records, on the same machine clock
 * (Date.now), when the first words of the new paragraph are in view and painted (a
 * MutationObserver, then the frame after it), and when the options are back. The player
 * chooses as soon as the options are painted. Measured over several turns of one game, median:
 * - the first words at most 40 ms (a frame or two) after the first token of the story text.
 *   The reply's own first token comes earlier: the JSON before the story text,
 *   {"storySegment":", is 4 tokens, 100 ms at 40 tokens/s, in which there are no words to show;
 *   that figure is reported beside it;
 * - the first words at most 500 ms after the click;
 * - the first words at least 10x sooner after the choice than the whole reply, the earliest
 *   anything could show without streaming.
 */
import type { Page } from 'playwright-core';
import { decode, encode } from 'gpt-tokenizer';
import {
  gameReply,
  userPrompt,
  type RecordedRequest,
  type ReplyFunction,
  type ScriptedReply,
} from '../../test/fixtures/fakeModelServer';
import { setUpNewGame } from '../../test/e2e/support/journey';
import { median, ms, times, type Benchmark, type BudgetResult } from './budget';
import { openBrowserGame } from './gameInBrowser';

const FIRST_TOKEN_DELAY_MS = 300;
const TOKENS_PER_SECOND = 40;
const REPLY_TOKENS = 600;
/** Turns measured: each waits out the whole reply (about 15 s). */
const SAMPLES = 3;
const FIRST_WORDS_LIMIT_MS = 40;
const FROM_CLICK_LIMIT_MS = 500;
const SOONER_LIMIT = 10;

const SENTENCES = [
  'Rain hammers the slate roofs of the harbour town as the bells ring out a warning nobody has heard in a hundred years.',
  'Lanterns sway on their chains, and in the crowd below a hooded stranger presses a sealed letter into your hand.',
  'The wax bears the crest of a house long thought extinct, pressed so hard that the seal has cracked along one edge.',
  'Somewhere behind you boots ring on the cobbles, coming closer with every heartbeat, and the tide is turning.',
  'You duck beneath the awning of the chandler shop, where the smell of tar and wet rope hangs in the air.',
  'A gull screams overhead; the whistle of the harbour master answers it from the far end of the quay.',
  'The letter is warm, as if someone had carried it against their chest for a long time before giving it away.',
  'Across the square a door opens a crack, a thin line of candlelight falls on the stones, and closes again.',
];

/** The text a token at a time. ASCII text only: a token may hold part of a wider character. */
const tokenize = (text: string): string[] => encode(text).map((token) => decode([token]));

/** A segment reply of `tokens` tokens (the paragraph grows a word at a time to reach it). */
function segmentReply(tokens: number, conclusionCheck: boolean): Record<string, unknown> {
  const words = Array.from({ length: 40 }, (_, i) => SENTENCES[i % SENTENCES.length]!)
    .join(' ')
    .split(' ');
  const reply = (count: number) => ({
    storySegment: words.slice(0, count).join(' '),
    options: [
      {
        text: 'Break the seal and read the letter under the lantern.',
        risk: 'low',
        alignment: 'neutral',
        traitAlignment: '',
      },
      {
        text: 'Follow the hooded stranger into the alley.',
        risk: 'high',
        alignment: 'moral',
        traitAlignment: '',
      },
      {
        text: 'Sell the letter to the first buyer in the tavern.',
        risk: 'medium',
        alignment: 'immoral',
        traitAlignment: '',
      },
    ],
    outcome: 'success',
    scenarioType: 'standard',
    ...(conclusionCheck && { isFinal: false }),
  });
  let count = 1;
  while (encode(JSON.stringify(reply(count))).length < tokens) count += 1;
  const text = JSON.stringify(reply(count));
  if (tokenize(text).join('') !== text) throw new Error('the reply does not stream token by token');
  return reply(count);
}

/** The reply for a segment prompt and for a conclusion check (which also says isFinal). */
const SEGMENT_REPLIES = {
  segment: segmentReply(REPLY_TOKENS, false),
  conclusionCheck: segmentReply(REPLY_TOKENS, true),
};

/** What the page saw of one turn, each a Date.now() in the page. */
interface PageTimes {
  choiceAt: number | null;
  firstWordsAt: number | null;
  firstWordsPaintedAt: number | null;
  firstWordsText: string;
  optionsGoneAt: number | null;
  optionsAt: number | null;
  optionsPaintedAt: number | null;
}

/**
 * Watches the next turn in the page. Plain JavaScript in a string: page code must not carry the
 * helpers a TypeScript loader adds to functions.
 */
const WATCH_TURN = `(() => {
  window.__benchTurn?.stop();
  const times = { choiceAt: null, firstWordsAt: null, firstWordsPaintedAt: null, firstWordsText: '',
    optionsGoneAt: null, optionsAt: null, optionsPaintedAt: null };
  // The frame after a change: requestAnimationFrame runs before the paint, a message after it.
  const afterPaint = (field) => requestAnimationFrame(() => {
    const channel = new MessageChannel();
    channel.port1.onmessage = () => { times[field] = Date.now(); };
    channel.port2.postMessage(null);
  });
  const inView = (element) => {
    const box = element.getBoundingClientRect();
    return box.height > 0 && box.bottom > 0 && box.top < window.innerHeight;
  };
  const check = () => {
    if (times.choiceAt === null) return;
    const now = Date.now();
    if (times.firstWordsAt === null) {
      const writing = document.querySelector('.story-paragraph--writing');
      const text = writing ? writing.textContent.trim() : '';
      if (writing && text !== '' && inView(writing)) {
        times.firstWordsAt = now;
        times.firstWordsText = text;
        afterPaint('firstWordsPaintedAt');
      }
    }
    const option = document.querySelector('.options__list button');
    if (!option && times.optionsGoneAt === null) times.optionsGoneAt = now;
    if (option && times.optionsGoneAt !== null && times.optionsAt === null) {
      times.optionsAt = now;
      afterPaint('optionsPaintedAt');
    }
  };
  const observer = new MutationObserver(check);
  observer.observe(document.body, { subtree: true, childList: true, characterData: true });
  const onClick = (event) => {
    if (times.choiceAt === null && event.target.closest('.options__list button')) {
      times.choiceAt = Date.now();
    }
  };
  document.addEventListener('click', onClick, true);
  window.__benchTurn = {
    times,
    stop() {
      observer.disconnect();
      document.removeEventListener('click', onClick, true);
    },
  };
})()`;

interface Sample {
  /** First token sent → first words painted: the budget. */
  tokenToWords: number;
  /** First token sent → first words in the page (before the paint). */
  tokenToWordsInPage: number;
  /** The paragraph's own first token sent → first words painted: the client's part alone. */
  paragraphTokenToWords: number;
  choiceToFirstToken: number;
  choiceToWords: number;
  /** Choice → last token sent: the earliest a reply read whole could show anything. */
  choiceToWholeReply: number;
  choiceToOptions: number;
  tokens: number;
  /** The reply's tokens before the first one that carries story text (the JSON's opening). */
  tokensBeforeStory: number;
}

async function playSample(page: Page, paced: RecordedRequest[]): Promise<Sample> {
  const asked = paced.length;
  await page.evaluate(WATCH_TURN);
  await page.locator('.options__list button').first().click();
  await page.waitForFunction(
    () =>
      (window as unknown as { __benchTurn: { times: PageTimes } }).__benchTurn.times
        .optionsPaintedAt !== null,
    undefined,
    // The player chooses as soon as the options are painted (the next sample clicks at once).
    { polling: 'raf', timeout: 60_000 },
  );
  const seen = (await page.evaluate('window.__benchTurn.times')) as PageTimes;
  const request = paced[asked];
  const streamed = request?.streamed;
  if (!streamed || streamed.firstTokenAt === null || streamed.endedAt === null) {
    throw new Error('the paced segment was not streamed (is streaming off for this provider?)');
  }
  const { choiceAt, firstWordsAt, firstWordsPaintedAt, optionsPaintedAt } = seen;
  if (choiceAt === null || firstWordsAt === null || firstWordsPaintedAt === null) {
    throw new Error(`the first words were never seen: ${JSON.stringify(seen)}`);
  }
  const content = streamed.deltas.map((delta) => delta.content).join('');
  const paragraph = (JSON.parse(content) as { storySegment: string }).storySegment;
  if (!paragraph.startsWith(seen.firstWordsText)) {
    throw new Error(`the words shown are not the paragraph's: "${seen.firstWordsText}"`);
  }
  // The first token that carries a character of the paragraph (after {"storySegment":").
  const prefix = content.indexOf(paragraph.slice(0, 1));
  let sent = 0;
  const paragraphToken = streamed.deltas.find((delta) => (sent += delta.content.length) > prefix);
  return {
    tokenToWords: firstWordsPaintedAt - streamed.firstTokenAt,
    tokenToWordsInPage: firstWordsAt - streamed.firstTokenAt,
    paragraphTokenToWords: firstWordsPaintedAt - paragraphToken!.at,
    choiceToFirstToken: streamed.firstTokenAt - choiceAt,
    choiceToWords: firstWordsPaintedAt - choiceAt,
    choiceToWholeReply: streamed.endedAt - choiceAt,
    choiceToOptions: optionsPaintedAt! - choiceAt,
    tokens: streamed.deltas.length,
    tokensBeforeStory: streamed.deltas.indexOf(paragraphToken!),
  };
}

async function run(): Promise<BudgetResult[]> {
  const paced: RecordedRequest[] = [];
  const replies: ReplyFunction = (body, request): ScriptedReply => {
    const prompt = userPrompt(body);
    // The turn's segment (or conclusion check) is paced; everything else answers at once.
    if (prompt.includes('wrapUpParagraph') || !prompt.includes('storySegment')) {
      return gameReply(body);
    }
    paced.push(request);
    return {
      json: prompt.includes('isFinal') ? SEGMENT_REPLIES.conclusionCheck : SEGMENT_REPLIES.segment,
      pacing: {
        firstTokenDelayMs: FIRST_TOKEN_DELAY_MS,
        tokensPerSecond: TOKENS_PER_SECOND,
        tokenize,
      },
    };
  };
  const game = await openBrowserGame(replies);
  try {
    await setUpNewGame(game.page);
    await game.page.locator('.options__list button').first().waitFor({ timeout: 30_000 });
    const samples: Sample[] = [];
    for (let turn = 0; turn < SAMPLES; turn += 1) {
      samples.push(await playSample(game.page, paced));
    }
    const of = (field: keyof Sample) => median(samples.map((sample) => sample[field]));
    const firstWords = of('paragraphTokenToWords');
    const fromClick = of('choiceToWords');
    const sooner = of('choiceToWholeReply') / of('choiceToWords');
    const details: Record<string, string> = {
      'reply streamed': `${of('tokens')} tokens (gpt-tokenizer), ${TOKENS_PER_SECOND} tokens/s after ${FIRST_TOKEN_DELAY_MS} ms, ${SAMPLES} turns, medians`,
      'first token of the story text sent → first words painted (each turn)': samples
        .map((sample) => ms(sample.paragraphTokenToWords))
        .join(', '),
      'the reply’s first token sent → first words painted': `${ms(of('tokenToWords'))}, of which the reply’s ${of('tokensBeforeStory')} tokens before the story text ({"storySegment":") take ${ms((of('tokensBeforeStory') * 1000) / TOKENS_PER_SECOND)}`,
      'the reply’s first token sent → first words in the page, before the paint': ms(
        of('tokenToWordsInPage'),
      ),
      'choice → first token sent': ms(of('choiceToFirstToken')),
      'choice → first words painted': ms(of('choiceToWords')),
      'choice → whole reply sent (the earliest words without streaming)': ms(
        of('choiceToWholeReply'),
      ),
      'choice → next options painted': ms(of('choiceToOptions')),
    };
    return [
      {
        budget: '3. First story words after a choice',
        limit: `≤ ${FIRST_WORDS_LIMIT_MS} ms after the story text's first token`,
        measured: ms(firstWords),
        pass: firstWords <= FIRST_WORDS_LIMIT_MS,
        details,
      },
      {
        budget: '3. First story words after the click',
        limit: `≤ ${FROM_CLICK_LIMIT_MS} ms, choosing as soon as the options are painted (first token after ${FIRST_TOKEN_DELAY_MS} ms)`,
        measured: ms(fromClick),
        pass: fromClick <= FROM_CLICK_LIMIT_MS,
        details: {},
      },
      {
        budget: '3. First story words after a choice, against the whole reply',
        limit: `≥ ${SOONER_LIMIT}x sooner after the choice than the whole reply`,
        measured: `${times(sooner)} (${ms(of('choiceToWords'))} against ${ms(of('choiceToWholeReply'))})`,
        pass: sooner >= SOONER_LIMIT,
        details: {},
      },
    ];
  } finally {
    await game.close();
  }
}

const benchmark: Benchmark = { name: 'firstWords', run };
export default benchmark;
