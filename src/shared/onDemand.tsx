import { Component, Suspense, lazy, useReducer, type ComponentType, type ReactNode } from 'react';
import { FormattedMessage } from 'react-intl';
import { isChunkLoadError } from './chunkLoad';

/**
 * A part of a screen most visits never show (a panel, an editor), downloaded as its own chunk
 * the first time it is shown. While it downloads it says so; if the download fails, the part
 * says so in place, with Try again, and the rest of the screen carries on. Any other error goes
 * up to the page's own boundary. A `quiet` part, one of many on a screen (a picture under each
 * paragraph), says nothing while it downloads.
 */
export function onDemand<P extends object>(
  load: () => Promise<ComponentType<P>>,
  { quiet = false }: { quiet?: boolean } = {},
) {
  const download = () => lazy(async () => ({ default: await load() }));
  // One download for every instance; a failed one is replaced on Try again (webpack fetches a
  // failed chunk again when it is imported again).
  let Part = download();

  function OnDemandPart(props: P) {
    const [, retried] = useReducer((tries: number) => tries + 1, 0);
    const retry = () => {
      Part = download();
      retried();
    };
    return (
      <DownloadBoundary onRetry={retry}>
        <Suspense fallback={quiet ? null : <PartLoading />}>
          <Part {...props} />
        </Suspense>
      </DownloadBoundary>
    );
  }
  return OnDemandPart;
}

function PartLoading() {
  return (
    <p className="part-loading" role="status">
      <FormattedMessage id="app.loadingPage" />
    </p>
  );
}

interface BoundaryProps {
  onRetry: () => void;
  children: ReactNode;
}

/** Catches a failed download below it; anything else is thrown on to the page's boundary. */
class DownloadBoundary extends Component<BoundaryProps, { failed: unknown }> {
  override state = { failed: null as unknown };

  static getDerivedStateFromError(error: unknown) {
    return { failed: error };
  }

  override render() {
    const { failed } = this.state;
    if (failed === null) return this.props.children;
    if (!isChunkLoadError(failed)) throw failed;
    return (
      <div className="part-failed" role="alert">
        <p>
          <FormattedMessage id="error.part.body" />
        </p>
        <button
          type="button"
          className="button"
          onClick={() => {
            this.props.onRetry();
            this.setState({ failed: null });
          }}
        >
          <FormattedMessage id="common.retry" />
        </button>
      </div>
    );
  }
}
