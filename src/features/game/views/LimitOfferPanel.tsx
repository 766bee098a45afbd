import { useId, useState } from 'react';
import { FormattedMessage } from 'react-intl';
import { useNavigate } from 'react-router-dom';
import { useAppDispatch, useAppSelector } from '../../../shared/hooks';
import { modelOf, providerById, selectListedModels } from '../../llm';
import { modelSettingsChosen, selectSettings } from '../../settings';
import type { Problem } from '../gameSlice';
import { LimitReset } from './LimitReset';

interface LimitOfferPanelProps {
  problem: Problem;
  /** Whether another model of the same provider may do better (LimitOffer.tsx). */
  anotherModel: boolean;
  onContinue: () => void;
}

/** The offer LimitOffer makes (LimitOffer.tsx): when the cap resets, and the ways on. */
export function LimitOfferPanel({ problem, anotherModel, onContinue }: LimitOfferPanelProps) {
  return (
    <div className="limit-offer">
      {problem.resetsAt !== null && <LimitReset resetsAt={problem.resetsAt} />}
      <p className="limit-offer__kept">
        <FormattedMessage id="game.limit.storyKept" />
      </p>
      {anotherModel && (
        <OtherModel provider={problem.provider} capped={problem.model} onContinue={onContinue} />
      )}
      <OtherProvider />
    </div>
  );
}

interface OtherModelProps {
  provider: string;
  /** The model at its cap: not offered. */
  capped: string;
  onContinue: () => void;
}

/** The provider's other chat models (its own list when the key check read it). */
function OtherModel({ provider, capped, onContinue }: OtherModelProps) {
  const dispatch = useAppDispatch();
  const settings = useAppSelector(selectSettings);
  const listed = useAppSelector(selectListedModels);
  const preset = providerById(provider);
  const known = listed?.source.provider === preset.id ? listed.models : preset.models;
  const others = known.filter((model) => model.id !== modelOf(preset, capped));
  const [choice, setChoice] = useState(others[0]?.id ?? '');
  const selectId = useId();
  if (others.length === 0) return null;
  return (
    <div className="limit-offer__model">
      <label htmlFor={selectId}>
        <FormattedMessage id="game.limit.otherModel" />
      </label>
      <div className="limit-offer__row">
        <select id={selectId} value={choice} onChange={(event) => setChoice(event.target.value)}>
          {others.map((model) => (
            <option key={model.id} value={model.id}>
              {model.label}
            </option>
          ))}
        </select>
        <button
          type="button"
          className="button primary"
          onClick={() => {
            dispatch(modelSettingsChosen({ ...settings, provider: preset.id, model: choice }));
            onContinue();
          }}
        >
          <FormattedMessage id="game.limit.continueWith" />
        </button>
      </div>
    </div>
  );
}

/** The key screen, where any provider and key can be chosen; the story waits in the game. */
function OtherProvider() {
  const navigate = useNavigate();
  return (
    <button type="button" className="button" onClick={() => void navigate('/')}>
      <FormattedMessage id="game.limit.otherProvider" />
    </button>
  );
}
