import { useId, useState } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { useAppDispatch } from '../../../shared/hooks';
import { gameActions } from '../gameSlice';
import { PORTRAIT_COUNT, portraitSrc } from '../portraits';
import './setup.css';

/** SPEC.md section 9: 32 characters, public/characters/1.png … 32.png, 1 selected at first. */
const PORTRAITS = Array.from({ length: PORTRAIT_COUNT }, (_, index) => index + 1);

/** SPEC.md section 2, view 4: a large preview, 'Choose me', and the 32 numbered thumbnails. */
export function PortraitView() {
  const intl = useIntl();
  const dispatch = useAppDispatch();
  const [selected, setSelected] = useState(1);
  const headingId = useId();
  const gridId = useId();

  return (
    <section className="panel setup-view portrait-view" aria-labelledby={headingId}>
      <h1 id={headingId}>
        <FormattedMessage id="game.portrait.heading" />
      </h1>
      <div className="portrait-view__layout">
        <div className="portrait-preview">
          <figure className="portrait-preview__figure">
            <img
              className="portrait-preview__image"
              src={portraitSrc(selected)}
              alt={intl.formatMessage({ id: 'game.portrait.previewAlt' }, { number: selected })}
              width={256}
              height={256}
            />
            <figcaption className="portrait-preview__caption" aria-live="polite">
              <FormattedMessage
                id="game.portrait.caption"
                values={{ number: selected, total: PORTRAIT_COUNT }}
              />
            </figcaption>
          </figure>
          <button
            type="button"
            className="button primary portrait-preview__choose"
            onClick={() => dispatch(gameActions.portraitChosen(selected))}
          >
            <FormattedMessage id="game.portrait.choose" />
          </button>
        </div>
        <div className="portrait-grid-wrap">
          <h2 id={gridId} className="setup-subheading">
            <FormattedMessage id="game.portrait.grid" />
          </h2>
          <ul className="portrait-grid" aria-labelledby={gridId}>
            {PORTRAITS.map((portrait) => (
              <li key={portrait}>
                <button
                  type="button"
                  className="portrait-thumb"
                  aria-pressed={portrait === selected}
                  onClick={() => setSelected(portrait)}
                >
                  <img
                    src={portraitSrc(portrait)}
                    alt={intl.formatMessage({ id: 'game.portrait.alt' }, { number: portrait })}
                    width={64}
                    height={64}
                    loading="lazy"
                    decoding="async"
                  />
                  <span className="portrait-thumb__number" aria-hidden="true">
                    {portrait}
                  </span>
                </button>
              </li>
            ))}
          </ul>
        </div>
      </div>
    </section>
  );
}
