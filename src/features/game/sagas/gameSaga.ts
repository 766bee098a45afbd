/**
 * The game's flows (SPEC.md section 4, Game flow): the key check, the opening (character
 * profile, opening scene with its summary), each turn (the game rolls the outcome and the
 * scenario type, then the model writes the segment and its summary in one reply; from turn 7
 * it may end the story), and the recap with the ending score. The spec's separate gender and
 * summary requests are only fallbacks for a reply that leaves those fields out (DESIGN.md,
 * one request per turn), so a whole game fits a free tier's minute.
 */
import type { UnknownAction } from '@reduxjs/toolkit';
import {
  call,
  delay,
  getContext,
  put,
  race,
  select,
  take,
  takeLatest,
  takeLeading,
} from 'typed-redux-saga';
import { normalizeOptions } from '../../../engine/options';
import { rollOutcome } from '../../../engine/outcome';
import { pickText } from '../../../engine/reply';
import { chooseScenarioType } from '../../../engine/scenario';
import { endingScore } from '../../../engine/score';
import type { ScoreBreakdown, StoryOption } from '../../../engine/types';
import {
  RateLimitedError,
  baseUrlOf,
  capabilityKey,
  chatModelsOf,
  checkApiKey,
  connectOriginOf,
  connectStep,
  fetchModelList,
  isAbortError,
  modelOf,
  providerById,
  providerSessionActions,
  reloadToAllow,
  settleModel,
  type ConnectPage,
  type ModelFeature,
  type ModelPreset,
  type ProviderPreset,
} from '../../llm';
import { REPLY_TOKENS, type CharacterSketch } from '../../llm/prompts';
import { modelSettingsChosen } from '../../settings';
import {
  API_KEY_STORAGE_KEY,
  canChoose,
  gameActions,
  type GameState,
  type KeyErrorCode,
  type Problem,
  type ResolvedChoice,
} from '../gameSlice';
import { scoreComputed, type PlayerStatsState } from '../playerStatsSlice';
import { RETRY_LIMITS, askModel, currentPrompts, randomSource } from './askModel';
import { KeyCheckTimeoutError, problemOf } from './problems';

/** How long the key check may take before the player is told it failed. */
export const KEY_CHECK_TIMEOUT_MS = 30_000;

/** SPEC.md section 4: from turn 7 every turn asks the model whether to conclude. */
export const FIRST_ENDING_TURN = 7;

/** The story context a prompt keeps when the provider said it was too large (a 413). */
export const TRIMMED_CONTEXT_BUDGET = 120;

interface State {
  game: GameState;
  playerStats: PlayerStatsState;
  settings: { provider: string; model: string; baseUrl: string };
  wallet: { status: string; address: string | null };
}

const selectState = (state: State) => state;

/** The cause of a failed request, for the player (DESIGN.md: errors in the interface language). */
function* problemWith(error: unknown) {
  const { settings } = yield* select(selectState);
  const provider = providerById(settings.provider);
  return problemOf(error, { provider, model: settings.model, now: Date.now() });
}

// ---- The key check (SPEC.md sections 5 and 7), with the provider's own model list ----

/** What the key screen says for each cause of a refused key check. */
const KEY_ERROR_OF: Partial<Record<Problem['reason'], KeyErrorCode>> = {
  invalidApiKey: 'invalidApiKey',
  modelUnavailable: 'modelUnavailable',
  providerUnreachable: 'providerUnreachable',
  noCredit: 'noCredit',
  dailyLimit: 'dailyLimit',
};

interface KeyCheck {
  provider: ProviderPreset;
  baseUrl: string;
  apiKey: string;
  model: string;
  signal: AbortSignal;
  fetch?: typeof fetch;
}

/**
 * The provider's own list of chat models, read with the player's key. Without a readable list
 * (a local server without /models, a key not allowed to list models, a network hiccup) the
 * built-in list stays, and the chat check that follows decides about the key.
 */
function* readModelList(check: KeyCheck) {
  try {
    const answer = yield* call(fetchModelList, check);
    const models = chatModelsOf(check.provider, answer);
    const baseUrl = baseUrlOf(check.provider, check.baseUrl);
    yield* put(
      providerSessionActions.modelsListed({ provider: check.provider.id, baseUrl, models }),
    );
    return models;
  } catch (error) {
    if (isAbortError(error)) throw error;
    yield* put(providerSessionActions.modelListUnavailable());
    return [] as ModelPreset[];
  }
}

/**
 * The model list first, so that a saved model the provider has retired is replaced by the
 * curated default (with a notice) before anything is asked of it; then the spec's key check
 * with that model. A key at a per-minute limit is a valid key: the game waits those out on its
 * own. A key without credit is refused, and so is a model at its daily cap (the key works,
 * but nothing can be played with this model until it resets): both are thrown.
 */
function* checkKeyAndModel(check: KeyCheck) {
  const listed = yield* call(readModelList, check);
  const { model, replaced } = settleModel(check.provider, check.model, listed);
  if (replaced) {
    yield* put(
      providerSessionActions.modelReplaced({
        provider: check.provider.id,
        from: modelOf(check.provider, check.model),
        to: model,
      }),
    );
    yield* put(modelSettingsChosen({ provider: check.provider.id, model, baseUrl: check.baseUrl }));
  }
  const refused: ModelFeature[] = [];
  const capability = capabilityKey(check.provider, check.baseUrl, model);
  // NoCreditError and DailyLimitError are limits too, but not ones a player can wait out.
  try {
    yield* call(checkApiKey, {
      ...check,
      model,
      onFeatureRefused: (feature: ModelFeature) => refused.push(feature),
    });
  } catch (error) {
    if (!(error instanceof RateLimitedError)) throw error;
  } finally {
    for (const feature of refused) {
      yield* put(providerSessionActions.featureRefused({ key: capability, feature }));
    }
  }
}

function* checkKey({ payload: apiKey }: ReturnType<typeof gameActions.apiKeySubmitted>) {
  const { settings, wallet } = yield* select(selectState);
  const provider = providerById(settings.provider);
  const key = apiKey.trim();
  if (wallet.status !== 'verified') {
    yield* put(gameActions.apiKeyRejected({ error: 'walletNotVerified' }));
    return;
  }
  if (key === '' && provider.requiresKey) {
    yield* put(gameActions.apiKeyRejected({ error: 'emptyApiKey' }));
    return;
  }
  // The page's Content-Security-Policy names the hosts it may call; a Custom or Local server
  // elsewhere is added by reloading the page once, after which the key screen submits this
  // check again (src/features/llm/connectPolicy.ts).
  const page = yield* getContext<ConnectPage | undefined>('connectPage');
  const origin = connectOriginOf(baseUrlOf(provider, settings.baseUrl));
  if (page && origin && (yield* call(connectStep, page, origin)) === 'reload') {
    const { baseUrl, model } = settings;
    yield* call(reloadToAllow, page, origin, {
      provider: provider.id,
      model,
      baseUrl,
      apiKey: key,
    });
    return; // 'Verifying...' until the page reloads
  }
  const controller = new AbortController();
  try {
    const fetchImpl = yield* getContext<typeof fetch | undefined>('fetch');
    const { timedOut } = yield* race({
      checked: call(checkKeyAndModel, {
        provider,
        baseUrl: settings.baseUrl,
        apiKey: key,
        model: settings.model,
        signal: controller.signal,
        ...(fetchImpl && { fetch: fetchImpl }),
      }),
      // A provider that never answers must not leave the form 'Verifying...' for good.
      timedOut: delay(KEY_CHECK_TIMEOUT_MS),
    });
    if (timedOut) {
      controller.abort();
      throw new KeyCheckTimeoutError(KEY_CHECK_TIMEOUT_MS / 1000);
    }
    const storage = yield* getContext<Storage | undefined>('storage');
    storage?.setItem(API_KEY_STORAGE_KEY, key);
    yield* put(gameActions.apiKeyAccepted(key));
  } catch (error) {
    const problem = yield* call(problemWith, error);
    yield* put(
      gameActions.apiKeyRejected({
        error: KEY_ERROR_OF[problem.reason] ?? 'keyCheckFailed',
        detail: problem,
      }),
    );
  }
}

// ---- The opening (SPEC.md section 4: profile, opening scene, its summary) ----

const sketchOf = (game: GameState): CharacterSketch => ({
  name: game.chosenCharacter,
  gender: game.characterGender,
  bio: game.characterBio,
  traits: game.characterTraits,
});

/** What each reply must hold for the game to go on; anything less is asked for again. */
const has =
  (...fields: string[]) =>
  (reply: Record<string, unknown>) =>
    fields.every((field) => pickText(reply, field) !== '');
const withOptions = (field: string) => (reply: Record<string, unknown>) =>
  has(field)(reply) && normalizeOptions(reply.options).length > 0;
const segmentOrEnding = (reply: Record<string, unknown>) =>
  reply.isFinal === true || reply.isFinal === 'true'
    ? has('storySegment')(reply)
    : withOptions('storySegment')(reply);

const stringList = (value: unknown): string[] =>
  Array.isArray(value)
    ? value.filter((item): item is string => typeof item === 'string' && item.trim() !== '')
    : [];

const GENDERS = ['male', 'female', 'non-binary'];

/**
 * SPEC.md section 3: the character profile, its gender read from the name. The profile reply
 * carries the gender; the spec's separate gender request is only its fallback.
 */
function* writeCharacterProfile(game: GameState) {
  const prompts = yield* currentPrompts();
  const name = game.chosenCharacter;
  const profile = yield* call(
    askModel,
    prompts.characterProfile({ name, genre: game.chosenGenre }),
    {
      retries: RETRY_LIMITS.opening,
      replyTokens: REPLY_TOKENS.characterProfile,
      accept: has('characterBio'),
    },
  );
  let gender = pickText(profile, 'characterGender').toLowerCase();
  if (!GENDERS.includes(gender)) {
    const named = yield* call(askModel, prompts.genderFromName({ name }), {
      retries: RETRY_LIMITS.opening,
      replyTokens: REPLY_TOKENS.genderFromName,
      accept: has('gender'),
    });
    gender = pickText(named, 'gender');
  }
  yield* put(
    gameActions.characterProfileReceived({
      gender,
      bio: pickText(profile, 'characterBio'),
      traits: stringList(profile.characterQuirks).slice(0, 5),
      facialFeatures: stringList(profile.characterFacialFeatures).slice(0, 5),
    }),
  );
}

function* writeOpening() {
  const prompts = yield* currentPrompts();
  let { game } = yield* select(selectState);
  try {
    if (!game.characterBio) {
      yield* call(writeCharacterProfile, game);
      game = (yield* select(selectState)).game;
    }
    // SPEC.md section 4: 25 percent for each of traits, bio and image that exist.
    const parts = [game.characterTraits.length > 0, game.characterBio !== '', game.chosenImage > 0];
    yield* put(gameActions.openingProgressed(25 * parts.filter(Boolean).length));

    const opening = yield* call(
      askModel,
      prompts.openingScene({ character: sketchOf(game), genre: game.chosenGenre }),
      {
        retries: RETRY_LIMITS.opening,
        streamField: 'storyStart',
        replyTokens: REPLY_TOKENS.openingScene,
        accept: withOptions('storyStart'),
      },
    );
    const storyStart = pickText(opening, 'storyStart');
    yield* put(
      gameActions.openingReceived({ storyStart, options: normalizeOptions(opening.options) }),
    );

    // The opening's summary rides in its reply; the spec's own request is the fallback.
    let summary = pickText(opening, 'newStorySummary');
    if (summary === '') {
      const reply = yield* call(
        askModel,
        prompts.openingSummary({
          characterName: game.chosenCharacter,
          genre: game.chosenGenre,
          storyStart,
        }),
        {
          retries: RETRY_LIMITS.openingSummary,
          replyTokens: REPLY_TOKENS.openingSummary,
          accept: has('newStorySummary'),
        },
      );
      summary = pickText(reply, 'newStorySummary');
    }
    yield* put(gameActions.openingSummaryReceived(summary));
  } catch (error) {
    if (isAbortError(error)) return;
    yield* put(gameActions.turnFailed(yield* call(problemWith, error)));
  }
}

// ---- A turn (SPEC.md section 4; the rules stay with the game) ----

/** The option picked, or the player's own words: medium risk, neutral, no trait (issue 5). */
function chosenOption(game: GameState, choice: { index: number } | { text: string }) {
  if ('index' in choice) return { option: game.options[choice.index], freeText: false };
  const text = choice.text.trim();
  if (text === '') return { option: undefined, freeText: true };
  const option: StoryOption = { text, risk: 'medium', alignment: 'neutral', traitAlignment: '' };
  return { option, freeText: true };
}

function* resolveChoice({ payload }: ReturnType<typeof gameActions.choiceMade>) {
  const { game, playerStats } = yield* select(selectState);
  if (!canChoose(game)) return;
  const { option, freeText } = chosenOption(game, payload);
  if (!option) return;
  const rng = yield* randomSource();
  // The turn this choice plays, for every rule and the prompt alike (SPEC.md section 4).
  const turn = game.turnCount + 1;
  const outcome = rollOutcome(
    {
      risk: option.risk,
      traitConsistency: playerStats.playerStats.traitConsistency,
      turnCount: turn,
      recentOutcomes: game.outcomes,
    },
    rng,
  );
  const scenarioType = chooseScenarioType(
    {
      turnCount: turn,
      playerStats: playerStats.playerStats,
      scenarioHistory: game.scenarioHistory,
      moralChoices: game.moralChoices,
    },
    rng,
  );
  const resolved: ResolvedChoice = {
    turn,
    option,
    freeText,
    outcome,
    scenarioType,
    outcomesSoFar: [...game.outcomes, outcome],
  };
  yield* put(gameActions.choiceSubmitted(resolved));
  yield* call(cancellable, playTurn, resolved);
}

/** Try again: the recap when the story had ended, else the failed turn's segment. */
function* retryTurn() {
  const { game } = yield* select(selectState);
  if (!game.lastChoice || !game.isLoading) return;
  yield* call(cancellable, game.isFinal ? retryRecap : playTurn, game.lastChoice);
}

function* retryRecap(): Generator {
  const { game } = yield* select(selectState);
  try {
    yield* call(writeRecap, game.previousParagraph);
  } catch (error) {
    if (!isAbortError(error)) yield* put(gameActions.turnFailed(yield* call(problemWith, error)));
  }
}

/** Cancel on the overlay, Return to Home and Start New Game stop a turn and its waits. */
function* cancellable(work: (choice: ResolvedChoice) => Generator, choice: ResolvedChoice) {
  yield* race({
    done: call(work, choice),
    cancelled: take([
      gameActions.waitCancelled.type,
      gameActions.returnedHome.type,
      gameActions.newGameStarted.type,
    ]),
  });
}

/** Leaving the story: a summary still being written for it is no longer wanted. */
const LEAVING_THE_STORY = [
  gameActions.returnedHome.type,
  gameActions.newGameStarted.type,
  gameActions.savedStoryResumed.type,
];

/**
 * The last segment's summary, if it is still being written: the next prompt carries it
 * (SPEC.md section 7, the story context). Cancel still stops this wait (cancellable).
 */
function* summaryOfLastSegment() {
  while ((yield* select(selectState)).game.summaryPending) {
    yield* take(gameActions.segmentSummarized.type);
  }
}

/**
 * Writes the latest segment's summary behind the options when its reply left it out: a flow of
 * its own, apart from the turn (the next choice may come while it is written). It stops if the
 * player leaves the story.
 */
function* summarizeBehindOptions() {
  const { game } = yield* select(selectState);
  const choice = game.lastChoice;
  if (!choice || !game.summaryPending) return;
  const text = game.previousParagraph;
  try {
    yield* race({
      summarized: call(writeSummary, game, choice, text),
      left: take(LEAVING_THE_STORY),
    });
  } catch (error) {
    // Nothing else would hear of it, and the next turn waits for this summary.
    if (isAbortError(error)) return;
    yield* put(gameActions.segmentSummarized(fallbackSummary(text)));
  }
}

function* playTurn(choice: ResolvedChoice): Generator {
  yield* call(summaryOfLastSegment);
  const prompts = yield* currentPrompts();
  const { game, playerStats } = yield* select(selectState);
  const input = {
    character: sketchOf(game),
    genre: game.chosenGenre,
    summaries: game.storySummary,
    previousParagraph: game.previousParagraph,
    choice: choice.option,
    outcome: choice.outcome,
    scenarioType: choice.scenarioType,
    turnCount: choice.turn,
    playerStats: playerStats.playerStats,
  };
  const mayEnd = choice.turn >= FIRST_ENDING_TURN;
  const use = mayEnd ? 'conclusionCheck' : 'nextSegment';
  try {
    const reply = yield* call(askModel, prompts[use](input), {
      retries: RETRY_LIMITS.unlimited,
      streamField: 'storySegment',
      replyTokens: REPLY_TOKENS[use],
      trimmed: () => prompts[use]({ ...input, contextBudget: TRIMMED_CONTEXT_BUDGET }),
      // Before turn 7 a reply must go on with options, whatever it says about ending.
      accept: mayEnd ? segmentOrEnding : withOptions('storySegment'),
    });
    const text = pickText(reply, 'storySegment');
    const isFinal = mayEnd && (reply.isFinal === true || reply.isFinal === 'true');
    yield* put(
      gameActions.segmentReceived({ text, options: normalizeOptions(reply.options), isFinal }),
    );

    // The summary rides in the reply (DESIGN.md: one request per turn); the spec's separate
    // summary request is the fallback, written behind the options unless the story ended.
    const summary = pickText(reply, 'storySummary');
    if (summary !== '') yield* put(gameActions.segmentSummarized(summary));
    else if (!isFinal) yield* put(gameActions.summaryMissing());
    else yield* call(writeSummary, game, choice, text);
    // The recap reads every summary, this one's too.
    if (isFinal) yield* call(writeRecap, text);
  } catch (error) {
    if (isAbortError(error)) return;
    yield* put(gameActions.turnFailed(yield* call(problemWith, error)));
  }
}

/** Words of a segment kept as its summary when the model cannot give one. */
const FALLBACK_SUMMARY_WORDS = 40;
const fallbackSummary = (text: string) =>
  text.split(/\s+/).slice(0, FALLBACK_SUMMARY_WORDS).join(' ');

/**
 * The segment's summary (SPEC.md section 7). Summaries are only the story's context, so a
 * provider failure here does not fail the turn: the segment's first 40 words stand in.
 */
function* summarize(game: GameState, choice: ResolvedChoice, text: string) {
  const prompts = yield* currentPrompts();
  try {
    const summary = yield* call(
      askModel,
      prompts.segmentSummary({
        characterName: game.chosenCharacter,
        choiceText: choice.option.text,
        storySegment: text,
      }),
      {
        retries: RETRY_LIMITS.unlimited,
        replyTokens: REPLY_TOKENS.segmentSummary,
        accept: has('storySummary'),
      },
    );
    return pickText(summary, 'storySummary');
  } catch (error) {
    if (isAbortError(error)) throw error;
    return fallbackSummary(text);
  }
}

function* writeSummary(game: GameState, choice: ResolvedChoice, text: string) {
  const summary = yield* summarize(game, choice, text);
  yield* put(gameActions.segmentSummarized(summary));
}

// ---- The recap and the score (SPEC.md sections 3 and 9) ----

const percent = (value: unknown) => {
  const number = Math.round(Number(value));
  return Number.isFinite(number) ? Math.min(100, Math.max(0, number)) : 0;
};

function* writeRecap(finalParagraph: string) {
  const prompts = yield* currentPrompts();
  const { game, playerStats } = yield* select(selectState);
  const input = {
    character: sketchOf(game),
    genre: game.chosenGenre,
    summaries: game.storySummary,
    finalParagraph,
    turnCount: game.turnCount,
    playerStats: playerStats.playerStats,
    moralChoices: game.moralChoices,
    outcomes: game.outcomes,
  };
  const reply = yield* call(askModel, prompts.recap(input), {
    retries: RETRY_LIMITS.unlimited,
    replyTokens: REPLY_TOKENS.recap,
    trimmed: () => prompts.recap({ ...input, contextBudget: TRIMMED_CONTEXT_BUDGET }),
    accept: has('wrapUpParagraph'),
  });
  const breakdown = (reply.scoreBreakdown ?? {}) as Record<string, unknown>;
  const scoreBreakdown: ScoreBreakdown = {
    decisions: percent(breakdown.decisions),
    consistency: percent(breakdown.consistency),
    creativity: percent(breakdown.creativity),
    morality: percent(breakdown.morality),
  };
  const endingType = pickText(reply, 'endingType') || 'Bittersweet Resolution';
  const { score } = endingScore({
    scoreBreakdown,
    turnCount: game.turnCount,
    successRate: playerStats.playerStats.successRate,
    endingType,
  });
  yield* put(scoreComputed({ scoreBreakdown, score }));
  yield* put(
    gameActions.recapReceived({
      wrapUpParagraph: pickText(reply, 'wrapUpParagraph'),
      bigMoment: pickText(reply, 'bigMoment'),
      frequentActivity: pickText(reply, 'frequentActivity'),
      characterTraitHighlight: pickText(reply, 'characterTraitHighlight'),
      themeExploration: pickText(reply, 'themeExploration'),
      overallScore: Math.max(1, percent(reply.overallScore)),
      endingType,
    }),
  );
}

function* openingWithCancel() {
  yield* race({
    done: call(writeOpening),
    cancelled: take([
      gameActions.waitCancelled.type,
      gameActions.returnedHome.type,
      gameActions.newGameStarted.type,
    ]),
  });
}

/**
 * The game's watchers. `first` is the action that brought this code in (the loader in the home
 * bundle waits for it), handled before anything else.
 */
export function* gameSaga(first?: UnknownAction) {
  if (first && gameActions.apiKeySubmitted.match(first)) yield* call(checkKey, first);
  yield* takeLeading(gameActions.apiKeySubmitted, checkKey);
  // A restart cancels a stale opening (takeLatest); a double click is one turn (takeLeading).
  yield* takeLatest(
    [gameActions.characterNamed.type, gameActions.openingRetryRequested.type],
    openingWithCancel,
  );
  yield* takeLeading(gameActions.choiceMade, resolveChoice);
  yield* takeLeading(gameActions.turnRetryRequested.type, retryTurn);
  yield* takeLatest(gameActions.summaryMissing.type, summarizeBehindOptions);
}
