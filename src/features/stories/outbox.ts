// The saves the browser has kept and other places have still to take (the wallet's cloud today;
// a share link or a drive tomorrow). The save flow writes a story's record once, to the browser
// first (saving.ts), and hands the very record it wrote to each place that is open here: no
// place reads back what was just written. Held in memory, one queue per place, only the newest
// save of each story; a place rebuilds its queue from the browser's records when it opens, so a
// save made before it opened, or in an earlier visit, is not forgotten.
import type { KeptStory } from './browserPlace';

/** One place's queue: the saves it has still to take, oldest first. */
export interface PlaceQueue {
  /** The stories waiting, each at its newest save, in the order they were last saved. */
  pending(): KeptStory[];
  /** Adds or replaces a story's save (the newer wins: an older one is never put back). */
  offer(kept: KeptStory): void;
  /** The place took story `id` at `revision`: it leaves the queue unless saved again since. */
  taken(id: number, revision: number): void;
  /** The story is gone (deleted here): nothing of it is sent. */
  forget(id: number): void;
}

export interface Outbox {
  /** Hands a save to every place that is open. */
  offer(kept: KeptStory): void;
  /** A place's queue, made when it first opens. */
  open(place: string): PlaceQueue;
}

function placeQueue(): PlaceQueue {
  const waiting = new Map<number, KeptStory>();
  return {
    pending: () => [...waiting.values()],
    offer(kept) {
      const before = waiting.get(kept.id);
      if (before && before.revision > kept.revision) return;
      // Deleted and set again: the story moves to the end, as the newest save.
      waiting.delete(kept.id);
      waiting.set(kept.id, kept);
    },
    taken(id, revision) {
      if ((waiting.get(id)?.revision ?? Infinity) <= revision) waiting.delete(id);
    },
    forget(id) {
      waiting.delete(id);
    },
  };
}

export function makeOutbox(): Outbox {
  const places = new Map<string, PlaceQueue>();
  return {
    offer(kept) {
      for (const queue of places.values()) queue.offer(kept);
    },
    open(place) {
      let queue = places.get(place);
      if (!queue) {
        queue = placeQueue();
        places.set(place, queue);
      }
      return queue;
    },
  };
}
