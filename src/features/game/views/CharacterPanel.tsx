import { useId, useState } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { portraitSrc } from '../portraits';

interface CharacterPanelProps {
  name: string;
  /** Portrait number 1..32 (public/characters/N.png). */
  image: number;
  traits: string[];
  bio: string;
}

/**
 * The character beside the story: portrait, name, and details behind a toggle. The details
 * start folded; on phones the whole panel shrinks to a bar above the story (play.css).
 */
export function CharacterPanel({ name, image, traits, bio }: CharacterPanelProps) {
  const intl = useIntl();
  const nameId = useId();
  const detailsId = useId();
  const [open, setOpen] = useState(false);
  return (
    <aside className="character-panel" aria-labelledby={nameId}>
      <img
        className="character-panel__portrait"
        src={portraitSrc(image)}
        alt={intl.formatMessage({ id: 'game.character.portraitAlt' }, { name })}
        width={256}
        height={256}
      />
      <div className="character-panel__heading">
        <p className="character-panel__eyebrow">
          <FormattedMessage id="game.character.heading" />
        </p>
        <h2 id={nameId} className="character-panel__name">
          {name}
        </h2>
      </div>
      <button
        type="button"
        className="character-panel__toggle"
        aria-expanded={open}
        aria-controls={detailsId}
        onClick={() => setOpen((shown) => !shown)}
      >
        <FormattedMessage id={open ? 'game.character.hideDetails' : 'game.character.showDetails'} />
      </button>
      <div id={detailsId} className="character-panel__details" hidden={!open}>
        <h3>
          <FormattedMessage id="game.character.traits" />
        </h3>
        <ul className="character-panel__traits">
          {traits.map((trait, index) => (
            <li key={index}>{trait}</li>
          ))}
        </ul>
        <h3>
          <FormattedMessage id="game.character.bio" />
        </h3>
        <p className="character-panel__bio">{bio}</p>
      </div>
    </aside>
  );
}
