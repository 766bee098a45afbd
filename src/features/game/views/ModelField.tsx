import { FormattedMessage, useIntl } from 'react-intl';
import { modelNaming, type ModelList, type ProviderPreset } from '../../llm';
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
  /** Where the form says what a turn reserves of a per-minute budget (MinuteBudget), if it does. */
  budgetId?: string;
}

/**
 * The key form's choice of model: a list to pick from for presets with a fixed set of models,
 * or a text field with the models as suggestions for presets that take any id. Until the
 * provider's own list is known, the default is only "Default" (issue 38, part 4: never an id
 * the account may not have) and the preset's built-in models are offered; once it is known,
 * its models are, and the field shows the model that will play (modelNaming, as the key check
 * settles it), the default marked as such. Beneath, in words that wrap on a phone: what the
 * default is, and a key the provider refused while asked for its models.
 */
export function ModelField({
  inputId,
  listId,
  preset,
  modelList,
  value,
  onChange,
  budgetId,
}: ModelFieldProps) {
  const intl = useIntl();
  const providerName = useProviderName();
  const listed = modelList.status === 'read' && modelList.models.length > 0 && modelList.models;
  const models = listed || preset.models;
  const naming = modelNaming(preset, value, listed || null);
  const shown = naming.playing ?? '';
  const say = (id: string, model?: string) => intl.formatMessage({ id }, { model });
  const asDefault = (model: string) => say('game.key.modelDefault', model);
  // What the default is, while it is the model shown: the newest of the preset's family (while
  // the list is unknown, and when the list's default is of it), else chosen from the list.
  const defaultShown = preset.defaultModel !== '' && shown === (naming.default ?? '');
  const family = naming.newestOf;
  const refused = modelList.status === 'unreadable' && modelList.keyRefused;
  const [hintId, refusedId] = [`${inputId}-default`, `${inputId}-refused`];
  const describedBy =
    [defaultShown && hintId, refused && refusedId, preset.requiresKey && budgetId]
      .filter(Boolean)
      .join(' ') || undefined;

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
          aria-describedby={describedBy}
          placeholder={
            !preset.defaultModel
              ? say('game.key.modelPlaceholder')
              : naming.default
                ? asDefault(naming.default)
                : say('game.key.modelDefaultUnread')
          }
          value={value}
          onChange={(event) => onChange(event.target.value)}
        />
      ) : (
        <select
          id={inputId}
          value={shown}
          aria-describedby={describedBy}
          onChange={(event) => onChange(event.target.value)}
        >
          {naming.default === null && (
            <option value="">{say('game.key.modelDefaultUnread')}</option>
          )}
          {/* A remembered model the built-in list does not hold stays selectable. */}
          {shown && !models.some((model) => model.id === shown) && (
            <option value={shown}>{shown}</option>
          )}
          {models.map((model) => (
            <option key={model.id} value={model.id}>
              {model.id === naming.default ? asDefault(model.label) : model.label}
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
      {defaultShown && (
        <p className="setup-field__hint" id={hintId}>
          <FormattedMessage
            id={family ? 'game.key.modelDefaultNewest' : 'game.key.modelDefaultListed'}
            values={{ family }}
          />
        </p>
      )}
      {refused && (
        <p className="setup-field__hint" id={refusedId} role="status">
          <FormattedMessage
            id="game.key.modelsKeyRefused"
            values={{ provider: providerName(preset.id) }}
          />
        </p>
      )}
    </div>
  );
}
