/**
 * What a request reserves of a per-minute token budget, as free tiers count it when the request
 * arrives (Groq: the prompt plus max_tokens, DESIGN.md "Free tiers first"): the prompt by
 * estimate (tokens.ts) and the output limit the request will carry (capabilities.ts). The key
 * screen and the wait messages show it beside the minute's limit where the provider stated one.
 */
import { planRequest, type ModelLesson } from './capabilities';
import { PROMPT_TOKEN_BUDGET, REPLY_TOKENS } from './prompts/types';
import type { ProviderPreset } from './providers';
import { estimatePromptTokens } from './tokens';

export interface ReservedRequest {
  provider: ProviderPreset;
  model: string;
  lessons: readonly ModelLesson[];
  /** The system message and the prompt, as sent. */
  system: string;
  prompt: string;
  stream: boolean;
  replyTokens?: number;
  /** Asked again after a cut-off reply, with twice the room to think. */
  moreRoom?: boolean;
}

/** The tokens a request reserves: its prompt's estimate and its output limit. */
export function tokensReserved(request: ReservedRequest): number {
  const { provider, model, lessons, stream, replyTokens, moreRoom } = request;
  const plan = planRequest(provider, model, { stream, replyTokens, lessons, moreRoom });
  const prompt = estimatePromptTokens([request.system, request.prompt]);
  return prompt + plan.outputLimit.tokens;
}

/**
 * What a story turn reserves at most with this model as it is first asked: the largest prompt
 * the game writes (PROMPT_TOKEN_BUDGET, system message included, by estimate) and a turn's
 * output limit. A reply cut off is asked again with more room, which reserves more.
 */
export function mostATurnReserves(
  provider: ProviderPreset,
  model: string,
  lessons: readonly ModelLesson[],
): number {
  const plan = planRequest(provider, model, {
    stream: true,
    replyTokens: REPLY_TOKENS.nextSegment,
    lessons,
  });
  return PROMPT_TOKEN_BUDGET + plan.outputLimit.tokens;
}
