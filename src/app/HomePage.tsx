import { FormattedMessage } from 'react-intl';

const STEPS = ['home.steps.wallet', 'home.steps.key', 'home.steps.play', 'home.steps.score'];

/** The home screen. The API key form joins it with the game feature. */
export function HomePage() {
  return (
    <section className="home">
      <div className="hero">
        <p className="eyebrow">
          <FormattedMessage id="app.tagline" />
        </p>
        <h1>
          <FormattedMessage id="home.heading" />
        </h1>
        <p className="lead">
          <FormattedMessage id="home.intro" />
        </p>
      </div>
      <div className="panel">
        <h2>
          <FormattedMessage id="home.steps.title" />
        </h2>
        <ol className="steps">
          {STEPS.map((id) => (
            <li key={id}>
              <FormattedMessage id={id} />
            </li>
          ))}
        </ol>
      </div>
    </section>
  );
}
