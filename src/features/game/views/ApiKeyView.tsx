import { useEffect, useId, useLayoutEffect, useRef, useState, type FormEvent } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { useNavigate } from 'react-router-dom';
import { useAppDispatch, useAppSelector } from '../../../app/hooks';
import {
  PROVIDERS,
  baseUrlOf,
  forgetPendingKeyCheck,
  providerById,
  selectListedModels,
  type ModelPreset,
  type ProviderPreset,
} from '../../llm';
// The settings index does not export these two yet; they are the slice's public action and
// selector all the same.
import { modelSettingsChosen, selectSettings, type SettingsState } from '../../settings';
import { selectWalletAddress } from '../../wallet';
import { API_KEY_STORAGE_KEY, gameActions, selectGame, type KeyErrorCode } from '../gameSlice';
import { LimitReset } from './LimitOffer';
import { ProblemDetail } from './ProblemDetail';
import { useProviderName } from './providerName';
import { useResumedKeyCheck } from './useResumedKeyCheck';
import './setup.css';

/** A key error, or one of the form's own field checks. */
type KeyFormError = KeyErrorCode | 'baseUrlRequired' | 'modelRequired';

interface Draft {
  provider: string;
  model: string;
  baseUrl: string;
}

/** The remembered choices, or the preset's defaults where nothing fits this preset. */
function draftFromSettings(settings: Pick<SettingsState, 'provider' | 'model' | 'baseUrl'>): Draft {
  const preset = providerById(settings.provider);
  return {
    provider: preset.id,
    model: settings.model || preset.defaultModel,
    baseUrl: preset.editableBaseUrl ? settings.baseUrl || preset.baseUrl : '',
  };
}

function draftForPreset(preset: ProviderPreset): Draft {
  return {
    provider: preset.id,
    model: preset.defaultModel,
    baseUrl: preset.editableBaseUrl ? preset.baseUrl : '',
  };
}

/**
 * SPEC.md section 2, view 1: the player brings a key for a language-model provider. The key
 * goes to the game saga, which checks it with the provider; nothing here stores it.
 */
export function ApiKeyView() {
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  const walletAddress = useAppSelector(selectWalletAddress);
  const settings = useAppSelector(selectSettings);
  const { stage, checkingKey, keyError, keyErrorDetail } = useAppSelector(selectGame);
  // What the player submitted before the page reloaded to allow their server, if it did.
  const resumed = useResumedKeyCheck();
  const [draft, setDraft] = useState<Draft>(() => draftFromSettings(resumed ?? settings));
  // The key this browser kept from an earlier visit (SPEC.md section 3, 'apiKey').
  const [apiKey, setApiKey] = useState(
    () => resumed?.apiKey ?? window.localStorage.getItem(API_KEY_STORAGE_KEY) ?? '',
  );
  const [formError, setFormError] = useState<KeyFormError | null>(null);
  const preset = providerById(draft.provider);
  const providerName = useProviderName();
  const headingId = useId();
  // The provider's own list once the key has read it; the preset's built-in one before that.
  const listed = useAppSelector(selectListedModels);
  const models =
    listed &&
    listed.models.length > 0 &&
    listed.provider === preset.id &&
    listed.baseUrl === baseUrlOf(preset, draft.baseUrl)
      ? listed.models
      : preset.models;

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
    // SPEC.md section 5; DESIGN.md: in the interface language, not always in Korean.
    const problem: KeyFormError | null =
      preset.requiresKey && key === ''
        ? 'emptyApiKey'
        : preset.editableBaseUrl && draft.baseUrl.trim() === ''
          ? 'baseUrlRequired'
          : draft.model.trim() === ''
            ? 'modelRequired'
            : null;
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
          models={models}
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
        <div className="setup-error" role="alert">
          <p>
            <FormattedMessage
              id={`game.key.error.${shownError}`}
              values={{
                provider: providerName(keyErrorDetail?.provider ?? preset.id),
                model: keyErrorDetail?.model ?? draft.model,
              }}
            />
          </p>
          {!formError && typeof keyErrorDetail?.resetsAt === 'number' && (
            <LimitReset resetsAt={keyErrorDetail.resetsAt} />
          )}
          {!formError && keyErrorDetail && (
            <ProblemDetail
              problem={keyErrorDetail}
              // The messages above already say what a refused key or model means.
              withReason={shownError === 'keyCheckFailed'}
              className="setup-error__detail"
            />
          )}
        </div>
      )}
    </section>
  );
}

interface KeyFormProps {
  draft: Draft;
  preset: ProviderPreset;
  /** The models to offer: the provider's own list, or the preset's. */
  models: readonly ModelPreset[];
  apiKey: string;
  checkingKey: boolean;
  onDraftChange: (draft: Draft) => void;
  onApiKeyChange: (apiKey: string) => void;
  onSubmit: (event: FormEvent) => void;
}

function KeyForm({
  draft,
  preset,
  models,
  apiKey,
  checkingKey,
  onDraftChange,
  onApiKeyChange,
  onSubmit,
}: KeyFormProps) {
  const id = useId();
  const providerName = useProviderName();
  const intl = useIntl();
  const modelListId = `${id}-models`;
  const keyHintId = `${id}-key-hint`;
  // The key field is left uncontrolled on purpose: React writes a controlled input's value
  // into its HTML attribute, and the key must not sit in the page's markup.
  const keyRef = useRef<HTMLInputElement>(null);
  useLayoutEffect(() => {
    const input = keyRef.current;
    if (input && input.value !== apiKey) input.value = apiKey;
  }, [apiKey]);

  return (
    <form className="setup-form" onSubmit={onSubmit} noValidate aria-busy={checkingKey}>
      <div className="setup-field">
        <label htmlFor={`${id}-provider`}>
          <FormattedMessage id="game.key.provider" />
        </label>
        <select
          id={`${id}-provider`}
          value={draft.provider}
          onChange={(event) => onDraftChange(draftForPreset(providerById(event.target.value)))}
        >
          {PROVIDERS.map((provider) => (
            <option key={provider.id} value={provider.id}>
              {providerName(provider.id)}
            </option>
          ))}
        </select>
        {preset.hint && (
          <p className="setup-field__hint">
            <FormattedMessage
              id={preset.hint.messageId}
              defaultMessage={preset.hint.defaultMessage}
            />
          </p>
        )}
      </div>

      <div className="setup-field">
        <label htmlFor={`${id}-model`}>
          <FormattedMessage id="game.key.model" />
        </label>
        {preset.editableModel ? (
          <ModelTextField
            inputId={`${id}-model`}
            listId={modelListId}
            models={models}
            value={draft.model}
            onChange={(model) => onDraftChange({ ...draft, model })}
          />
        ) : (
          <select
            id={`${id}-model`}
            value={draft.model}
            onChange={(event) => onDraftChange({ ...draft, model: event.target.value })}
          >
            {/* A remembered model this preset no longer lists stays selectable. */}
            {!models.some((model) => model.id === draft.model) && (
              <option value={draft.model}>{draft.model}</option>
            )}
            {models.map((model) => (
              <option key={model.id} value={model.id}>
                {model.id === preset.defaultModel
                  ? intl.formatMessage({ id: 'game.key.modelDefault' }, { model: model.label })
                  : model.label}
              </option>
            ))}
          </select>
        )}
      </div>

      {preset.editableBaseUrl && (
        <div className="setup-field">
          <label htmlFor={`${id}-base-url`}>
            <FormattedMessage id="game.key.baseUrl" />
          </label>
          <input
            id={`${id}-base-url`}
            type="url"
            inputMode="url"
            autoComplete="url"
            spellCheck={false}
            placeholder={preset.baseUrl || 'http://localhost:8000/v1'}
            value={draft.baseUrl}
            onChange={(event) => onDraftChange({ ...draft, baseUrl: event.target.value })}
          />
        </div>
      )}

      <div className="setup-field">
        <label htmlFor={`${id}-key`}>
          <FormattedMessage id="game.key.apiKey" />
        </label>
        <input
          id={`${id}-key`}
          ref={keyRef}
          type="password"
          autoComplete="off"
          spellCheck={false}
          aria-required={preset.requiresKey}
          aria-describedby={preset.requiresKey ? undefined : keyHintId}
          onChange={(event) => onApiKeyChange(event.target.value)}
        />
        {!preset.requiresKey && (
          <p className="setup-field__hint" id={keyHintId}>
            <FormattedMessage id="game.key.apiKeyOptional" />
          </p>
        )}
      </div>

      <button type="submit" className="button primary setup-form__submit" disabled={checkingKey}>
        <FormattedMessage id={checkingKey ? 'game.key.verifying' : 'game.key.submit'} />
      </button>

      <p className="setup-privacy">
        <FormattedMessage id="game.key.privacy" values={{ provider: providerName(preset.id) }} />
      </p>
      {preset.keyPortalUrl && (
        <p className="setup-portal">
          <a href={preset.keyPortalUrl} target="_blank" rel="noopener noreferrer">
            <FormattedMessage id="game.key.portal" values={{ provider: providerName(preset.id) }} />{' '}
            <span className="setup-sr-only">
              <FormattedMessage id="game.key.newTab" />
            </span>
            <span aria-hidden="true">↗</span>
          </a>
        </p>
      )}
    </form>
  );
}

interface ModelTextFieldProps {
  inputId: string;
  listId: string;
  models: readonly ModelPreset[];
  value: string;
  onChange: (model: string) => void;
}

/** For presets that take any model id: a text field with the preset's models as suggestions. */
function ModelTextField({ inputId, listId, models, value, onChange }: ModelTextFieldProps) {
  const intl = useIntl();
  return (
    <>
      <input
        id={inputId}
        type="text"
        autoComplete="off"
        autoCapitalize="off"
        spellCheck={false}
        list={models.length > 0 ? listId : undefined}
        placeholder={intl.formatMessage({ id: 'game.key.modelPlaceholder' })}
        value={value}
        onChange={(event) => onChange(event.target.value)}
      />
      {models.length > 0 && (
        <datalist id={listId}>
          {models.map((model) => (
            <option key={model.id} value={model.id}>
              {model.label}
            </option>
          ))}
        </datalist>
      )}
    </>
  );
}
