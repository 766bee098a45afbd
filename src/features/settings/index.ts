export {
  settingsSlice,
  languageChosen,
  modelSettingsChosen,
  autoReadChosen,
  cloudSavesChosen,
  modelLessonLearned,
  selectModelLessons,
  selectLanguage,
  selectAutoRead,
  selectCloudSaves,
  selectSettings,
  initialSettingsState,
} from './settingsSlice';
export type { SettingsState } from './settingsSlice';
