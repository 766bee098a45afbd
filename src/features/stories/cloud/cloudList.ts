// The wallet's list of stories in the cloud, through the backend (migration
// 20261127000000_cloud_stories.sql), and how the cloud's answers are named: every call says what
// went wrong as a CloudError with a CloudProblem. Apart from the cloud's other calls
// (cloudStories.ts) because the list is read wherever the saved stories are shown
// (cloudApi.ts), and the rest only by the cloud's flows. Row-level security makes them the
// signed-in wallet's only.
import type { BackendClient } from '../../../api';
import type { Story } from '../../game';
import type { CloudProblem, CloudStory } from './cloudModel';

/** A refusal or failure of the cloud, and how long to wait before trying again, if it said. */
export class CloudError extends Error {
  override readonly name = 'CloudError';
  constructor(
    readonly problem: CloudProblem,
    message: string,
    readonly retryAfterMs: number | null = null,
    /** The backend's own code for it (PostgREST's, or the SQLSTATE), where it gave one. */
    readonly code: string | null = null,
  ) {
    super(message);
  }
}

interface PostgrestFailure {
  error: { code?: string; message?: string } | null;
  status: number;
}

/** The bounds a picture is refused for (migration 20261128000000_story_pictures.sql). */
const PICTURE_BOUNDS = new Set([
  'picture_too_large',
  'story_pictures_limit',
  'wallet_pictures_full',
]);

/** The problem in a PostgREST answer (supabase-js resolves failures, it does not throw). */
function errorOfAnswer({ error, status }: PostgrestFailure): CloudError {
  const code = error?.code ?? '';
  const message = error?.message ?? `HTTP ${status}`;
  if (PICTURE_BOUNDS.has(code)) return new CloudError('picturesRefused', message);
  if (code === 'story_too_large' || status === 413) return new CloudError('tooLarge', message);
  if (code === 'story_limit') return new CloudError('limit', message);
  if (status === 429) {
    const seconds = Number(/retry in (\d+) seconds/i.exec(message)?.[1] ?? 60);
    return new CloudError('rateLimited', message, seconds * 1000);
  }
  if (status === 401 || code === 'PGRST301' || code === 'PGRST303') {
    return new CloudError('signedOut', message);
  }
  // No answer at all (supabase-js reports a failed fetch as status 0), or the server is down.
  if (status === 0 || status >= 500) return new CloudError('unreachable', message);
  return new CloudError('failed', message, null, code || null);
}

export function checked<T extends PostgrestFailure>(answer: T): T {
  if (answer.error) throw errorOfAnswer(answer);
  return answer;
}

export interface StoryRow {
  id: string;
  revision: number;
  saved_at: string;
  head: Record<string, unknown>;
  copy_of: string | null;
  published_at: string | null;
}

const text = (value: unknown) => (typeof value === 'string' ? value : '');

function cloudStoryOf(row: StoryRow): CloudStory {
  const { head } = row;
  const game = (head.game ?? {}) as Partial<Story>;
  return {
    id: row.id,
    revision: row.revision,
    savedAt: row.saved_at,
    copyOf: row.copy_of,
    publishedAt: row.published_at,
    chosenCharacter: text(head.chosenCharacter),
    chosenGenre: text(head.chosenGenre),
    characterImage: text(head.characterImage),
    previousParagraph: text(head.previousParagraph),
    isFinal: head.isFinal === true,
    endingType: text(head.endingType),
    turnCount: typeof game.turnCount === 'number' ? game.turnCount : 0,
  };
}

/** The wallet's stories in the cloud, newest first (at most the 100 a wallet may keep). */
export async function listCloudStories(client: BackendClient): Promise<CloudStory[]> {
  const { data } = checked(
    await client
      .from('stories')
      .select('id,revision,saved_at,head,copy_of,published_at')
      .order('saved_at', { ascending: false })
      .limit(100),
  );
  return ((data ?? []) as StoryRow[]).map(cloudStoryOf);
}
