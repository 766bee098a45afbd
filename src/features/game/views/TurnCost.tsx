import { FormattedMessage, FormattedNumber } from 'react-intl';
import { useAppSelector } from '../../../shared/hooks';
import type { TokenTally } from '../cost/storyCost';
import type { GameState } from '../gameSlice';

const selectCost = (state: { game: GameState }) => state.game.story.cost;

/**
 * Dollars as small as a turn costs: cents where there are some, else two significant digits
 * ($0.00042), never rounded to nothing.
 */
const dollars = (amount: number) => (
  <FormattedNumber
    value={amount}
    style="currency"
    currency="USD"
    {...(amount >= 0.01 ? { maximumFractionDigits: 2 } : { maximumSignificantDigits: 2 })}
  />
);

/** Some requests' tokens as their providers reported them, and their price where one is known. */
function Tally({ tally }: { tally: TokenTally }) {
  if (tally.reported === 0) return <FormattedMessage id="memory.cost.notReported" />;
  const thinking = tally.reasoningTokens;
  return (
    <>
      <FormattedMessage
        id="memory.cost.tokens"
        values={{
          prompt: <FormattedNumber value={tally.promptTokens} />,
          reply: <FormattedNumber value={tally.replyTokens} />,
        }}
      />
      {thinking !== null && thinking > 0 && (
        <>
          {' '}
          <FormattedMessage
            id="memory.cost.thinking"
            values={{ tokens: <FormattedNumber value={thinking} /> }}
          />
        </>
      )}
      {/* A price only where the provider or its model list gave one: partly priced is "at least". */}
      {tally.unpriced < tally.reported && (
        <>
          {' · '}
          <FormattedMessage
            id={tally.unpriced === 0 ? 'memory.cost.price' : 'memory.cost.atLeast'}
            values={{ amount: dollars(tally.costUsd) }}
          />
        </>
      )}
      {tally.notReported > 0 && (
        <>
          {' · '}
          <FormattedMessage
            id="memory.cost.someNotReported"
            values={{ count: tally.notReported }}
          />
        </>
      )}
    </>
  );
}

/**
 * What the story's requests used (issue 40, part 3), in Story so far: the latest turn's (its
 * paragraph, summary, rewrites; the opening is its own) and the whole story's, as the provider
 * reported them. Nothing before the first request is counted.
 */
export function TurnCost() {
  const cost = useAppSelector(selectCost);
  if (cost.total.reported + cost.total.notReported === 0) return null;
  return (
    <dl className="turn-cost">
      <div className="turn-cost__row">
        <dt>
          {cost.turn === 0 ? (
            <FormattedMessage id="memory.cost.opening" />
          ) : (
            <FormattedMessage id="memory.cost.turn" values={{ turn: cost.turn }} />
          )}
        </dt>
        <dd>
          <Tally tally={cost.lastTurn} />
        </dd>
      </div>
      <div className="turn-cost__row">
        <dt>
          <FormattedMessage id="memory.cost.story" />
        </dt>
        <dd>
          <Tally tally={cost.total} />
        </dd>
      </div>
    </dl>
  );
}
