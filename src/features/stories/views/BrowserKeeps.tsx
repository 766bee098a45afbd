import { lazy, Suspense } from 'react';
import { useAppSelector } from '../../../shared/hooks';
import { loadMessages } from '../../../shared/messageParts';
import { selectStoragePersistence } from '../storiesSlice';

/** The note and its words, downloaded only when the browser has something to say. */
const BrowserKeepsNote = lazy(async () => {
  const [view] = await Promise.all([
    import(/* webpackChunkName: "keeping-note" */ './BrowserKeepsNote'),
    loadMessages('sharing'),
  ]);
  return { default: view.BrowserKeepsNote };
});

/**
 * Under the saved stories: whether the browser keeps them (BrowserKeepsNote.tsx). Nothing while
 * the browser has not said, or has no way to: there is nothing true to tell then.
 */
export function BrowserKeeps() {
  const persistence = useAppSelector(selectStoragePersistence);
  if (persistence !== 'persisted' && persistence !== 'notPersisted') return null;
  return (
    <Suspense fallback={null}>
      <BrowserKeepsNote persisted={persistence === 'persisted'} />
    </Suspense>
  );
}
