import { useId, useState } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { useNavigate } from 'react-router-dom';
import { useAppDispatch, useAppSelector } from '../../../shared/hooks';
import { modelOf, providerById, selectListedModels } from '../../llm';
import { modelSettingsChosen, selectSettings } from '../../settings';
import type { Problem } from '../gameSlice';
import './limitOffer.css';

/**
 * Where another model of the same provider may do better: one at its daily cap, and one whose
 * replies keep coming back cut off or unreadable.
 */
const ANOTHER_MODEL_HELPS: ReadonlySet<Problem['reason']> = new Set([
  'dailyLimit',
  'replyCutOff',
  'retriesExhausted',
]);

interface LimitOfferProps {
  problem: Problem;
  /** Asks for what failed again, now with the model or key the player chose. */
  onContinue: () => void;
}

/**
 * A daily cap or a key without credit stops the game politely (DESIGN.md, "Limits read from
 * the answer"), and so does a model whose replies keep coming back cut off or unreadable: when
 * a cap resets, and a way on without losing the story: another model of the same provider (not
 * for a key without credit, which no model of it can use), or another provider or key on the
 * key screen, after which the story goes on where it stopped.
 */
export function LimitOffer({ problem, onContinue }: LimitOfferProps) {
  const anotherModel = ANOTHER_MODEL_HELPS.has(problem.reason);
  if (!anotherModel && problem.reason !== 'noCredit') return null;
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

/** When a daily cap resets: how long from now, and the time on the player's clock. */
export function LimitReset({ resetsAt }: { resetsAt: number }) {
  const intl = useIntl();
  // Read once, when the notice appears: it says when, it does not count down.
  const [now] = useState(() => Date.now());
  const seconds = Math.max(0, Math.round((resetsAt - now) / 1000));
  const [value, unit] =
    seconds >= 3600
      ? [Math.round(seconds / 360) / 10, 'hour' as const]
      : seconds >= 60
        ? [Math.ceil(seconds / 60), 'minute' as const]
        : [seconds, 'second' as const];
  return (
    <p className="limit-offer__reset">
      <FormattedMessage
        id="game.limit.resets"
        values={{
          when: intl.formatRelativeTime(value, unit, { numeric: 'auto' }),
          time: intl.formatTime(resetsAt, { hour: 'numeric', minute: '2-digit' }),
        }}
      />
    </p>
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
