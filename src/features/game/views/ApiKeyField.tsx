import { useLayoutEffect, useRef } from 'react';
import { FormattedMessage } from 'react-intl';

interface ApiKeyFieldProps {
  inputId: string;
  hintId: string;
  /** Whether the preset needs a key; a local server may take none. */
  required: boolean;
  apiKey: string;
  onChange: (apiKey: string) => void;
}

/**
 * The key form's field for the API key, with a hint where the key may be left blank. The
 * field is left uncontrolled on purpose: React writes a controlled input's value into its HTML
 * attribute, and the key must not sit in the page's markup. The key the form holds is written
 * into the field instead, whenever it changes.
 */
export function ApiKeyField({ inputId, hintId, required, apiKey, onChange }: ApiKeyFieldProps) {
  const keyRef = useRef<HTMLInputElement>(null);
  useLayoutEffect(() => {
    const input = keyRef.current;
    if (input && input.value !== apiKey) input.value = apiKey;
  }, [apiKey]);

  return (
    <div className="setup-field">
      <label htmlFor={inputId}>
        <FormattedMessage id="game.key.apiKey" />
      </label>
      <input
        id={inputId}
        ref={keyRef}
        type="password"
        autoComplete="off"
        spellCheck={false}
        aria-required={required}
        aria-describedby={required ? undefined : hintId}
        onChange={(event) => onChange(event.target.value)}
      />
      {!required && (
        <p className="setup-field__hint" id={hintId}>
          <FormattedMessage id="game.key.apiKeyOptional" />
        </p>
      )}
    </div>
  );
}
