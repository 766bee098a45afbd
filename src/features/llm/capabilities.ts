/**
 * What one request to a provider asks for, decided from what the provider documents (the
 * preset) and from what it has refused before; and which feature a refusal names.
 * Plain functions over plain data: what refusals taught is kept with the settings
 * (settings/modelLessonLearned), by capabilityKey.
 */
import { ProviderError } from './errors';
import {
  REASONING_ALLOWANCE_TOKENS,
  baseUrlOf,
  familyOf,
  modelOf,
  type ModelFamily,
  type ProviderPreset,
} from './providers';

/** SPEC.md section 9. */
export const KEY_CHECK_MAX_TOKENS = 256;
export const GENERATION_MAX_TOKENS = 1000;
export const TEMPERATURE = 0.7;

/** The parts of a request a provider may refuse; each can be left out (or renamed) and retried. */
export type ModelFeature =
  'response_format' | 'stream' | 'stream_options' | 'reasoning' | 'temperature' | 'max_tokens';

/** Every feature a refusal can teach about: what a store of lessons may keep. */
export const MODEL_FEATURES: readonly ModelFeature[] = [
  'response_format',
  'stream',
  'stream_options',
  'reasoning',
  'temperature',
  'max_tokens',
];

/**
 * What a provider taught the game about one of its models by refusing a request (DESIGN.md,
 * "Model families, not model ids"): leave the feature out (max_tokens: send
 * max_completion_tokens instead), or, with `use`, send this value instead (a reasoning effort the
 * model takes, from the values its refusal listed).
 */
export interface ModelLesson {
  feature: ModelFeature;
  use?: string;
}

export interface RequestPlan {
  /** response_format {type: 'json_object'}. */
  jsonMode: boolean;
  /** stream: true (server-sent events). */
  stream: boolean;
  /** stream_options {include_usage: true}: a streamed reply ends with its usage. */
  streamUsage: boolean;
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
  /** What the provider taught about this model (its refusals), this session or before. */
  lessons?: readonly ModelLesson[];
  /** Asked again after a reply that was cut off (finish_reason 'length'): twice the room to think. */
  moreRoom?: boolean;
}

/** Reasoning efforts from least thinking to most, as providers name them. */
const EFFORT_ORDER = ['none', 'minimal', 'low', 'default', 'medium', 'high', 'xhigh', 'max'];

/**
 * The effort to ask for: what a refusal taught, else the family's lowest; for a model no family
 * names where such models reason (OpenAI's next family), 'low', which every reasoning family
 * there takes: left to its own default it would think past the room a reply has, every turn.
 * A model that takes no effort refuses it once and is asked without from then on. Null: none.
 */
function effortOf(
  provider: ProviderPreset,
  family: ModelFamily | null,
  lessons: readonly ModelLesson[],
): string | null {
  if (provider.reasoningControl === null) return null;
  const lesson = lessons.find((known) => known.feature === 'reasoning');
  if (lesson) return lesson.use ?? null;
  if (family === null) return provider.unknownModelsThink ? 'low' : null;
  return family.efforts?.[0] ?? null;
}

/** The room a reply gets to think in, at this effort: none for a model asked for none. */
function thinkingRoom(family: ModelFamily | null, effort: string | null): number {
  if (effort === 'none') return 0;
  if (family?.thinkingTokens !== undefined) return family.thinkingTokens;
  return effort !== null ? REASONING_ALLOWANCE_TOKENS : 0;
}

/**
 * The request to make. Streaming is preferred (the first words show sooner); where a provider
 * cannot stream and do JSON mode at once, JSON mode gives way and the client repairs the JSON.
 * The family decides the output limit's name, the effort (its lowest) and the temperature;
 * what the provider refused for this model before (lessons) overrides it.
 */
export function planRequest(
  provider: ProviderPreset,
  model: string,
  {
    keyCheck = false,
    stream = false,
    replyTokens,
    lessons = [],
    moreRoom = false,
  }: PlanOptions = {},
): RequestPlan {
  const allowed = (feature: ModelFeature) => !lessons.some((known) => known.feature === feature);
  const streaming = stream && !keyCheck && provider.supportsStreaming && allowed('stream');
  // Asked only of providers that send it on request alone; Mistral's API refuses the
  // parameter (a 422), which is then learnt like any other refusal.
  const streamUsage =
    streaming && provider.streamUsage === 'on-request' && allowed('stream_options');
  const jsonMode =
    !keyCheck &&
    provider.supportsJsonMode &&
    allowed('response_format') &&
    (!streaming || provider.jsonModeWhileStreaming);
  const family = familyOf(provider, model);
  const effort = effortOf(provider, family, lessons);
  const temperatureRule = family?.temperature ?? 'any';
  const sendsTemperature =
    !keyCheck &&
    allowed('temperature') &&
    (temperatureRule === 'any' || (temperatureRule === 'withoutThinking' && effort === 'none'));
  const tokenField = family?.tokenField ?? provider.outputLimit;
  const base = keyCheck ? KEY_CHECK_MAX_TOKENS : (replyTokens ?? GENERATION_MAX_TOKENS);
  const room = keyCheck ? 0 : thinkingRoom(family, effort) * (moreRoom ? 2 : 1);
  return {
    jsonMode,
    stream: streaming,
    streamUsage,
    reasoning:
      effort !== null && provider.reasoningControl
        ? { control: provider.reasoningControl, effort }
        : null,
    temperature: sendsTemperature ? TEMPERATURE : null,
    outputLimit: {
      name:
        tokenField === 'max_tokens' && allowed('max_tokens')
          ? 'max_tokens'
          : 'max_completion_tokens',
      // The key check needs only the status, however the model spends its tokens.
      tokens: base + room,
    },
  };
}

/**
 * The lowest of the values a refusal says the model takes ("Supported values are: 'none',
 * 'low', 'medium', and 'high'."), when it lists any the game knows.
 */
export function lowestSupportedEffort(message: string): string | null {
  const listed = /supported values (?:are|is)\s*:?\s*(.+)$/i.exec(message)?.[1] ?? '';
  const values = [...listed.matchAll(/'([^']+)'|"([^"]+)"/g)].map((m) => m[1] ?? m[2] ?? '');
  const known = values.filter((value) => EFFORT_ORDER.includes(value));
  known.sort((a, b) => EFFORT_ORDER.indexOf(a) - EFFORT_ORDER.indexOf(b));
  return known[0] ?? null;
}

/**
 * What a refusal of `feature` teaches: a reasoning effort the model does not take is replaced by
 * the lowest it lists (once: an effort it refuses again is left out); anything else is left out.
 */
export function lessonOf(error: unknown, feature: ModelFeature, plan: RequestPlan): ModelLesson {
  if (feature === 'reasoning' && error instanceof ProviderError) {
    const lowest = lowestSupportedEffort(error.message);
    if (lowest !== null && lowest !== plan.reasoning?.effort) return { feature, use: lowest };
  }
  return { feature };
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
  if (plan.streamUsage) body.stream_options = { include_usage: true };
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
  // Before 'stream': Mistral's 422 names body.stream_options.include_usage.
  ['stream_options', /stream_options|include_usage/i],
  // Not "upstream": a provider's own upstream failing is no refusal.
  ['stream', /\bstream(ing)?\b/i],
];

/** The request parameters by which providers name each feature in `error.param`. */
const FEATURE_PARAMS: Readonly<Record<string, ModelFeature>> = {
  response_format: 'response_format',
  stream: 'stream',
  stream_options: 'stream_options',
  reasoning_effort: 'reasoning',
  reasoning: 'reasoning',
  temperature: 'temperature',
  max_tokens: 'max_tokens',
};

const inPlan = (plan: RequestPlan, feature: ModelFeature): boolean =>
  ({
    response_format: plan.jsonMode,
    stream: plan.stream,
    stream_options: plan.streamUsage,
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
  // "Unsupported value: 'minimal' is not supported with the 'gpt-5.1' model": the refused
  // value names the parameter when neither `param` nor the words do.
  const effort = plan.reasoning?.effort;
  if (effort !== undefined && said.includes(`'${effort}'`)) return 'reasoning';
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
