/**
 * Budget 5, prompt size per turn: the prompt of turn 100 at most 1.2x that of turn 10, in
 * tokens of a real tokenizer (gpt-tokenizer, o200k_base). The prompts are the product's own:
 * a whole story is played through the game's saga (storyPlay.ts) in each interface language,
 * and the request the client sends at turn 10 and at turn 100 is counted, system message and
 * user message.
 */
import { countTokens } from 'gpt-tokenizer';
import { times, type Benchmark, type BudgetResult } from './budget';
import { SHEET_AS_PLAYED, playStory, type SentRequest } from './storyPlay';
import { wordCount } from './storyText';

const EARLY_TURN = 10;
const LATE_TURN = 100;
const LIMIT = 1.2;

const textOf = (request: SentRequest) => request.body.messages.map((m) => m.content).join(' ');
const tokensOf = (request: SentRequest) =>
  request.body.messages.reduce((sum, message) => sum + countTokens(message.content), 0);
/** The turn's story request (from turn 7 the conclusion check), by turn number. */
const turnPrompts = (sent: SentRequest[]) =>
  new Map(
    sent
      .filter((request) => request.turn > 0 && textOf(request).includes('{"storySegment"'))
      .map((request) => [request.turn, request]),
  );

const benchmark: Benchmark = {
  name: 'promptSize',
  async run(): Promise<BudgetResult[]> {
    const details: Record<string, string> = {
      tokenizer: 'gpt-tokenizer o200k_base, system + user message',
      prompt: 'the turn prompt (from turn 7 the conclusion check), as the client sends it',
      'story sheet': SHEET_AS_PLAYED,
    };
    const ratios: string[] = [];
    let pass = true;
    for (const language of ['en', 'kr'] as const) {
      const sent = turnPrompts(await playStory(language, LATE_TURN));
      const early = sent.get(EARLY_TURN);
      const late = sent.get(LATE_TURN);
      if (!early || !late) {
        throw new Error(`No turn prompt recorded at turn 10 or 100 (${language})`);
      }
      const ratio = tokensOf(late) / tokensOf(early);
      pass &&= ratio <= LIMIT;
      ratios.push(`${times(ratio)} (${language})`);
      for (const [turn, prompt] of [
        [EARLY_TURN, early],
        [LATE_TURN, late],
      ] as const) {
        details[`${language} turn ${turn}`] =
          `${tokensOf(prompt)} tokens, ${wordCount(textOf(prompt))} words, ` +
          `${prompt.summaries} summaries in the game`;
      }
      const largest = Math.max(...[...sent.values()].map(tokensOf));
      details[`${language} largest turn prompt, turns 1-100`] = `${largest} tokens`;
    }
    return [
      {
        budget: '5. Prompt size per turn',
        limit: `turn ${LATE_TURN} ≤ ${LIMIT}x turn ${EARLY_TURN}`,
        measured: ratios.join(', '),
        pass,
        details,
      },
    ];
  },
};

export default benchmark;
