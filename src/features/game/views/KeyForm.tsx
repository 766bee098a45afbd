import { useId, type FormEvent, type InputHTMLAttributes } from 'react';
import { FormattedMessage } from 'react-intl';
import { PROVIDERS, providerById, type ModelList, type ProviderPreset } from '../../llm';
import { ApiKeyField } from './ApiKeyField';
import { draftForPreset, type Draft } from './keyDraft';
import { LocalNetworkSlot, mayNeedPermission } from './localNetworkSlots';
import { MinuteBudget } from './MinuteBudget';
import { ModelField } from './ModelField';
import { useProviderName } from './providerName';

/** One labelled text field of the form. */
function SetupInput({
  label,
  ...input
}: { id: string; label: string } & InputHTMLAttributes<HTMLInputElement>) {
  return (
    <div className="setup-field">
      <label htmlFor={input.id}>
        <FormattedMessage id={label} />
      </label>
      <input {...input} />
    </div>
  );
}

interface KeyFormProps {
  draft: Draft;
  preset: ProviderPreset;
  /** The provider's own list as the key typed sees it (unknown until it is read). */
  modelList: ModelList;
  apiKey: string;
  checkingKey: boolean;
  onDraftChange: (draft: Draft) => void;
  onApiKeyChange: (apiKey: string) => void;
  onSubmit: (event: FormEvent) => void;
}

/**
 * The key screen's form, shown once a wallet is connected: the provider (with the preset's
 * hint), the model, the server address for presets that let the player name one (and, for a
 * Custom server, the image model it draws pictures with, if any), and the key,
 * then (for a server on the player's own computer or network) what the browser will ask, the
 * button that sends them, a word on where the key goes, and a link to the provider's
 * page for getting one. Choosing another provider starts from that preset's defaults.
 */
export function KeyForm({
  draft,
  preset,
  modelList,
  apiKey,
  checkingKey,
  onDraftChange,
  onApiKeyChange,
  onSubmit,
}: KeyFormProps) {
  const id = useId();
  const providerName = useProviderName();

  return (
    <form className="setup-form" onSubmit={onSubmit} noValidate aria-busy={checkingKey}>
      <div className="setup-field">
        <label htmlFor={`${id}-provider`}>
          <FormattedMessage id="game.key.provider" />
        </label>
        <select
          id={`${id}-provider`}
          value={draft.provider}
          onChange={(event) =>
            onDraftChange({ ...draft, ...draftForPreset(providerById(event.target.value)) })
          }
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

      <ModelField
        inputId={`${id}-model`}
        listId={`${id}-models`}
        preset={preset}
        modelList={modelList}
        value={draft.model}
        onChange={(model) => onDraftChange({ ...draft, model })}
        budgetId={`${id}-budget`}
      />
      <MinuteBudget
        id={`${id}-budget`}
        preset={preset}
        baseUrl={draft.baseUrl}
        model={draft.model}
        modelList={modelList}
      />

      {preset.editableBaseUrl && (
        <SetupInput
          id={`${id}-base-url`}
          label="game.key.baseUrl"
          type="url"
          autoComplete="url"
          placeholder={preset.baseUrl || 'http://localhost:8000/v1'}
          value={draft.baseUrl}
          onChange={(event) => onDraftChange({ ...draft, baseUrl: event.target.value })}
        />
      )}
      {preset.editableBaseUrl && preset.draws && (
        <SetupInput
          id={`${id}-image-model`}
          label="game.key.imageModel"
          spellCheck={false}
          autoCapitalize="off"
          value={draft.imageModel}
          onChange={(event) => onDraftChange({ ...draft, imageModel: event.target.value })}
        />
      )}

      <ApiKeyField
        inputId={`${id}-key`}
        hintId={`${id}-key-hint`}
        required={preset.requiresKey}
        apiKey={apiKey}
        onChange={onApiKeyChange}
      />

      {mayNeedPermission(preset) && <LocalNetworkSlot preset={preset} baseUrl={draft.baseUrl} />}

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
