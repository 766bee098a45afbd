import { useParams } from 'react-router-dom';
import { PublishedStoryPage } from '../features/stories/published/PublishedStoryPage';
import { InLanguage } from './intl/InLanguage';

/** /story/<id>: a published story, in the language it was written in. */
export function PublishedStoryRoute() {
  const { id = '' } = useParams();
  return <PublishedStoryPage id={id} InLanguage={InLanguage} />;
}
