import { useEffect } from 'react';
import { FormattedMessage } from 'react-intl';
import type { GameWait } from '../gameSlice';
import './storyHand.css';
import { WaitWords } from './troubles';

interface LoadingOverlayProps {
  loading: boolean;
  /** The recap is being written after the final segment. */
  final: boolean;
  /** A reasoning model is thinking before it writes. */
  thinking?: boolean;
  /** The paragraph is being written: its words show the turn moving, and the dots rest. */
  writing?: boolean;
  wait: GameWait | null;
  onCancel: () => void;
  /** Stop the segment being written; absent when Stop does not apply. */
  onStop?: () => void;
}

/**
 * 'Loading' with animated dots while the next segment is written, and what the game is
 * waiting for when it retries (DESIGN.md: endless retries stay visible and cancellable).
 * The status region is always in the page, so screen readers announce what appears in it.
 */
export function LoadingOverlay({
  loading,
  final,
  thinking = false,
  writing = false,
  wait,
  onCancel,
  onStop,
}: LoadingOverlayProps) {
  return (
    <div className="play-status" role="status">
      {loading && (
        <div className={writing ? 'loading-overlay loading-overlay--writing' : 'loading-overlay'}>
          <p className="loading-overlay__text">
            <FormattedMessage id="game.play.loading" />
            <span className="loading-dots" aria-hidden="true">
              <span>.</span>
              <span>.</span>
              <span>.</span>
            </span>
          </p>
          {thinking && wait === null && (
            <p className="loading-overlay__note">
              <FormattedMessage id="game.play.thinking" />
            </p>
          )}
          {final && !thinking && wait === null && (
            <p className="loading-overlay__note">
              <FormattedMessage id="game.play.writingEnding" />
            </p>
          )}
          {onStop && wait === null && <StopButton onStop={onStop} />}
          {wait !== null && (
            // A new wait is a new notice, so its countdown starts from the current time.
            <WaitNotice
              key={`${wait.reason}-${wait.attempt}-${wait.retryAt}`}
              wait={wait}
              onCancel={onCancel}
            />
          )}
        </div>
      )}
    </div>
  );
}

function WaitNotice({ wait, onCancel }: { wait: GameWait; onCancel: () => void }) {
  return (
    <div className="wait-notice">
      <p className="wait-notice__text">
        <span className="wait-notice__icon" aria-hidden="true">
          ◷
        </span>
        <WaitWords wait={wait} />
      </p>
      <button type="button" className="wait-notice__cancel" onClick={onCancel}>
        <FormattedMessage id="game.wait.cancel" />
      </button>
    </div>
  );
}

/** Ends the request at once; what was written so far is dropped. Escape does too. */
export function StopButton({ onStop }: { onStop: () => void }) {
  useEffect(() => {
    function stopOnEscape(event: KeyboardEvent) {
      // An editor's own Escape (it cancels the edit) comes first.
      if (event.key !== 'Escape' || event.defaultPrevented) return;
      event.preventDefault();
      onStop();
    }
    document.addEventListener('keydown', stopOnEscape);
    return () => document.removeEventListener('keydown', stopOnEscape);
  }, [onStop]);
  return (
    <button
      type="button"
      className="button stop-button"
      aria-keyshortcuts="Escape"
      onClick={onStop}
    >
      <span aria-hidden="true">■</span> <FormattedMessage id="game.hand.stop" />{' '}
      <kbd className="stop-button__key" aria-hidden="true">
        Esc
      </kbd>
    </button>
  );
}
