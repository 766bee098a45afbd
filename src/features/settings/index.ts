export {
  settingsSlice,
  languageChosen,
  modelSettingsChosen,
  autoReadChosen,
  cloudSavesChosen,
  modelLessonLearned,
  genreLorebookSaved,
  genreLorebookForgotten,
  selectModelLessons,
  selectGenreLorebooks,
  selectLanguage,
  selectAutoRead,
  selectCloudSaves,
  selectSettings,
  initialSettingsState,
} from './settingsSlice';
export type { SettingsState } from './settingsSlice';
export { MAX_GENRE_LOREBOOKS } from './settingsSlice';
