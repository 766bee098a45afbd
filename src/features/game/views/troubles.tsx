import { useAppSelector } from '../../../shared/hooks';
import { loadMessages } from '../../../shared/messageParts';
import { onDemand } from '../../../shared/onDemand';
import { selectModelReplaced } from '../../llm';

/**
 * What the game says when the model gives trouble, with its words (the 'troubles' part):
 * downloaded the first time it is shown, which most games never are. One chunk for both.
 */
const troubles = () =>
  Promise.all([
    import(/* webpackChunkName: "model-troubles" */ './troubleViews'),
    loadMessages('troubles'),
  ]).then(([module]) => module);

/**
 * A wait for the model (WaitMessage.tsx: a per-minute limit, a garbled or dropped reply, a
 * cut-off one). The overlay or loading screen around it says the game is busy meanwhile, so
 * the part says nothing while it comes.
 */
export const WaitWords = onDemand(() => troubles().then((module) => module.WaitMessage), {
  quiet: true,
});

const ReplacedNotice = onDemand(() => troubles().then((module) => module.ModelReplacedNotice));

/** The saved model is one the provider no longer offers: said once it is so (and only then). */
export function ModelReplaced() {
  return useAppSelector(selectModelReplaced) ? <ReplacedNotice /> : null;
}
