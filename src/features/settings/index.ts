export {
  settingsSlice,
  languageChosen,
  modelSettingsChosen,
  autoReadChosen,
  selectLanguage,
  selectAutoRead,
  selectSettings,
  initialSettingsState,
} from './settingsSlice';
export type { SettingsState } from './settingsSlice';
