import { makeStore } from '../../../src/app/store';
import {
  initialSettingsState,
  languageChosen,
  selectLanguage,
} from '../../../src/features/settings';

describe('settings', () => {
  test('the interface starts in English', () => {
    expect(selectLanguage(makeStore().getState())).toBe('en');
  });

  test('choosing Korean switches the language', () => {
    const store = makeStore();
    store.dispatch(languageChosen('kr'));
    expect(selectLanguage(store.getState())).toBe('kr');
  });

  test('an unknown language is ignored', () => {
    const store = makeStore({
      preloadedState: { settings: { ...initialSettingsState, language: 'kr' } },
    });
    store.dispatch(languageChosen('fr'));
    expect(selectLanguage(store.getState())).toBe('kr');
  });
});
