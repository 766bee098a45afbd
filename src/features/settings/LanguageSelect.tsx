import { useId } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { useAppDispatch, useAppSelector } from '../../shared/hooks';
import { languageChosen, selectLanguage } from './settingsSlice';

/** The header's 'Language' selector: English (en) and Korean (kr), applied at once. */
export function LanguageSelect() {
  const id = useId();
  const intl = useIntl();
  const language = useAppSelector(selectLanguage);
  const dispatch = useAppDispatch();
  return (
    <div className="language-select">
      <label htmlFor={id}>
        <FormattedMessage id="language.label" />
      </label>
      <select
        id={id}
        value={language}
        onChange={(event) => dispatch(languageChosen(event.target.value))}
      >
        <option value="en">{intl.formatMessage({ id: 'language.en' })}</option>
        <option value="kr">{intl.formatMessage({ id: 'language.kr' })}</option>
      </select>
    </div>
  );
}
