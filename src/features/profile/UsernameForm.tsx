import { useId, useState, type FormEvent } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { useUpdateUsernameMutation } from './profileApi';

/** The database's users_username_length constraint (supabase/migrations). */
export const USERNAME_MAX_CHARS = 32;

/**
 * SPEC.md section 3's `username_{address}`: the profile's own copy of the last saved name, shown
 * while the backend's is not there yet. Not part of the wallet session (Disconnect keeps it).
 */
export const usernameStorageKey = (address: string) => `username_${address}`;

type SaveState = 'idle' | 'saving' | 'saved' | 'failed';

const STATUS_MESSAGES = {
  saving: 'profile.username.saving',
  saved: 'profile.username.saved',
  failed: 'profile.username.failed',
} as const;

/**
 * SPEC.md section 5: Save is enabled only when the trimmed name is non-empty and differs from
 * the last saved one; Enter in the field saves too (it submits the form).
 */
export function canSaveUsername(draft: string, savedUsername: string): boolean {
  const name = draft.trim();
  return name !== '' && name !== savedUsername;
}

export interface UsernameFormProps {
  address: string;
  savedUsername: string;
  onSaved: (username: string) => void;
}

export function UsernameForm({ address, savedUsername, onSaved }: UsernameFormProps) {
  const intl = useIntl();
  const inputId = useId();
  const [draft, setDraft] = useState(
    () => savedUsername || window.localStorage.getItem(usernameStorageKey(address)) || '',
  );
  const [state, setState] = useState<SaveState>('idle');
  const [updateUsername] = useUpdateUsernameMutation();
  const enabled = state !== 'saving' && canSaveUsername(draft, savedUsername);

  async function save(event: FormEvent) {
    event.preventDefault();
    if (!enabled) return;
    const username = draft.trim();
    setState('saving');
    try {
      await updateUsername({ address, username }).unwrap();
      window.localStorage.setItem(usernameStorageKey(address), username);
      setDraft(username);
      onSaved(username);
      setState('saved');
    } catch {
      setState('failed');
    }
  }

  return (
    <form className="profile-field profile-username" onSubmit={save}>
      <label className="profile-field__label" htmlFor={inputId}>
        <FormattedMessage id="profile.username.label" />
      </label>
      <div className="profile-field__row">
        <input
          id={inputId}
          type="text"
          value={draft}
          autoComplete="nickname"
          maxLength={USERNAME_MAX_CHARS}
          placeholder={intl.formatMessage({ id: 'profile.username.placeholder' })}
          onChange={(event) => {
            setDraft(event.target.value);
            if (state !== 'saving') setState('idle');
          }}
        />
        <button type="submit" className="button primary" disabled={!enabled}>
          <FormattedMessage id="profile.username.save" />
        </button>
      </div>
      <p className="profile-status" aria-live="polite">
        {state !== 'idle' && (
          <span className={`profile-status__text profile-status__text--${state}`}>
            <span aria-hidden="true">
              {state === 'saved' ? '✓' : state === 'failed' ? '✕' : '…'}
            </span>
            <FormattedMessage id={STATUS_MESSAGES[state]} />
          </span>
        )}
      </p>
    </form>
  );
}
