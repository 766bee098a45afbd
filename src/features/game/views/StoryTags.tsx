import { FormattedMessage } from 'react-intl';
import type { Alignment, Risk } from '../../../engine/types';

// Meaning is never colour alone (DESIGN.md, Look and feel): each tag carries a word, and an
// icon that is hidden from screen readers because the word says it already. (The outcome
// badge, which a published story shows too, is in WrittenStory.tsx.)

const RISK_LEVELS: Record<Risk, number> = { low: 1, medium: 2, high: 3 };

/** Low / medium / high risk, with a three-bar gauge filled to the level. */
export function RiskTag({ risk }: { risk: Risk }) {
  const level = RISK_LEVELS[risk];
  return (
    <span className={`story-tag story-tag--risk-${risk}`}>
      <span className="risk-gauge" aria-hidden="true">
        {[1, 2, 3].map((bar) => (
          <span
            key={bar}
            className={bar <= level ? 'risk-gauge__bar is-filled' : 'risk-gauge__bar'}
          />
        ))}
      </span>
      <FormattedMessage id={`game.tag.risk.${risk}`} />
    </span>
  );
}

const ALIGNMENT_ICONS: Record<Alignment, string> = { moral: '☀', immoral: '☾', neutral: '⚖' };

export function AlignmentTag({ alignment }: { alignment: Alignment }) {
  return (
    <span className={`story-tag story-tag--${alignment}`}>
      <span className="story-tag__icon" aria-hidden="true">
        {ALIGNMENT_ICONS[alignment]}
      </span>
      <FormattedMessage id={`game.tag.alignment.${alignment}`} />
    </span>
  );
}

/** The character trait an option plays to. */
export function TraitTag({ trait }: { trait: string }) {
  return (
    <span className="story-tag story-tag--trait">
      <span className="story-tag__icon" aria-hidden="true">
        ✧
      </span>
      <FormattedMessage id="game.tag.trait" values={{ trait }} />
    </span>
  );
}
