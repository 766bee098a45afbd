import { FormattedMessage, useIntl } from 'react-intl';
import { modelNaming, type ModelList, type ModelPreset, type ProviderPreset } from '../../llm';
import { useProviderName } from './providerName';

interface ModelFieldProps {
  inputId: string;
  listId: string;
  preset: ProviderPreset;
  /** The provider's own list as the key typed sees it (unknown until it is read). */
  modelList: ModelList;
  /** The model chosen; empty for the default. */
  value: string;
  onChange: (model: string) => void;
}

/**
 * The key form's choice of model: a list to pick from for presets with a fixed set of models,
 * or a text field with the models as suggestions for presets that take any id. Until the
 * provider's own list is known, the default is described (issue 38, part 4: never an id the
 * account may not have) and the preset's built-in models are offered; once it is known, its
 * models are, and the field shows the model that will play (modelNaming, as the key check
 * settles it), the default marked as such. A line beneath says while the list is being read,
 * and when the provider refused the key while asked for it.
 */
export function ModelField({
  inputId,
  listId,
  preset,
  modelList,
  value,
  onChange,
}: ModelFieldProps) {
  const intl = useIntl();
  const providerName = useProviderName();
  const listed = modelList.status === 'read' && modelList.models.length > 0 && modelList.models;
  const models = listed || preset.models;
  const naming = modelNaming(preset, value, listed || null);
  const family = naming.newestOf;
  const say = (id: string, model?: string) => intl.formatMessage({ id }, { model, family });
  const described = say(family ? 'game.key.modelDescribedNewest' : 'game.key.modelDescribed');
  /** The default, once the list names it: "GPT-5.4 mini (newest GPT-5.x mini on your account)". */
  const asDefault = (model: string) =>
    say(family ? 'game.key.modelNewest' : 'game.key.modelDefault', model);
  const labelOf = (model: ModelPreset) =>
    model.id === naming.default ? asDefault(model.label) : model.label;
  const statusId = `${inputId}-status`;
  const status =
    modelList.status === 'reading'
      ? 'game.key.modelsReading'
      : modelList.status === 'unreadable' && modelList.keyRefused
        ? 'game.key.modelsKeyRefused'
        : null;
  const shown = naming.playing ?? '';

  return (
    <div className="setup-field">
      <label htmlFor={inputId}>
        <FormattedMessage id="game.key.model" />
      </label>
      {preset.editableModel ? (
        <input
          id={inputId}
          type="text"
          autoComplete="off"
          autoCapitalize="off"
          spellCheck={false}
          list={models.length > 0 ? listId : undefined}
          aria-describedby={status ? statusId : undefined}
          placeholder={
            !preset.defaultModel
              ? say('game.key.modelPlaceholder')
              : naming.default
                ? asDefault(naming.default)
                : described
          }
          value={value}
          onChange={(event) => onChange(event.target.value)}
        />
      ) : (
        <select
          id={inputId}
          value={shown}
          aria-describedby={status ? statusId : undefined}
          onChange={(event) => onChange(event.target.value)}
        >
          {naming.default === null && <option value="">{described}</option>}
          {/* A remembered model the built-in list does not hold stays selectable. */}
          {shown && !models.some((model) => model.id === shown) && (
            <option value={shown}>{shown}</option>
          )}
          {models.map((model) => (
            <option key={model.id} value={model.id}>
              {labelOf(model)}
            </option>
          ))}
        </select>
      )}
      {preset.editableModel && models.length > 0 && (
        <datalist id={listId}>
          {models.map((model) => (
            <option key={model.id} value={model.id}>
              {model.label}
            </option>
          ))}
        </datalist>
      )}
      {status && (
        <p className="setup-field__hint" id={statusId} role="status">
          <FormattedMessage id={status} values={{ provider: providerName(preset.id) }} />
        </p>
      )}
    </div>
  );
}
