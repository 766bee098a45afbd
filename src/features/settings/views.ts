// The settings feature's views, apart from its index: a saga that reads the settings never
// pulls in a component (and, through it, the app's hooks).
export { LanguageSelect } from './LanguageSelect';
