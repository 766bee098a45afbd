/**
 * What the pictures put into the game's views (GameSlots: illustrate, pictureAt), as small as
 * they can be, since they are in every game's code: the app passes them only once the pictures'
 * flows have come (picturesToShow), and their views and words are downloaded then (issue 41,
 * part 6).
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
 * Whether the pictures may have anything to show: their slice comes with their flows, which
 * load only for a provider that draws or a story that was illustrated.
 */
export const picturesToShow = (state: { pictures?: PicturesState }): boolean =>
  state.pictures !== undefined;

/** "Illustrate this story", where the player's provider draws. */
export const IllustrateSlot = onDemand(() => views().then((module) => module.IllustrateToggle));

const PictureSlotOf = onDemand<{ place: PicturePlace }>(
  () => views().then((module) => module.PictureSlot),
  { quiet: true },
);

/** The picture of a paragraph, or of the ending, or the offer to draw the latest moment. */
export const pictureAt: PictureSlot = (place) => <PictureSlotOf place={place} />;
