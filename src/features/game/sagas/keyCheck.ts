/**
 * The key check (SPEC.md sections 5 and 7), with the provider's own model list: a retired
 * model is replaced before anything is asked of it, a key at a per-minute limit is a valid
 * key, and a key without credit or a model at its daily cap is refused with the reason.
 */
import { call, put, race, select } from 'typed-redux-saga';
import { fromContext } from './sagaContext';
import { wait } from '../../../shared/waits';
import {
  RateLimitedError,
  baseUrlOf,
  capabilityKey,
  connectOriginOf,
  connectStep,
  keyFingerprint,
  modelListFor,
  modelOf,
  providerById,
  providerSessionActions,
  reloadToAllow,
  settleModel,
  type ModelLesson,
  type ProviderPreset,
} from '../../llm';
import { modelLessonLearned, modelSettingsChosen, selectModelLessons } from '../../settings';
import { API_KEY_STORAGE_KEY, gameActions, type KeyErrorCode, type Problem } from '../gameSlice';
import { minuteLimitRead } from './askModel';
import { policed } from './failurePolicy';
import { selectState } from './flowState';
import { KeyCheckTimeoutError, problemWith } from './problems';

/** How long the key check may take before the player is told it failed. */
export const KEY_CHECK_TIMEOUT_MS = 30_000;

/** What the key screen says for each cause of a refused key check. */
const KEY_ERROR_OF: Partial<Record<Problem['reason'], KeyErrorCode>> = {
  invalidApiKey: 'invalidApiKey',
  modelUnavailable: 'modelUnavailable',
  providerUnreachable: 'providerUnreachable',
  localNetworkDenied: 'localNetworkDenied',
  localNetworkInsecure: 'localNetworkInsecure',
  noCredit: 'noCredit',
  dailyLimit: 'dailyLimit',
};

interface KeyCheck {
  provider: ProviderPreset;
  baseUrl: string;
  apiKey: string;
  model: string;
  signal: AbortSignal;
}

/**
 * The model list first, so that a saved model the provider has retired is replaced by the
 * curated default (with a notice) before anything is asked of it; then the spec's key check
 * with that model. A key at a per-minute limit is a valid key: the game waits those out on its
 * own. A key without credit is refused, and so is a model at its daily cap (the key works,
 * but nothing can be played with this model until it resets): both are thrown.
 */
function* checkKeyAndModel(check: KeyCheck) {
  // The list the key screen read while the key was typed, else read now (an empty one when it
  // cannot be read: the built-in default stands, and the chat check decides about the key).
  const source = {
    provider: check.provider.id,
    baseUrl: baseUrlOf(check.provider, check.baseUrl),
    keyFingerprint: keyFingerprint(check.apiKey),
  };
  const listed = yield* call(modelListFor, check.provider, source, check.apiKey, check.signal);
  const { model, replaced } = settleModel(check.provider, check.model, listed);
  if (replaced) {
    yield* put(
      providerSessionActions.modelReplaced({
        provider: check.provider.id,
        from: modelOf(check.provider, check.model),
        to: model,
      }),
    );
  }
  // The model that will play is the one checked, and the one the model field shows.
  if (model !== check.model) {
    yield* put(modelSettingsChosen({ provider: check.provider.id, model, baseUrl: check.baseUrl }));
  }
  const capability = capabilityKey(check.provider, check.baseUrl, model);
  const lessons: ModelLesson[] = [];
  let minuteLimit: number | null = null;
  const client = yield* fromContext('model');
  const clock = yield* fromContext('clock');
  const known = (yield* select(selectModelLessons))[capability];
  // NoCreditError and DailyLimitError are limits too, but not ones a player can wait out.
  try {
    yield* call([client, client.checkKey], {
      ...check,
      model,
      lessons: known,
      now: () => clock.now(),
      onLesson: (lesson: ModelLesson) => lessons.push(lesson),
      onMinuteLimit: (tokensPerMinute: number) => {
        minuteLimit = tokensPerMinute;
      },
    });
  } catch (error) {
    if (!(error instanceof RateLimitedError)) throw error;
  } finally {
    for (const lesson of lessons) {
      yield* put(modelLessonLearned({ key: capability, lesson }));
    }
    // What the key screen shows a turn reserves against (MinuteBudget).
    const tokensPerMinute = minuteLimit as number | null;
    if (tokensPerMinute !== null) {
      yield* call(
        minuteLimitRead,
        { ...check, provider: check.provider.id, model },
        tokensPerMinute,
      );
    }
  }
}

/**
 * The server the page's policy keeps it from calling, as the key screen names it. Nothing was
 * sent, so there is no provider's word, and the CORS hint does not apply (ownServer false): the
 * page refused, not the server.
 */
const notAllowedProblem = (provider: string, model: string, origin: string | null): Problem => ({
  reason: 'providerUnreachable',
  provider,
  model,
  origin,
  ownServer: false,
  providerMessage: null,
  status: null,
  resetsAt: null,
  limitMetric: null,
});

/** The key check worker: from the key submitted to the key accepted or rejected. */
export const checkKey = policed(
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
    // check again, or on a static host only by the deployer (src/features/llm/connectPolicy.ts).
    const page = yield* fromContext('connectPage');
    const origin = connectOriginOf(baseUrlOf(provider, settings.baseUrl));
    const step = page && origin ? yield* call(connectStep, page, origin) : 'go';
    if (step === 'reload' && page && origin) {
      const { baseUrl, model, imageModel } = settings;
      yield* call(reloadToAllow, page, origin, {
        provider: provider.id,
        model,
        baseUrl,
        imageModel,
        apiKey: key,
      });
      return; // 'Verifying...' until the page reloads
    }
    if (step === 'blocked') {
      yield* put(
        gameActions.apiKeyRejected({
          error: 'originNotAllowed',
          detail: notAllowedProblem(provider.id, settings.model, origin),
        }),
      );
      return;
    }
    const controller = new AbortController();
    try {
      const { timedOut } = yield* race({
        checked: call(checkKeyAndModel, {
          provider,
          baseUrl: settings.baseUrl,
          apiKey: key,
          model: settings.model,
          signal: controller.signal,
        }),
        // A provider that never answers must not leave the form 'Verifying...' for good (on the
        // context's clock: the check that wins cancels the wait, and its timer with it).
        timedOut: call(wait, KEY_CHECK_TIMEOUT_MS),
      });
      if (timedOut) {
        controller.abort();
        throw new KeyCheckTimeoutError(KEY_CHECK_TIMEOUT_MS / 1000);
      }
      const storage = yield* fromContext('storage');
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
  },
  // A check that broke is refused with its cause: the key form stays, to submit again.
  (problem) => gameActions.apiKeyRejected({ error: 'keyCheckFailed', detail: problem }),
);
