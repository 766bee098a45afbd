import { useState } from 'react';
import { FormattedMessage } from 'react-intl';
import { useAppSelector } from '../../shared/hooks';
import type { SerializedError } from '@reduxjs/toolkit';
import type { BackendError } from '../../api';
import { selectWalletAccount } from '../wallet';
import {
  SAVE_RESULT_ERRORS,
  useSaveGameResultMutation,
  type GameResult,
  type SaveResultOutcome,
} from './resultsApi';
import './leaderboard.css';

export interface SaveResultButtonProps {
  result: GameResult;
  /** The story's cloud id, so that the leaderboard can link to it once it is published. */
  storyId?: string | null;
  /** Called once the result is on the leaderboard ('saved', or a recent 'duplicate'). */
  onSaved?: () => void;
}

type SaveState =
  | { kind: 'idle' }
  | { kind: 'saving' }
  | { kind: SaveResultOutcome }
  | { kind: 'error'; messageId: string }
  | { kind: 'backendError'; message: string };

/**
 * A failure to show: the catalogue's words for the cases it names, the backend's own message
 * when the backend refused (SPEC.md section 8, Result save), else the unexpected-error line.
 * A thrown exception reaches us as RTK's SerializedError, which carries a `name`.
 */
function failureState(error: BackendError | SerializedError): SaveState {
  if (error.code === SAVE_RESULT_ERRORS.noWallet) {
    return { kind: 'error', messageId: 'leaderboard.save.noWallet' };
  }
  if (error.code === SAVE_RESULT_ERRORS.noToken) {
    return { kind: 'error', messageId: 'leaderboard.save.noToken' };
  }
  if (!('name' in error) && error.message) return { kind: 'backendError', message: error.message };
  return { kind: 'error', messageId: 'leaderboard.save.unexpected' };
}

/** The ending screen's 'Save Adventure Results' button, with its in-page outcome. */
export function SaveResultButton({ result, storyId = null, onSaved }: SaveResultButtonProps) {
  const [saveGameResult] = useSaveGameResultMutation();
  // The account as it is when the player clicks (SPEC.md section 5); its token is the
  // wallet's to give as the request leaves.
  const account = useAppSelector(selectWalletAccount);
  const [state, setState] = useState<SaveState>({ kind: 'idle' });
  const saved = state.kind === 'saved' || state.kind === 'duplicate';
  const busy = state.kind === 'saving';

  async function save() {
    if (busy || saved) return;
    setState({ kind: 'saving' });
    const response = await saveGameResult({ address: account, result, storyId });
    if ('error' in response && response.error) {
      setState(failureState(response.error));
      return;
    }
    if ('data' in response && response.data) {
      setState({ kind: response.data });
      onSaved?.();
    }
  }

  return (
    <div className="save-result">
      <button
        type="button"
        className="button primary save-result__button"
        onClick={save}
        disabled={busy || saved}
        aria-busy={busy}
      >
        <FormattedMessage
          id={
            saved
              ? 'leaderboard.save.savedButton'
              : busy
                ? 'leaderboard.save.saving'
                : 'leaderboard.save.button'
          }
        />
      </button>
      {/* Always present, so screen readers announce what is put into it. */}
      <p className="save-result__status" role="status">
        {state.kind === 'saved' && (
          <span className="save-result__message save-result__message--success">
            <span aria-hidden="true">✓</span>
            <FormattedMessage id="leaderboard.save.saved" />
          </span>
        )}
        {state.kind === 'duplicate' && (
          <span className="save-result__message save-result__message--warning">
            <span aria-hidden="true">!</span>
            <FormattedMessage id="leaderboard.save.duplicate" />
          </span>
        )}
      </p>
      {(state.kind === 'error' || state.kind === 'backendError') && (
        <p className="save-result__message save-result__message--error" role="alert">
          <span aria-hidden="true">✕</span>
          {state.kind === 'error' ? <FormattedMessage id={state.messageId} /> : state.message}
        </p>
      )}
    </div>
  );
}
