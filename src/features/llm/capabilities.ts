/**
 * What one request to a provider asks for, decided from what the provider documents (the
 * preset) and from what it has refused this session; and which feature a refusal names.
 * Plain functions over plain data: the saga keeps the session's refusals in the store.
 */
import { ProviderError } from './errors';
import { baseUrlOf, modelOf, reasoningRuleOf, type ProviderPreset } from './providers';

/** SPEC.md section 9. */
export const KEY_CHECK_MAX_TOKENS = 256;
export const GENERATION_MAX_TOKENS = 1000;
export const TEMPERATURE = 0.7;
/**
 * Reasoning tokens count toward the output limit, so a reasoning model gets room to think on
 * top of what its reply needs. Free tiers count the whole max_tokens against the minute when
 * the request arrives (Groq: prompt + max_tokens of 8,000 a minute), so the room is small and
 * the effort asked for is the provider's lowest: a story turn reserves at most 4,000 tokens.
 */
export const REASONING_ALLOWANCE_TOKENS = 700;

/** The parts of a request a provider may refuse; each can be left out (or renamed) and retried. */
export type ModelFeature =
  'response_format' | 'stream' | 'reasoning' | 'temperature' | 'max_tokens';

export interface RequestPlan {
  /** response_format {type: 'json_object'}. */
  jsonMode: boolean;
  /** stream: true (server-sent events). */
  stream: boolean;
  /** The reasoning effort sent, and how; null when none is sent. */
  reasoning: { control: 'reasoning_effort' | 'reasoning'; effort: string } | null;
  /** null: the provider's default temperature. */
  temperature: number | null;
  outputLimit: { name: 'max_tokens' | 'max_completion_tokens'; tokens: number };
}

export interface PlanOptions {
  /** The key check: a short, whole reply. */
  keyCheck?: boolean;
  /** The caller shows the reply as it arrives. */
  stream?: boolean;
  /** The most the reply itself needs (GENERATION_MAX_TOKENS when absent). */
  replyTokens?: number;
  /** What this provider refused for this model earlier in the session. */
  refused?: readonly ModelFeature[];
}

/**
 * The request to make. Streaming is preferred (the first words show sooner); where a provider
 * cannot stream and do JSON mode at once, JSON mode gives way and the client repairs the JSON.
 */
export function planRequest(
  provider: ProviderPreset,
  model: string,
  { keyCheck = false, stream = false, replyTokens, refused = [] }: PlanOptions = {},
): RequestPlan {
  const allowed = (feature: ModelFeature) => !refused.includes(feature);
  const streaming = stream && !keyCheck && provider.supportsStreaming && allowed('stream');
  const jsonMode =
    !keyCheck &&
    provider.supportsJsonMode &&
    allowed('response_format') &&
    (!streaming || provider.jsonModeWhileStreaming);
  const rule = reasoningRuleOf(provider, model);
  const reasoning =
    rule?.effort !== undefined && provider.reasoningControl && allowed('reasoning')
      ? { control: provider.reasoningControl, effort: rule.effort }
      : null;
  const thinks = rule !== null && rule.effort !== 'none';
  const base = keyCheck ? KEY_CHECK_MAX_TOKENS : (replyTokens ?? GENERATION_MAX_TOKENS);
  const useOwnName = provider.outputLimit === 'max_tokens' && allowed('max_tokens');
  return {
    jsonMode,
    stream: streaming,
    reasoning,
    temperature: keyCheck || rule?.fixedTemperature || !allowed('temperature') ? null : TEMPERATURE,
    outputLimit: {
      name: useOwnName ? 'max_tokens' : 'max_completion_tokens',
      // The key check needs only the status, however the model spends its tokens.
      tokens: base + (thinks && !keyCheck ? REASONING_ALLOWANCE_TOKENS : 0),
    },
  };
}

export interface ChatMessage {
  role: 'system' | 'user';
  content: string;
}

/** The chat-completions body for a plan. */
export function requestBody(
  plan: RequestPlan,
  model: string,
  messages: readonly ChatMessage[],
): Record<string, unknown> {
  const body: Record<string, unknown> = { model, messages };
  if (plan.temperature !== null) body.temperature = plan.temperature;
  body[plan.outputLimit.name] = plan.outputLimit.tokens;
  if (plan.jsonMode) body.response_format = { type: 'json_object' };
  if (plan.stream) body.stream = true;
  if (plan.reasoning?.control === 'reasoning_effort') {
    body.reasoning_effort = plan.reasoning.effort;
  } else if (plan.reasoning) {
    body.reasoning = { effort: plan.reasoning.effort };
  }
  return body;
}

/** The words by which providers name each feature in a refusal, most specific first. */
const FEATURE_WORDS: readonly [ModelFeature, RegExp][] = [
  // First: Groq's "`response_format` does not support streaming" is about JSON mode, which
  // gives way so that the story can still stream.
  ['response_format', /response_format|json[_ ]?(mode|object|schema)|word 'json'/i],
  ['reasoning', /reasoning/i],
  ['temperature', /temperature/i],
  ['max_tokens', /max_tokens/i],
  // Not "upstream": a provider's own upstream failing is no refusal.
  ['stream', /\bstream(ing)?\b/i],
];

/** The request parameters by which providers name each feature in `error.param`. */
const FEATURE_PARAMS: Readonly<Record<string, ModelFeature>> = {
  response_format: 'response_format',
  stream: 'stream',
  reasoning_effort: 'reasoning',
  reasoning: 'reasoning',
  temperature: 'temperature',
  max_tokens: 'max_tokens',
};

const inPlan = (plan: RequestPlan, feature: ModelFeature): boolean =>
  ({
    response_format: plan.jsonMode,
    stream: plan.stream,
    reasoning: plan.reasoning !== null,
    temperature: plan.temperature !== null,
    max_tokens: plan.outputLimit.name === 'max_tokens',
  })[feature];

/**
 * The feature of this request that the provider refused (a 400 or 422 naming it, by its
 * `param` or in its message); null when the error is about something else, such as the model.
 */
export function refusedFeature(error: unknown, plan: RequestPlan): ModelFeature | null {
  if (!(error instanceof ProviderError) || (error.status !== 400 && error.status !== 422)) {
    return null;
  }
  // The parameter the provider names is the surest sign; then the model, then its words.
  const named = error.param === null ? undefined : FEATURE_PARAMS[error.param];
  if (named !== undefined) return inPlan(plan, named) ? named : null;
  if (error.isModelUnavailable) return null;
  const said = error.message;
  for (const [feature, words] of FEATURE_WORDS) {
    if (inPlan(plan, feature) && words.test(said)) return feature;
  }
  return null;
}

/**
 * Where a session's refusals are kept: per provider, endpoint and model, as requests are made
 * (the player's base URL where the preset takes one, a blank model as the default).
 */
export function capabilityKey(provider: ProviderPreset, baseUrl: string, model: string): string {
  return `${provider.id} ${baseUrlOf(provider, baseUrl)} ${modelOf(provider, model)}`;
}
