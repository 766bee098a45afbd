import { lazy, Suspense, useState } from 'react';
import { FormattedMessage } from 'react-intl';
import { useAppSelector } from '../../../../shared/hooks';
import { loadMessages } from '../../../../shared/messageParts';
import { selectStory } from '../../../game';
import { selectCurrentRecord } from '../../storiesSlice';
import type { PublishTarget } from '../cloudModel';
import { usePublishedAt } from '../usePublishedAt';

/** What Publish says and does, and its words, downloaded when the player first opens it. */
const PublishPanel = lazy(async () => {
  const [views] = await Promise.all([
    import(/* webpackChunkName: "cloud-views" */ './PublishPanel'),
    loadMessages('sharing'),
  ]);
  return { default: views.PublishPanel };
});

/**
 * Publish on a finished story (its card, the ending screen): a button that opens what will be
 * public, and once published, the page's address and Unpublish.
 */
export function PublishButton({ target, name }: { target: PublishTarget; name: string }) {
  const [open, setOpen] = useState(false);
  const published = usePublishedAt(target.cloudId) !== null;
  if (open) {
    return (
      <Suspense
        fallback={
          <p className="muted" role="status">
            <FormattedMessage id="stories.publish.opening" />
          </p>
        }
      >
        <PublishPanel target={target} name={name} onClose={() => setOpen(false)} />
      </Suspense>
    );
  }
  return (
    <button type="button" className="publish-button" onClick={() => setOpen(true)}>
      <FormattedMessage id={published ? 'stories.publish.manage' : 'stories.publish.button'} />
    </button>
  );
}

/** Publish on the ending screen: the story being played, once it has been saved. */
export function PublishCurrentStory() {
  const current = useAppSelector(selectCurrentRecord);
  const name = useAppSelector(selectStory).chosenCharacter;
  if (!current?.cloudId) return null;
  return <PublishButton target={{ cloudId: current.cloudId, localId: current.id }} name={name} />;
}
