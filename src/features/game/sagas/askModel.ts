/**
 * One request to the language model as the game makes it (SPEC.md section 7; DESIGN.md,
 * Language model): the player's provider and key, streaming where the preset allows, a reply
 * budget sized to the use, per-minute limits waited out for exactly as long as the answer says
 * (5 s only when it names no wait), dropped streams and unreadable replies asked again, every
 * wait shown to the player and taken on the saga context's clock (DESIGN.md, "State and side
 * effects"), and the fetch aborted when the saga is cancelled. A daily cap or a key without
 * credit ends the request at once: waiting would not help.
 */
import { channel, type Channel } from 'redux-saga';
import { call, cancelled, flush, fork, put, select, take } from 'typed-redux-saga';
import { fromContext } from './sagaContext';
import { wait } from '../../../shared/waits';
import { ModelReplyError, readReply } from '../../../engine/reply';
import type { Language } from '../../../engine/types';
import {
  RateLimitedError,
  ReplyCutOffError,
  baseUrlOf,
  RequestTooLargeError,
  StreamInterruptedError,
  capabilityKey,
  fieldReader,
  loadPrompts,
  promptsFor,
  modelOf,
  promptsLoaded,
  providerById,
  providerSessionActions,
  selectListedModels,
  selectMinuteLimit,
  tokensReserved,
  type ModelLesson,
  type ProviderSessionState,
  type TokenUsage,
} from '../../llm';
import type { CountedUsage } from '../cost/storyCost';
import { modelLessonLearned } from '../../settings';
import { gameActions, type GameState } from '../gameSlice';
import { markStoryReplyComplete, markStreamUpdateSent } from '../turnTiming';

/** SPEC.md section 8: the opening is retried 5 times, its summary 10, the rest without limit. */
export const RETRY_LIMITS = { opening: 5, openingSummary: 10, unlimited: Infinity } as const;

/** The longest pause before asking again after a dropped reply (1 s, 2 s, 4 s, 8 s, ...). */
export const MAX_INTERRUPTED_PAUSE_MS = 8000;

/**
 * Unreadable replies are asked for again at once this many times; after that with growing
 * pauses the player sees (2 s, 4 s, 8 s, ... up to 30 s), never a tight loop that burns a free
 * tier's requests (DESIGN.md, "Free tiers first").
 */
export const IMMEDIATE_UNREADABLE_RETRIES = 3;
export const MAX_UNREADABLE_PAUSE_MS = 30_000;

/** The pause before asking again after the n-th unreadable reply in a row (0: at once). */
export function unreadablePause(unreadable: number): number {
  const beyond = unreadable - IMMEDIATE_UNREADABLE_RETRIES;
  return beyond <= 0 ? 0 : Math.min(1000 * 2 ** beyond, MAX_UNREADABLE_PAUSE_MS);
}

/**
 * Added to a wait the provider named, so that the next request comes after the stated time
 * and two tabs do not ask at the same instant: 100 ms, and up to 400 ms more at random.
 */
export const RATE_LIMIT_JITTER_MS = { min: 100, spread: 400 } as const;

/** A wait the answer named, with its jitter; the spec's 5 s when it named none. */
export function rateLimitWait(error: RateLimitedError, roll: number): number {
  if (!error.waitNamed) return error.retryAfterMs;
  return (
    error.retryAfterMs + RATE_LIMIT_JITTER_MS.min + Math.round(roll * RATE_LIMIT_JITTER_MS.spread)
  );
}

export class RetriesExhaustedError extends Error {
  constructor() {
    super('Max retry attempts reached, unable to fetch data.');
    this.name = 'RetriesExhaustedError';
  }
}

/** The story context a prompt keeps when the provider said it was too large (a 413). */
export const TRIMMED_CONTEXT_BUDGET = 120;

interface AskOptions {
  /** How many unreadable replies to ask again for before giving up. */
  retries: number;
  /** Whether a parsed reply has what the game needs (e.g. a segment with options); one that
   * has not counts as unreadable. */
  accept?: (reply: Record<string, unknown>) => boolean;
  /** A text field of the reply to show while it streams (storyStart, storySegment). */
  streamField?: string;
  /** The most the reply needs, in tokens (the prompt's REPLY_TOKENS). */
  replyTokens?: number;
  /**
   * The same prompt with its story context trimmed: asked once when the provider answers that
   * the request is too large for it (a 413), before telling the player.
   */
  trimmed?: () => string;
}

interface ModelSettings {
  language: Language;
  provider: string;
  model: string;
  baseUrl: string;
  apiKey: string;
  /** Where the game keeps what this provider taught about this model (capabilityKey). */
  capability: string;
  /** What the provider taught about this model by refusing earlier requests. */
  lessons: readonly ModelLesson[];
}

const NOTHING_LEARNT: readonly ModelLesson[] = [];

export const selectModelSettings = (state: {
  settings: Omit<ModelSettings, 'apiKey' | 'capability' | 'lessons'> & {
    modelLessons?: Record<string, ModelLesson[]>;
  };
  game: GameState;
}): ModelSettings => {
  const { language, provider, model, baseUrl, modelLessons } = state.settings;
  const capability = capabilityKey(providerById(provider), baseUrl, model);
  return {
    language,
    provider,
    model,
    baseUrl,
    apiKey: state.game.apiKey,
    capability,
    lessons: modelLessons?.[capability] ?? NOTHING_LEARNT,
  };
};

/**
 * The prompts of `language`: at once when they are here (English always is), so a request
 * starts in the same step as before; Korean's are fetched by the first Korean game.
 */
function* promptsOf(language: Language) {
  return promptsLoaded(language) ? promptsFor(language) : yield* call(loadPrompts, language);
}

/** The prompts of the interface language (SPEC.md section 1). */
export function* currentPrompts() {
  const { language } = yield* select(selectModelSettings);
  return yield* promptsOf(language);
}

/** What a request reports while it runs, passed from the client's callbacks to the store. */
type RequestEvent =
  | { kind: 'narrative'; text: string }
  | { kind: 'reasoning' }
  | { kind: 'lesson'; lesson: ModelLesson }
  | { kind: 'minuteLimit'; tokensPerMinute: number };

/**
 * What the provider session knows (its model list, a stated limit), or null for a game played
 * without the session's slice (a test's own state): nothing to price or compare by.
 */
const fromSession =
  <T>(selector: (state: { providerSession: ProviderSessionState }) => T) =>
  (state: { providerSession?: ProviderSessionState }): T | null =>
    state.providerSession ? selector({ providerSession: state.providerSession }) : null;

/**
 * The settings as the provider's list and limits name them: its server's address and the model
 * that plays (a blank setting is the preset's own).
 */
function asListed({
  provider,
  baseUrl,
  model,
}: Pick<ModelSettings, 'provider' | 'baseUrl' | 'model'>) {
  const preset = providerById(provider);
  return { provider, baseUrl: baseUrlOf(preset, baseUrl), model: modelOf(preset, model) };
}

/** The provider stated its per-minute token limit for this model (MinuteBudget, WaitMessage). */
export function* minuteLimitRead(
  settings: Pick<ModelSettings, 'provider' | 'baseUrl' | 'model'>,
  tokensPerMinute: number,
) {
  const stated = { ...asListed(settings), tokensPerMinute };
  // Every answer may state it: only a new figure is news.
  const known = yield* select(fromSession(selectMinuteLimit));
  if (
    known &&
    Object.entries(stated).every(([key, value]) => known[key as keyof typeof stated] === value)
  )
    return;
  yield* put(providerSessionActions.minuteLimitRead(stated));
}

/**
 * How often the narrative being written is shown anew: a few words at a time rather than at
 * every token. Each update is a frame of work for the page (render, layout, paint, about 13 ms
 * on a phone's slower CPU); a frame per token kept the main thread busy for a third of the
 * turn. At a model's 40 tokens a second an update brings four or five words, still
 * several times faster than anyone reads; a slow local model's words come one or two at a time.
 */
export const STREAM_UPDATE_SPACING_MS = 150;

/**
 * Puts a request's progress in the store: a refused feature at once (so that the session does
 * not ask for it again), 'thinking' once while a reasoning model thinks (when the request
 * streams a narrative), and the narrative as it streams: its first words at the next frame
 * the page paints, then at most once every STREAM_UPDATE_SPACING_MS, each at a frame (one
 * `segmentStreamed` action for however many tokens came in between).
 */
function* reportProgress(
  events: Channel<RequestEvent>,
  settings: ModelSettings,
  showsThinking: boolean,
) {
  const { capability } = settings;
  const clock = yield* fromContext('clock');
  let toldThinking = false;
  let shownAt: number | null = null;
  /** Reports what cannot wait for a frame; returns the narrative of a narrative event. */
  function* report(event: RequestEvent) {
    if (event.kind === 'lesson') {
      yield* put(modelLessonLearned({ key: capability, lesson: event.lesson }));
    } else if (event.kind === 'minuteLimit') {
      yield* call(minuteLimitRead, settings, event.tokensPerMinute);
    } else if (showsThinking && event.kind === 'reasoning' && !toldThinking) {
      toldThinking = true;
      yield* put(gameActions.reasoningStreamed());
    }
    return event.kind === 'narrative' ? event.text : null;
  }
  while (true) {
    let text = yield* call(report, yield* take(events));
    if (text === null) continue;
    const due = shownAt === null ? 0 : shownAt + STREAM_UPDATE_SPACING_MS - clock.now();
    yield* call([clock, clock.nextFrame], Math.max(0, due));
    // What arrived while the update was due is shown with it: the latest narrative.
    const later = yield* flush(events);
    if (Array.isArray(later))
      for (const event of later) text = (yield* call(report, event)) ?? text;
    shownAt = clock.now();
    yield* call(markStreamUpdateSent);
    yield* put(gameActions.segmentStreamed(text));
  }
}

/**
 * The client's text callback for a request that streams a narrative: the narrative so far,
 * read from the new text only (a frame costs the same at turn 100 as at turn 10), put in the
 * channel only when it has changed. The JSON around it, and the options after it, wake no
 * saga.
 */
function narrativeEvents(field: string, events: Channel<RequestEvent>) {
  const narrative = fieldReader(field);
  let told = '';
  return (text: string) => {
    const soFar = narrative.read(text);
    if (soFar === '' || soFar === told) return;
    told = soFar;
    events.put({ kind: 'narrative', text: soFar });
  };
}

/**
 * A reply that is not valid JSON as written, mended: jsonrepair comes with the code that does
 * it, fetched the first time a reply needs it (most replies never do).
 */
async function mendedReply(text: string): Promise<Record<string, unknown>> {
  const { parseModelReply } = await import(
    /* webpackChunkName: "reply-repair" */ '../../../engine/replyRepair'
  );
  return parseModelReply(text);
}

/**
 * A request's usage with its price: the provider's own reported cost, else its model list's
 * price for this model (OpenRouter publishes one), else none. Nowhere is a price invented.
 */
function* priced(settings: ModelSettings, usage: TokenUsage | null) {
  if (usage === null) return null;
  const listed = yield* select(fromSession(selectListedModels));
  const { source } = listed ?? {};
  const playing = asListed(settings);
  const price =
    source?.provider === playing.provider && source.baseUrl === playing.baseUrl
      ? listed?.models.find((model) => model.id === playing.model)?.price
      : undefined;
  const costUsd =
    usage.costUsd ??
    (price
      ? usage.promptTokens * price.promptUsdPerToken + usage.replyTokens * price.replyUsdPerToken
      : null);
  const counted: CountedUsage = { ...usage, costUsd };
  return counted;
}

/** One HTTP request, aborted if the saga is cancelled while it runs. */
function* requestOnce(
  settings: ModelSettings,
  prompt: string,
  { streamField, replyTokens }: Pick<AskOptions, 'streamField' | 'replyTokens'>,
  moreRoom = false,
) {
  const controller = new AbortController();
  const model = yield* fromContext('model');
  const clock = yield* fromContext('clock');
  const provider = providerById(settings.provider);
  const { systemPrompt } = yield* promptsOf(settings.language);
  const events = channel<RequestEvent>();
  const reporter = yield* fork(reportProgress, events, settings, Boolean(streamField));
  // The turn the request is made for: a summary that comes in after the next choice was made
  // is still its own turn's.
  const turn = yield* select((state: { game: GameState }) => state.game.story.turnCount);
  let usage = null as TokenUsage | null;
  let counted = false;
  function* count() {
    counted = true;
    yield* put(gameActions.tokensCounted({ turn, usage: yield* call(priced, settings, usage) }));
  }
  try {
    const text = yield* call([model, model.complete], {
      provider,
      baseUrl: settings.baseUrl,
      apiKey: settings.apiKey,
      model: settings.model,
      lessons: settings.lessons,
      system: systemPrompt,
      prompt,
      stream: Boolean(streamField),
      replyTokens,
      moreRoom,
      signal: controller.signal,
      now: () => clock.now(),
      onLesson: (lesson: ModelLesson) => events.put({ kind: 'lesson', lesson }),
      onText: streamField ? narrativeEvents(streamField, events) : undefined,
      onReasoning: () => events.put({ kind: 'reasoning' }),
      onUsage: (reported: TokenUsage) => {
        usage = reported;
      },
      onMinuteLimit: (tokensPerMinute: number) =>
        events.put({ kind: 'minuteLimit', tokensPerMinute }),
    });
    yield* call(count);
    return text;
  } catch (error) {
    // A reply that came whole and was then refused (cut off by its output limit) was paid for.
    if (usage !== null && !counted) yield* call(count);
    throw error;
  } finally {
    // The reporter ends with the channel (the client's callbacks have each been put by now).
    events.close();
    if (yield* cancelled()) {
      reporter.cancel();
      controller.abort();
    }
  }
}

/** What the request about to be made again reserves of a per-minute budget (reservation.ts). */
function* reservedBy(prompt: string, { streamField, replyTokens }: AskOptions, moreRoom: boolean) {
  const settings = yield* select(selectModelSettings);
  const { systemPrompt } = yield* promptsOf(settings.language);
  const provider = providerById(settings.provider);
  return tokensReserved({
    provider,
    model: modelOf(provider, settings.model),
    lessons: settings.lessons,
    system: systemPrompt,
    prompt,
    stream: Boolean(streamField),
    replyTokens,
    moreRoom,
  });
}

/**
 * Asks the model and returns its reply as an object. Per-minute limits and dropped streams are
 * waited out and retried without limit; unreadable replies up to `retries` times; a request
 * too large once more with a trimmed prompt. Other failures (a daily cap, no credit, a
 * provider error, no network) are thrown for the caller to show.
 */
export function* askModel(firstPrompt: string, options: AskOptions) {
  const { retries, streamField, accept, trimmed } = options;
  let prompt = firstPrompt;
  let unreadable = 0;
  let waits = 0;
  let dropped = 0;
  let cutOff = false;
  let trimmedOnce = false;
  while (true) {
    try {
      // Read each time: a parameter refused on the last attempt is not asked for again.
      const settings = yield* select(selectModelSettings);
      const text = yield* call(requestOnce, settings, prompt, options, cutOff);
      // A story reply is in: the turn's client work starts here (turnTiming.ts).
      if (streamField) yield* call(markStoryReplyComplete);
      const reply = readReply(text) ?? (yield* call(mendedReply, text));
      if (accept && !accept(reply)) throw new ModelReplyError('unparseable');
      return reply;
    } catch (error) {
      if (error instanceof RateLimitedError) {
        waits += 1;
        const backoff = rateLimitWait(error, (yield* fromContext('random'))());
        yield* put(
          gameActions.turnRetryScheduled({
            reason: 'rateLimited',
            attempt: waits,
            retryAt: (yield* fromContext('clock')).now() + backoff,
            // What it reserves, where the limit counts tokens (not requests).
            ...(error.metric !== 'requests' && {
              reserves: yield* call(reservedBy, prompt, options, cutOff),
            }),
          }),
        );
        yield* call(wait, backoff);
      } else if (error instanceof RequestTooLargeError && trimmed && !trimmedOnce) {
        trimmedOnce = true;
        prompt = trimmed();
      } else if (error instanceof StreamInterruptedError) {
        waits += 1;
        dropped += 1;
        // A provider that keeps dropping is asked again after 1 s, 2 s, 4 s, then every 8 s.
        const pause = Math.min(1000 * 2 ** (dropped - 1), MAX_INTERRUPTED_PAUSE_MS);
        yield* put(
          gameActions.turnRetryScheduled({
            reason: 'interrupted',
            attempt: waits,
            retryAt: (yield* fromContext('clock')).now() + pause,
          }),
        );
        yield* call(wait, pause);
      } else if (error instanceof ReplyCutOffError && !cutOff) {
        // Cut off by its output limit: asked once more with twice the room to think; a second
        // cut-off is told to the player (the half reply is never stored).
        cutOff = true;
        waits += 1;
        yield* put(
          gameActions.turnRetryScheduled({ reason: 'cutOff', attempt: waits, retryAt: null }),
        );
      } else if (error instanceof ModelReplyError) {
        unreadable += 1;
        if (unreadable > retries) throw new RetriesExhaustedError();
        const pause = unreadablePause(unreadable);
        const clock = yield* fromContext('clock');
        yield* put(
          gameActions.turnRetryScheduled({
            reason: 'unreadableReply',
            attempt: unreadable,
            retryAt: pause === 0 ? null : clock.now() + pause,
          }),
        );
        if (pause > 0) yield* call(wait, pause);
      } else {
        throw error;
      }
    }
  }
}
