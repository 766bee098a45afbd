import { FormattedMessage, useIntl } from 'react-intl';
import { chosenDefaultModel, type ModelPreset, type ProviderPreset } from '../../llm';

interface ModelFieldProps {
  inputId: string;
  listId: string;
  preset: ProviderPreset;
  /** The models to offer: the provider's own list, or the preset's. */
  models: readonly ModelPreset[];
  value: string;
  onChange: (model: string) => void;
}

/**
 * The key form's choice of model: a list to pick from for presets with a fixed set of models
 * (the preset's default marked as such, and a remembered model it no longer lists kept
 * selectable), or a text field with the models as suggestions for presets that take any id.
 */
export function ModelField({ inputId, listId, preset, models, value, onChange }: ModelFieldProps) {
  const intl = useIntl();
  // The default as the list offered has it (chosen by family from the provider's own list).
  const defaultModel = chosenDefaultModel(preset, models);
  return (
    <div className="setup-field">
      <label htmlFor={inputId}>
        <FormattedMessage id="game.key.model" />
      </label>
      {preset.editableModel ? (
        <ModelTextField
          inputId={inputId}
          listId={listId}
          models={models}
          value={value}
          onChange={onChange}
        />
      ) : (
        <select id={inputId} value={value} onChange={(event) => onChange(event.target.value)}>
          {/* A remembered model this preset no longer lists stays selectable. */}
          {!models.some((model) => model.id === value) && <option value={value}>{value}</option>}
          {models.map((model) => (
            <option key={model.id} value={model.id}>
              {model.id === defaultModel
                ? intl.formatMessage({ id: 'game.key.modelDefault' }, { model: model.label })
                : model.label}
            </option>
          ))}
        </select>
      )}
    </div>
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
