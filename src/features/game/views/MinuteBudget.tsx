import { FormattedMessage, FormattedNumber } from 'react-intl';
import { useAppSelector } from '../../../shared/hooks';
import {
  capabilityKey,
  modelNaming,
  mostATurnReserves,
  type ModelList,
  type ProviderPreset,
} from '../../llm';
import { selectSettings } from '../../settings';
import { useMinuteLimit } from './minuteLimit';
import { useProviderName } from './providerName';

interface MinuteBudgetProps {
  /** The model field names it as what describes it (aria-describedby). */
  id: string;
  preset: ProviderPreset;
  /** The server address as typed (the preset's own when empty). */
  baseUrl: string;
  /** The model chosen; empty for the default. */
  model: string;
  modelList: ModelList;
}

/**
 * What a turn reserves of a per-minute token budget, as free tiers count it (the prompt and the
 * reply's whole output limit, when the request arrives), on the key screen: beside the minute's
 * limit once the provider has stated it for this model (a readable rate-limit header, or a
 * refusal naming its limit), never a limit guessed. Shown for providers that take a key (a
 * server on the player's own computer counts no minutes).
 */
export function MinuteBudget({ id, preset, baseUrl, model, modelList }: MinuteBudgetProps) {
  const settings = useAppSelector(selectSettings);
  const providerName = useProviderName();
  const listed = modelList.status === 'read' && modelList.models.length > 0 && modelList.models;
  const playing = modelNaming(preset, model, listed || null).playing ?? preset.defaultModel;
  const limit = useMinuteLimit(preset, baseUrl, playing);
  if (!preset.requiresKey || playing === '') return null;
  const lessons = settings.modelLessons[capabilityKey(preset, baseUrl, playing)] ?? [];
  const tokens = <FormattedNumber value={mostATurnReserves(preset, playing, lessons)} />;
  return (
    <p className="setup-field__hint minute-budget" id={id}>
      {limit === null ? (
        <FormattedMessage id="game.key.turnReserves" values={{ tokens }} />
      ) : (
        <FormattedMessage
          id="game.key.turnReservesOfLimit"
          values={{
            tokens,
            limit: <FormattedNumber value={limit} />,
            provider: providerName(preset.id),
            model: playing,
          }}
        />
      )}
    </p>
  );
}
