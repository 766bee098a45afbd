// The game's views that another feature's page shows too, as the game shows them: the story's
// lines and the ending's emblem, name and highlights (a published story's page), and a
// provider's name in the interface language (the pictures' views). Presentational,
// over plain props (no store), each bringing its stylesheet (views/writtenStory.css); kept out of
// the index, which Node tools import (eslint.config.mjs lets other features import both).
export {
  EndingEmblem,
  EndingHighlights,
  EndingTypeName,
  StoryChoice,
  StoryParagraph,
  endingMoodClass,
} from './views/WrittenStory';
export { useProviderName } from './views/providerName';
