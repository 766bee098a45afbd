import { useId, useLayoutEffect, type Ref } from 'react';
import { FormattedMessage } from 'react-intl';
import type { StoryOption } from '../../../engine/types';
import { markOptionsVisible } from '../turnTiming';
import { AlignmentTag, RiskTag, TraitTag } from './StoryTags';

/** Number keys 1 to 4 pick an option, so a turn can be played from the keyboard alone. */
export const OPTION_KEYS = 4;

interface OptionListProps {
  options: StoryOption[];
  onChoose: (index: number) => void;
  /** Given to the first option, so focus can land there after a turn. */
  firstOptionRef: Ref<HTMLButtonElement>;
}

/** The choices under the latest paragraph, numbered, each with its risk, alignment and trait. */
export function OptionList({ options, onChoose, firstOptionRef }: OptionListProps) {
  const headingId = useId();
  // New options are in the page: the end of a turn's client work (turnTiming.ts).
  useLayoutEffect(markOptionsVisible, [options]);
  return (
    <section className="options" aria-labelledby={headingId}>
      <h2 id={headingId} className="options__heading">
        <FormattedMessage id="game.play.optionsHeading" />
      </h2>
      <ol className="options__list">
        {options.map((option, index) => (
          <li key={index}>
            <button
              type="button"
              className="option"
              ref={index === 0 ? firstOptionRef : undefined}
              aria-keyshortcuts={index < OPTION_KEYS ? String(index + 1) : undefined}
              onClick={() => onChoose(index)}
            >
              <span className="option__number" aria-hidden="true">
                {index + 1}
              </span>
              <span className="option__body">
                <span className="option__text">{option.text}</span>
                <span className="option__tags">
                  <RiskTag risk={option.risk} />
                  <AlignmentTag alignment={option.alignment} />
                  {option.traitAlignment.trim() !== '' && (
                    <TraitTag trait={option.traitAlignment.trim()} />
                  )}
                </span>
              </span>
            </button>
          </li>
        ))}
      </ol>
      <p className="options__hint">
        <FormattedMessage
          id="game.play.optionsHint"
          values={{ count: Math.min(options.length, OPTION_KEYS) }}
        />
      </p>
    </section>
  );
}
