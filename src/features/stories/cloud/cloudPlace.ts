/**
 * The wallet's cloud as a place that keeps stories, beside the browser (browserPlace.ts): it
 * takes a save the browser kept (the very record written there, from the outbox) and sends the
 * record's head and only the list entries it has not acknowledged. Its own cache of what it
 * holds (`acknowledged`, by cloud id) lives with the place for as long as the cloud's flows run;
 * a story it knows nothing of is sent whole. The one conflict rule (storyRevision.ts) settles a
 * save the cloud refused: a story deleted elsewhere goes up again, one another device saved
 * since is kept as a copy.
 */
import { call, put, select } from 'typed-redux-saga';
import { selectLanguage } from '../../settings';
import { currentWalletSession } from '../../wallet';
import type { KeptStory } from '../browserPlace';
import { newStoryId, type CloudLink } from '../savedStory';
import { changedEntries, listLengths, type StoryLists } from '../storyLists';
import { conflictOf } from '../storyRevision';
import { storiesActions } from '../storiesSlice';
import { fromContext } from '../sagas/sagaContext';
import { CloudError, saveToCloud, type CloudHead } from './cloudStories';
import type { PictureRefusal } from './cloudModel';

/**
 * The place's memory: per cloud id, the revision the cloud answered and the lists it holds; per
 * browser record, where the cloud last took it (a save kept in the browser before that answer
 * came carries the link it had then).
 */
export interface CloudPlace {
  acknowledged: Map<string, { revision: number; lists: StoryLists }>;
  links: Map<number, CloudLink>;
  /**
   * The pictures part (cloudPictures.ts): per cloud id, the pictures the cloud keeps (turn →
   * when that drawing was kept), once read or sent; the browser's stories whose pictures are
   * still to be set beside the cloud's; the turns whose pictures the browser let go, per
   * story, to be deleted there too (never a picture the browser merely lacks); the drawings
   * the cloud refused (`cloudId turn createdAt`), never sent again while the place lives; and
   * why, until a round that ends says so (a round stopped by a failure of the moment after a
   * refusal says that failure, and the refusal after the next).
   */
  pictures: Map<string, Map<number, string>>;
  picturesDue: Set<number>;
  picturesForgotten: Map<number, Set<number>>;
  picturesRefused: Set<string>;
  refusalsUntold: Set<PictureRefusal>;
}

export const newCloudPlace = (): CloudPlace => ({
  acknowledged: new Map(),
  links: new Map(),
  pictures: new Map(),
  picturesDue: new Set(),
  picturesForgotten: new Map(),
  picturesRefused: new Set(),
  refusalsUntold: new Set(),
});

/**
 * Where the cloud keeps the story this save is of: what the place last heard for this record,
 * unless the save carries a newer answer for the same story (brought down since), or none.
 */
export function linkOf(kept: Pick<KeptStory, 'id' | 'cloud'>, place: CloudPlace): CloudLink {
  const heard = place.links.get(kept.id);
  if (!heard) return kept.cloud;
  return heard.id === kept.cloud.id && kept.cloud.revision > heard.revision ? kept.cloud : heard;
}

/** The signed-in wallet's backend client, or null without a session. */
export function* cloudClient() {
  const session = yield* call(currentWalletSession);
  if (!session) return null;
  const provider = yield* fromContext('backend');
  const backend = yield* call(provider);
  return { client: backend.forWallet(session), owner: session.address };
}

/** The signed-in wallet's client, or a CloudError a flow's failure mapper names. */
export function* signedInClient() {
  const connection = yield* call(cloudClient);
  if (!connection) throw new CloudError('signedOut', 'No wallet is signed in');
  return connection;
}

/** What the cloud keeps of a kept save: the browser's record without what is the browser's own. */
function cloudHeadOf(kept: KeptStory): CloudHead {
  return {
    lastSaved: kept.lastSaved,
    ...kept.record.fields,
    branchOf: kept.branchOf,
    game: kept.record.head,
  };
}

/**
 * Sends one kept save up, and records where it went (a copy's id when it became one). Throws a
 * CloudError when the cloud did not take it.
 */
export function* sendToCloud(kept: KeptStory, place: CloudPlace) {
  const { client } = yield* call(signedInClient);
  const language = yield* select(selectLanguage);
  const { lists } = kept.record;
  const link = linkOf(kept, place);
  const known = place.acknowledged.get(link.id);
  const save = (id: string, baseRevision: number, since: StoryLists | undefined, copyOf?: string) =>
    call(saveToCloud, client, {
      id,
      baseRevision,
      savedAt: kept.lastSaved,
      language,
      head: cloudHeadOf(kept),
      lengths: listLengths(lists),
      parts: changedEntries(lists, since),
      copyOf: copyOf ?? null,
    });

  let id = link.id;
  let answer = yield* save(
    id,
    link.revision,
    known?.revision === link.revision ? known.lists : undefined,
  );
  if (!answer.saved) {
    const base = link.revision === 0 ? undefined : link.revision;
    const conflict = conflictOf(base, answer.revision === 0 ? undefined : answer.revision, same);
    if (conflict === 'movedOn') {
      // Another device saved it since: this browser's line is kept as a copy, never lost.
      id = newStoryId();
      answer = yield* save(id, 0, undefined, link.id);
      yield* put(storiesActions.cloudStoryKeptAsCopy({ name: kept.record.fields.chosenCharacter }));
    } else {
      // Deleted elsewhere while this browser played on: its line is the only copy left.
      answer = yield* save(id, 0, undefined);
    }
  }
  if (!answer.saved) throw new CloudError('failed', 'The cloud refused a new story');
  const newLink: CloudLink = { id, revision: answer.revision, sent: kept.revision };
  place.acknowledged.set(id, { revision: answer.revision, lists });
  place.links.set(kept.id, newLink);
  // Its pictures go where the story went (a copy's, when it became one).
  place.picturesDue.add(kept.id);
  return newLink;
}

const same = (a: number, b: number) => a === b;
