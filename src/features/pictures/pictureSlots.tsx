/**
 * What the pictures put into the game's views (GameSlots: illustrate, pictureAt), as small as
 * they can be, since they are in every game's code: the app passes them only once the pictures
 * have something to show (picturesToShow: a model that draws, or a picture of the story), and
 * their views and words are downloaded then (issue 41, part 6).
 */
import type { PicturePlace, PictureSlot } from '../game';
import { loadMessages } from '../../shared/messageParts';
import { onDemand } from '../../shared/onDemand';
import type { PicturesState } from './picturesSlice';

const views = () =>
  Promise.all([
    import(/* webpackChunkName: "pictures-views" */ './views/pictureViews'),
    loadMessages('pictures'),
  ]).then(([module]) => module);

/**
 * Whether the pictures have anything to show: their slice comes with their flows, and a model
 * that draws or a kept picture of the story makes their views worth downloading.
 */
export const picturesToShow = (state: { pictures?: PicturesState }): boolean =>
  state.pictures !== undefined &&
  (state.pictures.imageModels.status === 'listed' ||
    Object.keys(state.pictures.pictures).length > 0);

/** "Illustrate this story", where the player's provider draws. */
export const IllustrateSlot = onDemand(() => views().then((module) => module.IllustrateToggle));

const PictureSlotOf = onDemand<{ place: PicturePlace }>(
  () => views().then((module) => module.PictureSlot),
  { quiet: true },
);

/** The picture of a paragraph, or of the ending, or the offer to draw the latest moment. */
export const pictureAt: PictureSlot = (place) => <PictureSlotOf place={place} />;
