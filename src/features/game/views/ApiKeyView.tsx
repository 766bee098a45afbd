import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { FormattedMessage } from 'react-intl';
import { useNavigate } from 'react-router-dom';
import { useAppDispatch, useAppSelector } from '../../../shared/hooks';
import {
  baseUrlOf,
  forgetPendingKeyCheck,
  keyFingerprint,
  modelListOf,
  pageTypedKey,
  providerById,
  providerSessionActions,
  selectModelList,
} from '../../llm';
import { modelSettingsChosen, selectSettings } from '../../settings';
import { selectWalletAddress } from '../../wallet';
import { selectGameStage } from '../turn/gameSelectors';
import { API_KEY_STORAGE_KEY, gameActions, selectKeyCheck } from '../gameSlice';
import { KeyError } from './KeyError';
import { KeyForm } from './KeyForm';
import { draftFromSettings, formProblemOf, type Draft, type KeyFormError } from './keyDraft';
import { useProviderName } from './providerName';
import { useResumedKeyCheck } from './useResumedKeyCheck';
import './setup.css';

/**
 * SPEC.md section 2, view 1: the player brings a key for a language-model provider. The key
 * goes to the game saga, which checks it with the provider; nothing here stores it. The form
 * itself is KeyForm (with ModelField and ApiKeyField), the choices it holds before they are
 * sent are keyDraft.ts, and why a key was not taken is KeyError.
 */
export function ApiKeyView() {
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  const walletAddress = useAppSelector(selectWalletAddress);
  const settings = useAppSelector(selectSettings);
  const stage = useAppSelector(selectGameStage);
  const keyCheck = useAppSelector(selectKeyCheck);
  const checkingKey = keyCheck.status === 'checking';
  const keyError = keyCheck.status === 'refused' ? keyCheck.error : null;
  const keyErrorDetail = keyCheck.status === 'refused' ? keyCheck.detail : null;
  // What the player submitted before the page reloaded to allow their server, if it did.
  const resumed = useResumedKeyCheck();
  // What the player submitted before the page reloaded, over the settings (which keep the rest).
  const [draft, setDraft] = useState<Draft>(() => draftFromSettings({ ...settings, ...resumed }));
  // The key this browser kept from an earlier visit (SPEC.md section 3, 'apiKey').
  const [apiKey, setApiKey] = useState(
    () => resumed?.apiKey ?? window.localStorage.getItem(API_KEY_STORAGE_KEY) ?? '',
  );
  const [formError, setFormError] = useState<KeyFormError | null>(null);
  const preset = providerById(draft.provider);
  const providerName = useProviderName();
  const headingId = useId();
  // The provider's own list as this key sees it: read while the key is typed (the model-list
  // flow, src/features/llm/modelListSaga.ts), which knows the key only by its fingerprint.
  const key = apiKey.trim();
  const baseUrl = baseUrlOf(preset, draft.baseUrl);
  const source = { provider: preset.id, baseUrl, keyFingerprint: keyFingerprint(key) };
  const modelList = modelListOf(useAppSelector(selectModelList), source);
  useEffect(() => {
    const keyFingerprint = pageTypedKey.hold(key);
    dispatch(providerSessionActions.keyTyped({ provider: preset.id, baseUrl, keyFingerprint }));
  }, [dispatch, preset.id, baseUrl, key]);

  // SPEC.md section 2: once the key is accepted (the stage becomes loadOrCreate), go to /game.
  // A player back on / mid-session is already past the key: a new key accepted moves on too,
  // back into the story under way if there is one.
  const previous = useRef({ stage, checkingKey });
  useEffect(() => {
    const accepted =
      (stage === 'loadOrCreate' && previous.current.stage !== 'loadOrCreate') ||
      (stage !== 'apiKeyInput' && previous.current.checkingKey && !checkingKey && !keyError);
    previous.current = { stage, checkingKey };
    if (accepted) void navigate('/game');
  }, [stage, checkingKey, keyError, navigate]);

  function submit(event: FormEvent) {
    event.preventDefault();
    if (checkingKey) return;
    const key = apiKey.trim();
    const problem = formProblemOf(preset, draft, key);
    setFormError(problem);
    if (problem) return;
    forgetPendingKeyCheck(window.sessionStorage);
    dispatch(modelSettingsChosen({ ...draft, model: draft.model.trim() }));
    dispatch(gameActions.apiKeySubmitted(key));
  }

  const shownError: KeyFormError | null = formError ?? keyError;

  return (
    <section className="panel setup-view key-view" aria-labelledby={headingId}>
      <h2 id={headingId} className="key-view__title">
        <FormattedMessage
          id={preset.requiresKey ? 'game.key.heading' : 'game.key.headingNoKey'}
          values={{ provider: providerName(preset.id) }}
        />
      </h2>
      {walletAddress === null ? (
        <div className="setup-notice" role="status">
          <p className="setup-notice__title">
            <FormattedMessage id="game.key.wallet.title" />
          </p>
          <p>
            <FormattedMessage id="game.key.wallet.body" />
          </p>
        </div>
      ) : (
        <KeyForm
          draft={draft}
          preset={preset}
          modelList={modelList}
          apiKey={apiKey}
          checkingKey={checkingKey}
          onDraftChange={setDraft}
          onApiKeyChange={(value) => {
            setApiKey(value);
            if (formError === 'emptyApiKey') setFormError(null);
          }}
          onSubmit={submit}
        />
      )}
      {/* SPEC.md section 8: a key sent while the wallet is not verified says so, even once the
          form has given way to the wallet notice. */}
      {shownError && (walletAddress !== null || shownError === 'walletNotVerified') && (
        <KeyError
          error={shownError}
          fromForm={formError !== null}
          detail={keyErrorDetail}
          providerId={preset.id}
          model={draft.model}
        />
      )}
    </section>
  );
}
