// The other tabs of this browser, told of each save at once (BroadcastChannel), so a tab whose
// story was played on elsewhere can say so before the player makes another choice. The revision
// check in browserPlace.ts is what keeps the turns; this only brings the news sooner.
import { isRecord } from '../../engine/guards';
import type { RecordStamp } from './storyRevision';

/** What a tab tells the others after it saved a story. */
export interface StorySavedMessage extends RecordStamp {
  type: 'storySaved';
  id: number;
}

/** The channel as the stories' flows use it; tests give a fake (saga context 'openTabChannel'). */
export interface TabChannel {
  post(message: StorySavedMessage): void;
  /** Calls `listener` with each message another tab posts; returns the way to stop. */
  listen(listener: (message: StorySavedMessage) => void): () => void;
  close(): void;
}

export const TAB_CHANNEL_NAME = 'taleweaver-stories';

export function isStorySavedMessage(value: unknown): value is StorySavedMessage {
  return (
    isRecord(value) &&
    value.type === 'storySaved' &&
    typeof value.id === 'number' &&
    typeof value.revision === 'number' &&
    typeof value.lastSaved === 'string'
  );
}

/** The browser's BroadcastChannel, or null where there is none (the saves still hold). */
export function openTabChannel(): TabChannel | null {
  if (typeof BroadcastChannel !== 'function') return null;
  const channel = new BroadcastChannel(TAB_CHANNEL_NAME);
  return {
    post: (message) => channel.postMessage(message),
    listen(listener) {
      const onMessage = (event: MessageEvent<unknown>) => {
        if (isStorySavedMessage(event.data)) listener(event.data);
      };
      channel.addEventListener('message', onMessage);
      return () => channel.removeEventListener('message', onMessage);
    },
    close: () => channel.close(),
  };
}
