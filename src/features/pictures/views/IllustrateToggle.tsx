import { useId } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { gameActions, selectStory } from '../../game';
import { providerById } from '../../llm';
import { useAppDispatch, useAppSelector } from '../../../shared/hooks';
import { picturesActions, selectImageModels } from '../picturesSlice';
import './pictures.css';

/**
 * "Illustrate this story" (issue 41, part 1): off by default, per story, on the naming and
 * playing screens once the provider's list holds a model that draws; what it does and what it
 * costs said before it is turned on, and the picture model to choose where there are several.
 */
export function IllustrateToggle() {
  const intl = useIntl();
  const dispatch = useAppDispatch();
  const id = useId();
  const models = useAppSelector(selectImageModels);
  const illustrated = useAppSelector(selectStory).illustrated;
  if (models.status !== 'listed') return null;
  const provider = providerById(models.provider).label;
  const labelOf = (model: string) =>
    models.models.find((listed) => listed.id === model)?.label ?? model;
  return (
    <div className="illustrate">
      <label className="illustrate__toggle">
        <input
          type="checkbox"
          checked={illustrated}
          aria-describedby={`${id}-about`}
          onChange={(event) => dispatch(gameActions.illustrationChosen(event.target.checked))}
        />
        <FormattedMessage id="pictures.toggle.label" />
      </label>
      <div id={`${id}-about`} className="illustrate__about">
        <p>
          <FormattedMessage
            id="pictures.toggle.about"
            values={{ model: labelOf(models.model), provider }}
          />
        </p>
        <p>
          <FormattedMessage id="pictures.toggle.price" values={{ provider }} />
        </p>
      </div>
      {models.models.length > 1 && (
        <label className="illustrate__model">
          <span>{intl.formatMessage({ id: 'pictures.toggle.model' })}</span>
          <select
            value={models.model}
            onChange={(event) => dispatch(picturesActions.imageModelChosen(event.target.value))}
          >
            {models.models.map((model) => (
              <option key={model.id} value={model.id}>
                {model.label}
              </option>
            ))}
          </select>
        </label>
      )}
      {models.replaced !== null && (
        <p className="illustrate__replaced" role="status">
          <FormattedMessage
            id="pictures.toggle.replaced"
            values={{ provider, from: models.replaced, to: labelOf(models.model) }}
          />
        </p>
      )}
    </div>
  );
}
