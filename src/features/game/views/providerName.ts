import { useIntl } from 'react-intl';
import { providerById } from '../../llm';

/**
 * A provider's name in the interface language: product names as they are, the local and
 * custom presets in words from the catalogues.
 */
export function useProviderName(): (providerId: string) => string {
  const intl = useIntl();
  return (providerId) => {
    const preset = providerById(providerId);
    return preset.labelMessageId
      ? intl.formatMessage({ id: preset.labelMessageId, defaultMessage: preset.label })
      : preset.label;
  };
}
