import { FormattedMessage } from 'react-intl';
import { Link } from 'react-router-dom';

/** /game: one view per gameState. Until the game feature lands, it points back home. */
export function GamePage() {
  return (
    <section className="panel">
      <h1>
        <FormattedMessage id="game.heading" />
      </h1>
      <p>
        <FormattedMessage id="game.needsKey" />
      </p>
      <Link className="button primary" to="/">
        <FormattedMessage id="common.returnHome" />
      </Link>
    </section>
  );
}
