import { onDemand } from '../../../shared/onDemand';
import type { Problem } from '../gameSlice';

/**
 * Where another model of the same provider may do better: one at its daily cap, and one whose
 * replies keep coming back cut off or unreadable.
 */
const ANOTHER_MODEL_HELPS: ReadonlySet<Problem['reason']> = new Set([
  'dailyLimit',
  'replyCutOff',
  'retriesExhausted',
]);

interface LimitOfferProps {
  problem: Problem;
  /** Asks for what failed again, now with the model or key the player chose. */
  onContinue: () => void;
}

/**
 * The offer's code comes with the first problem it is made for (a daily cap, a key without
 * credit, replies that keep failing): those are answers the provider gave, so the page is
 * online to fetch it, and a game without one never downloads it.
 */
const LimitOfferPanel = onDemand(() =>
  import(/* webpackChunkName: "limit-offer" */ './LimitOfferPanel').then((m) => m.LimitOfferPanel),
);

/**
 * A daily cap or a key without credit stops the game politely (DESIGN.md, "Limits read from
 * the answer"), and so does a model whose replies keep coming back cut off or unreadable: when
 * a cap resets, and a way on without losing the story: another model of the same provider (not
 * for a key without credit, which no model of it can use), or another provider or key on the
 * key screen, after which the story goes on where it stopped.
 */
export function LimitOffer({ problem, onContinue }: LimitOfferProps) {
  const anotherModel = ANOTHER_MODEL_HELPS.has(problem.reason);
  if (!anotherModel && problem.reason !== 'noCredit') return null;
  return <LimitOfferPanel problem={problem} anotherModel={anotherModel} onContinue={onContinue} />;
}
