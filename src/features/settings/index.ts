export {
  settingsSlice,
  languageChosen,
  modelSettingsChosen,
  autoReadChosen,
  modelLessonLearned,
  selectModelLessons,
  selectLanguage,
  selectAutoRead,
  selectSettings,
  initialSettingsState,
} from './settingsSlice';
export type { SettingsState } from './settingsSlice';
