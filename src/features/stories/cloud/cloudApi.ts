// The wallet's stories in the cloud as server data (DESIGN.md, State: server data lives in RTK
// Query): one list, with when each was published, read with the signed-in wallet's session as
// the request leaves (never carried in the query's arguments). The cloud's flows invalidate it
// after a save went up, and after a publish, an unpublish or a delete; the views and the
// reconciling flow read it. Loaded with the pages that talk to the backend, never the home one.
import { baseApi, backendOf, type BackendError } from '../../../api';
import { walletSessionOf } from '../../wallet';
import { CloudError, listCloudStories } from './cloudList';
import type { CloudStory } from './cloudModel';

/** The tag every change to the wallet's cloud invalidates. */
export const CLOUD_STORIES_TAG = 'CloudStories';

const api = baseApi.enhanceEndpoints({ addTagTypes: [CLOUD_STORIES_TAG] });

export const cloudApi = api.injectEndpoints({
  endpoints: (build) => ({
    /** The stories wallet `address` keeps in the cloud, newest first. */
    cloudStories: build.query<CloudStory[], string>({
      async queryFn(address, { extra }) {
        const session = walletSessionOf(extra);
        if (session?.address !== address.toLowerCase()) {
          return { error: { code: 'signedOut', message: 'No wallet session for this list' } };
        }
        try {
          const client = (await backendOf(extra)).forWallet(session);
          return { data: await listCloudStories(client) };
        } catch (error) {
          const problem: BackendError =
            error instanceof CloudError
              ? { code: error.problem, message: error.message }
              : { code: 'unreachable', message: String(error) };
          return { error: problem };
        }
      },
      providesTags: [CLOUD_STORIES_TAG],
    }),
  }),
});

export const { useCloudStoriesQuery } = cloudApi;

/** The list's state for `address` in the store (the flows read it; views use the hook). */
export const selectCloudStories = (address: string) =>
  cloudApi.endpoints.cloudStories.select(address.toLowerCase());
