import { useId, useState, type FormEvent } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { FREE_TEXT_MAX_CHARS } from '../gameModel';

interface ChoiceFormProps {
  /** False while the next segment is being written: typing ahead is fine, sending is not. */
  enabled: boolean;
  onSubmit: (text: string) => void;
}

/** The player's own words instead of an option ('Enter your choice'); Enter submits. */
export function ChoiceForm({ enabled, onSubmit }: ChoiceFormProps) {
  const intl = useIntl();
  const inputId = useId();
  const [text, setText] = useState('');

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const choice = text.trim();
    if (!enabled || choice === '') return;
    onSubmit(choice);
    setText('');
  }

  return (
    <form className="choice-form" onSubmit={submit}>
      <label htmlFor={inputId} className="choice-form__label">
        <FormattedMessage id="game.play.choiceLabel" />
      </label>
      <div className="choice-form__row">
        <input
          id={inputId}
          type="text"
          value={text}
          onChange={(event) => setText(event.target.value)}
          placeholder={intl.formatMessage({ id: 'game.play.choicePlaceholder' })}
          autoComplete="off"
          enterKeyHint="send"
          maxLength={FREE_TEXT_MAX_CHARS}
        />
        <button type="submit" className="button primary" disabled={!enabled}>
          <FormattedMessage id="game.play.choiceSubmit" />
        </button>
      </div>
    </form>
  );
}
