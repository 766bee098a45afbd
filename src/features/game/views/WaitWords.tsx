import { loadMessages } from '../../../shared/messageParts';
import { onDemand } from '../../../shared/onDemand';

/**
 * What the game says while it waits for the model (WaitMessage.tsx), with its words: downloaded
 * the first time a wait is shown (a per-minute limit, a garbled or dropped reply, a cut-off
 * one), which most games never meet. The overlay or loading screen around it says the game is
 * busy meanwhile, so the part says nothing while it comes.
 */
export const WaitWords = onDemand(
  () =>
    Promise.all([
      import(/* webpackChunkName: "wait-words" */ './WaitMessage'),
      loadMessages('waits'),
    ]).then(([module]) => module.WaitMessage),
  { quiet: true },
);
