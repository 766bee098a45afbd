export {
  settingsSlice,
  languageChosen,
  selectLanguage,
  initialSettingsState,
} from './settingsSlice';
export type { SettingsState } from './settingsSlice';
export { LanguageSelect } from './LanguageSelect';
