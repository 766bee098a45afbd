/**
 * What the pictures put into the game's views (GameSlots: illustrate, pictureAt), as small as
 * they can be, since they are in every game's code: the app passes each only once the pictures'
 * flows have something for it, and its view and words are downloaded then (issue 41, part 6):
 * "Illustrate this story" once a key's provider draws, the pictures once a story is illustrated.
 */
import type { PicturePlace, PictureSlot } from '../game';
import { loadMessages } from '../../shared/messageParts';
import { onDemand } from '../../shared/onDemand';
import type { PicturesState } from './picturesSlice';

type WithPictures = { pictures?: PicturesState };

/**
 * Whether "Illustrate this story" may be offered: the pictures' slice comes with their first
 * flows, which load only for a provider that draws or a story that was illustrated.
 */
export const illustrationOffered = (state: WithPictures): boolean => state.pictures !== undefined;

/** Whether a story's pictures may show: their flows have come, with its first illustrated story. */
export const picturesShown = (state: WithPictures): boolean => state.pictures?.storyFlows === true;

/** "Illustrate this story", where the player's provider draws. */
export const IllustrateSlot = onDemand(() =>
  Promise.all([
    import(/* webpackChunkName: "pictures-offer" */ './views/IllustrateToggle'),
    loadMessages('illustrate'),
  ]).then(([module]) => module.IllustrateToggle),
);

const PictureSlotOf = onDemand<{ place: PicturePlace }>(
  () =>
    Promise.all([
      import(/* webpackChunkName: "pictures-drawing" */ './views/PictureSlot'),
      loadMessages('pictures'),
    ]).then(([module]) => module.PictureSlot),
  { quiet: true },
);

/** The picture of a paragraph, or of the ending, or the offer to draw the latest moment. */
export const pictureAt: PictureSlot = (place) => <PictureSlotOf place={place} />;
