/**
 * Budget 9, a whole game on a free key (DESIGN.md, "Free tiers first"): a 100-turn story on
 * the Groq preset (gpt-oss-120b, its default), played through the game's saga (storyPlay.ts),
 * each request counted as Groq counts it against its 8,000 tokens a minute when it arrives:
 * prompt tokens (o200k) + max_tokens, as the strict free-tier fake counts them
 * (test/fixtures/fakeProviders/freeTier.ts). A turn is what the client sends between a choice
 * and its options: the story request, and any fallback summary.
 */
import { GROQ_MODELS, reservationOf } from '../../test/fixtures/fakeModelServer';
import { median, times, type Benchmark, type BudgetResult } from './budget';
import { SHEET_AS_PLAYED, playStory, type SentRequest } from './storyPlay';

const TURNS = 100;
const MAX_RESERVATION = 4000;
const MAX_REQUESTS_PER_TURN = 1.1;
const MAX_PROMPT_RATIO = 1.2;
const GROQ = { provider: 'groq', model: 'openai/gpt-oss-120b' };

const reserved = (request: SentRequest) =>
  reservationOf(
    request.body,
    GROQ_MODELS.find((model) => model.id === request.body.model),
  );

const benchmark: Benchmark = {
  name: 'freeTier',
  async run(): Promise<BudgetResult[]> {
    const results: BudgetResult[] = [];
    const details: Record<string, string> = {
      counted: 'prompt tokens (o200k_base, 4 a message, 3 to prime the reply) + max_tokens',
      game: `${TURNS} turns on the Groq preset, ${GROQ.model}, through the game's saga`,
      'story sheet': SHEET_AS_PLAYED,
    };
    const perTurn: number[] = [];
    let requestsPerTurn = 0;
    const promptRatios: number[] = [];
    for (const language of ['en', 'kr'] as const) {
      const sent = await playStory(language, TURNS, GROQ);
      const turns = sent.filter((request) => request.turn > 0);
      const byTurn = Array.from({ length: TURNS }, (_, i) =>
        turns.filter((request) => request.turn === i + 1),
      );
      const totals = byTurn.map((requests) =>
        requests.reduce((sum, request) => sum + reserved(request).total, 0),
      );
      perTurn.push(...totals);
      requestsPerTurn = Math.max(requestsPerTurn, turns.length / TURNS);
      const prompt = (turn: number) => reserved(byTurn[turn - 1]![0]!).promptTokens;
      promptRatios.push(prompt(100) / prompt(10));
      const opening = sent.filter((request) => request.turn === 0);
      details[`${language} reserved per turn`] =
        `median ${median(totals)}, max ${Math.max(...totals)} tokens`;
      details[`${language} requests`] =
        `${turns.length} in ${TURNS} turns; the opening ${opening.length} ` +
        `(${opening.reduce((sum, request) => sum + reserved(request).total, 0)} tokens reserved)`;
      details[`${language} prompt tokens`] =
        `turn 10: ${prompt(10)}, turn 100: ${prompt(100)} (${times(prompt(100) / prompt(10))})`;
      details[`${language} max_tokens of a turn`] = `${reserved(byTurn[0]![0]!).maxTokens}`;
    }
    const max = Math.max(...perTurn);
    results.push(
      {
        budget: '9. Tokens reserved per turn, Groq free tier',
        limit: `≤ ${MAX_RESERVATION} tokens (prompt + max_tokens), every turn of ${TURNS}`,
        measured: `median ${median(perTurn)}, max ${max}`,
        pass: max <= MAX_RESERVATION,
        details,
      },
      {
        budget: '9. Requests per turn',
        limit: `≤ ${MAX_REQUESTS_PER_TURN}`,
        measured: requestsPerTurn.toFixed(2),
        pass: requestsPerTurn <= MAX_REQUESTS_PER_TURN,
        details: {},
      },
      {
        budget: '9. Prompt tokens, turn 100 against turn 10',
        limit: `≤ ${MAX_PROMPT_RATIO}x`,
        measured: promptRatios.map((ratio, i) => `${times(ratio)} (${i ? 'kr' : 'en'})`).join(', '),
        pass: promptRatios.every((ratio) => ratio <= MAX_PROMPT_RATIO),
        details: {},
      },
    );
    return results;
  },
};

export default benchmark;
