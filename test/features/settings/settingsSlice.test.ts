import { makeStore } from '../../../src/app/store';
import { MODEL_FEATURES } from '../../../src/features/llm';
import {
  initialSettingsState,
  languageChosen,
  selectLanguage,
  settingsSlice,
} from '../../../src/features/settings';

const settingsReducer = settingsSlice.reducer;

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

describe('what providers taught, kept across visits', () => {
  test('a lesson of every feature a provider may refuse comes back, stream_options too; nonsense does not', () => {
    const key = 'mistral https://api.mistral.ai/v1 mistral-small-latest';
    const taught = MODEL_FEATURES.map((feature) => ({ feature }));
    const restored = settingsReducer(
      undefined,
      settingsSlice.actions.restored({
        modelLessons: { [key]: [...taught, { feature: 'include_usage' }, { feature: 7 }] },
      }),
    );
    expect(restored.modelLessons[key]).toEqual(taught);
    expect(MODEL_FEATURES).toContain('stream_options');
  });
});
