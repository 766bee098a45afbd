import type { StorySavedMessage, TabChannel } from '../../../src/features/stories/tabChannel';

/**
 * The tabs of one browser, as BroadcastChannel joins them: what one tab posts reaches every other
 * open channel (never its own), a moment later. `posted` keeps every message for the test.
 */
export function fakeTabs() {
  const listeners = new Map<object, Set<(message: StorySavedMessage) => void>>();
  const posted: StorySavedMessage[] = [];
  function open(): TabChannel {
    const tab = {};
    listeners.set(tab, new Set());
    return {
      post(message) {
        posted.push(message);
        for (const [other, heard] of listeners) {
          if (other === tab) continue;
          // Structured-cloned and delivered later, as the browser does.
          const copy = structuredClone(message);
          setTimeout(() => heard.forEach((listener) => listener(copy)), 0);
        }
      },
      listen(listener) {
        listeners.get(tab)?.add(listener);
        return () => listeners.get(tab)?.delete(listener);
      },
      close: () => void listeners.delete(tab),
    };
  }
  return {
    open,
    posted,
    get openCount() {
      return listeners.size;
    },
  };
}
