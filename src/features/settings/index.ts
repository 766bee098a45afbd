export {
  settingsSlice,
  languageChosen,
  modelSettingsChosen,
  selectLanguage,
  selectSettings,
  initialSettingsState,
} from './settingsSlice';
export type { SettingsState } from './settingsSlice';
