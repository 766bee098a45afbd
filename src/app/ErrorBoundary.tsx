import { Component, type ErrorInfo, type ReactNode } from 'react';
import { FormattedMessage } from 'react-intl';
import { isChunkLoadError } from '../shared/chunkLoad';

/**
 * The root's report of an error a boundary caught (React 19 logs every one by default): a failed
 * download is expected on a poor connection and the player is told of it, so only the others
 * are logged, once, with where they happened.
 */
export function reportCaughtError(error: unknown, info: Pick<ErrorInfo, 'componentStack'>): void {
  if (isChunkLoadError(error)) return;
  console.error('Unexpected application error', error, info.componentStack);
}

interface State {
  error: unknown;
}

/**
 * Catches a runtime error or a failed chunk download below it and shows a friendly page with
 * Reload and Return to Home. Keyed by route in the layout, so navigating away recovers.
 */
export class ErrorBoundary extends Component<{ children: ReactNode }, State> {
  override state: State = { error: null };

  static getDerivedStateFromError(error: unknown): State {
    return { error };
  }

  override render() {
    if (this.state.error === null) return this.props.children;
    return <ErrorPage chunk={isChunkLoadError(this.state.error)} />;
  }
}

export function ErrorPage({ chunk }: { chunk: boolean }) {
  return (
    <section className="panel error-page" role="alert">
      <h1>
        <FormattedMessage id={chunk ? 'error.chunk.title' : 'error.title'} />
      </h1>
      <p>
        <FormattedMessage id={chunk ? 'error.chunk.body' : 'error.body'} />
      </p>
      <div className="button-row">
        <button type="button" className="primary" onClick={() => window.location.reload()}>
          <FormattedMessage id="error.reload" />
        </button>
        {/* A plain link: after an error, a fresh page load is the safest way home. */}
        <a className="button" href="/">
          <FormattedMessage id="common.returnHome" />
        </a>
      </div>
    </section>
  );
}
