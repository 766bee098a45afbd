/**
 * What a story's requests cost (issue 40, part 3): the tokens each provider reported, the latest
 * turn's and the story's running total, and the dollars where a price is known (the provider's
 * own reported cost, or its model list's price). A request whose provider reported no usage is
 * counted as such, never guessed: the game shows "not reported".
 */

/** One request's usage as the game counts it (llm/usage.ts reads it from the reply). */
export interface CountedUsage {
  promptTokens: number;
  /** Reasoning included. */
  replyTokens: number;
  /** Of replyTokens, those spent thinking; null when the provider did not say. */
  reasoningTokens: number | null;
  /** US dollars; null when neither the provider nor its model list gives a price. */
  costUsd: number | null;
}

/** The usage of some requests, summed. */
export interface TokenTally {
  /** Requests whose provider reported their usage. */
  reported: number;
  /** Requests whose provider reported none. */
  notReported: number;
  promptTokens: number;
  replyTokens: number;
  /** Summed over the requests that said; null when none did. */
  reasoningTokens: number | null;
  /** Summed over the requests with a price. */
  costUsd: number;
  /** Reported requests with no price: the dollars above leave them out. */
  unpriced: number;
}

/** The latest turn's requests (the opening is turn 0) and the whole story's. */
export interface StoryCost {
  turn: number;
  lastTurn: TokenTally;
  total: TokenTally;
}

export const NO_TOKENS: TokenTally = {
  reported: 0,
  notReported: 0,
  promptTokens: 0,
  replyTokens: 0,
  reasoningTokens: null,
  costUsd: 0,
  unpriced: 0,
};

export const NO_COST: StoryCost = { turn: 0, lastTurn: NO_TOKENS, total: NO_TOKENS };

/** `tally` with one more request: its usage, or null when its provider reported none. */
export function withUsage(tally: TokenTally, usage: CountedUsage | null): TokenTally {
  if (usage === null) return { ...tally, notReported: tally.notReported + 1 };
  const reasoning = usage.reasoningTokens;
  return {
    reported: tally.reported + 1,
    notReported: tally.notReported,
    promptTokens: tally.promptTokens + usage.promptTokens,
    replyTokens: tally.replyTokens + usage.replyTokens,
    reasoningTokens:
      reasoning === null ? tally.reasoningTokens : (tally.reasoningTokens ?? 0) + reasoning,
    costUsd: tally.costUsd + (usage.costUsd ?? 0),
    unpriced: tally.unpriced + (usage.costUsd === null ? 1 : 0),
  };
}

/**
 * The story's cost after a request made for `turn`: a later turn starts its own tally; an
 * earlier one's request, come in late, counts in the story's total only.
 */
export function costAfter(cost: StoryCost, turn: number, usage: CountedUsage | null): StoryCost {
  const total = withUsage(cost.total, usage);
  if (turn < cost.turn) return { ...cost, total };
  const lastTurn = turn === cost.turn ? cost.lastTurn : NO_TOKENS;
  return { turn, lastTurn: withUsage(lastTurn, usage), total };
}

const isCount = (value: unknown): value is number =>
  typeof value === 'number' && Number.isInteger(value) && value >= 0;
const isAmount = (value: unknown): value is number =>
  typeof value === 'number' && Number.isFinite(value) && value >= 0;

function tallyOf(value: unknown): TokenTally {
  if (typeof value !== 'object' || value === null) return NO_TOKENS;
  const stored = value as Record<keyof TokenTally, unknown>;
  const count = (key: Exclude<keyof TokenTally, 'costUsd' | 'reasoningTokens'>) =>
    isCount(stored[key]) ? stored[key] : 0;
  return {
    reported: count('reported'),
    notReported: count('notReported'),
    promptTokens: count('promptTokens'),
    replyTokens: count('replyTokens'),
    reasoningTokens: isCount(stored.reasoningTokens) ? stored.reasoningTokens : null,
    costUsd: isAmount(stored.costUsd) ? stored.costUsd : 0,
    unpriced: count('unpriced'),
  };
}

/** A story's cost from a save: none in one from before it, and nothing but counts kept. */
export function storyCostOf(value: unknown): StoryCost {
  if (typeof value !== 'object' || value === null) return NO_COST;
  const stored = value as Record<keyof StoryCost, unknown>;
  return {
    turn: isCount(stored.turn) ? stored.turn : 0,
    lastTurn: tallyOf(stored.lastTurn),
    total: tallyOf(stored.total),
  };
}
