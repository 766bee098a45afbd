import { useId } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { gameActions, selectStory } from '../../game';
import { useProviderName } from '../../game/sharedViews';
import { selectSettings } from '../../settings';
import { useAppDispatch, useAppSelector } from '../../../shared/hooks';
import {
  imageModelNamed,
  picturesActions,
  selectImageModels,
  selectPictureModel,
  selectStoryFlowsMissing,
  type ImageModels,
} from '../picturesSlice';
import './illustrate.css';

/** A model's name as the list gives it, else its id. */
const labelIn = (models: Extract<ImageModels, { status: 'listed' }>, model: string) =>
  models.models.find((listed) => listed.id === model)?.label ?? model;

/**
 * "Illustrate this story" (issue 41, part 1): off by default, per story, on the naming and
 * playing screens once the provider has a model that draws; what it does and what it costs
 * said before it is turned on. The picture model is chosen from the provider's list where there
 * are several; a Custom server's player names it (the list's likely ones suggested), and until
 * they do, pictures cannot be turned on.
 */
export function IllustrateToggle() {
  const intl = useIntl();
  const dispatch = useAppDispatch();
  const id = useId();
  const models = useAppSelector(selectImageModels);
  const model = useAppSelector(selectPictureModel);
  const settings = useAppSelector(selectSettings);
  const illustrated = useAppSelector(selectStory).illustrated;
  const codeMissing = useAppSelector(selectStoryFlowsMissing);
  const providerName = useProviderName();
  if (models.status !== 'listed') return null;
  const provider = providerName(models.provider);
  return (
    <div className="illustrate">
      <label className="illustrate__toggle">
        <input
          type="checkbox"
          checked={illustrated && model !== ''}
          disabled={model === ''}
          aria-describedby={`${id}-about`}
          onChange={(event) => dispatch(gameActions.illustrationChosen(event.target.checked))}
        />
        <FormattedMessage id="pictures.toggle.label" />
      </label>
      <div id={`${id}-about`} className="illustrate__about">
        <p>
          {model === '' ? (
            <FormattedMessage id="pictures.toggle.nameFirst" />
          ) : (
            <FormattedMessage
              id={models.named ? 'pictures.toggle.aboutNamed' : 'pictures.toggle.about'}
              values={{ model: labelIn(models, model), provider }}
            />
          )}
        </p>
        <p>
          <FormattedMessage
            id={models.named ? 'pictures.toggle.priceNamed' : 'pictures.toggle.price'}
            values={{ provider }}
          />
        </p>
      </div>
      {models.named ? (
        <div className="illustrate__model">
          <label htmlFor={`${id}-named`}>
            {intl.formatMessage({ id: 'pictures.toggle.namedModel' })}
          </label>
          <input
            id={`${id}-named`}
            type="text"
            value={settings.imageModel}
            list={`${id}-suggested`}
            spellCheck={false}
            autoComplete="off"
            autoCapitalize="off"
            maxLength={200}
            aria-describedby={`${id}-named-hint`}
            onChange={(event) => dispatch(imageModelNamed(settings, event.target.value))}
          />
          <datalist id={`${id}-suggested`}>
            {models.models.map((listed) => (
              <option key={listed.id} value={listed.id}>
                {listed.label}
              </option>
            ))}
          </datalist>
          <p id={`${id}-named-hint`} className="illustrate__hint">
            <FormattedMessage id="pictures.toggle.namedHint" />
          </p>
        </div>
      ) : (
        models.models.length > 1 && (
          <label className="illustrate__model">
            <span>{intl.formatMessage({ id: 'pictures.toggle.model' })}</span>
            <select
              value={models.model}
              onChange={(event) => dispatch(picturesActions.imageModelChosen(event.target.value))}
            >
              {models.models.map((listed) => (
                <option key={listed.id} value={listed.id}>
                  {listed.label}
                </option>
              ))}
            </select>
          </label>
        )
      )}
      {illustrated && codeMissing && (
        <p className="illustrate__replaced" role="alert">
          <FormattedMessage id="pictures.toggle.codeMissing" />
        </p>
      )}
      {models.replaced !== null && (
        <p className="illustrate__replaced" role="status">
          <FormattedMessage
            id="pictures.toggle.replaced"
            values={{ provider, from: models.replaced, to: labelIn(models, model) }}
          />
        </p>
      )}
    </div>
  );
}
