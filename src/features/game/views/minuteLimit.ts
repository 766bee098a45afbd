import { useAppSelector } from '../../../shared/hooks';
import { baseUrlOf, selectMinuteLimit, type ProviderPreset } from '../../llm';

/**
 * The per-minute token limit the provider stated for this model at this server (a readable
 * rate-limit header, or a refusal naming it), this session; null when it has not: never guessed.
 */
export function useMinuteLimit(preset: ProviderPreset, baseUrl: string, model: string) {
  const known = useAppSelector(selectMinuteLimit);
  const same =
    known?.provider === preset.id &&
    known.baseUrl === baseUrlOf(preset, baseUrl) &&
    known.model === model;
  return same ? known.tokensPerMinute : null;
}
