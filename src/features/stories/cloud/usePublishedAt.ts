import { useAppSelector } from '../../../shared/hooks';
import { selectWalletSession } from '../../wallet';
import { useCloudStoriesQuery } from './cloudApi';

/**
 * When story `cloudId` was published, or null: read from the wallet's cloud list (server data,
 * cloudApi.ts), which Publish and Unpublish invalidate. Nothing is read without a session.
 */
export function usePublishedAt(cloudId: string): string | null {
  const session = useAppSelector(selectWalletSession);
  const { data } = useCloudStoriesQuery(session?.address ?? '', { skip: !session });
  return data?.find((story) => story.id === cloudId)?.publishedAt ?? null;
}
