/**
 * What the pictures put into the game's views (GameSlots: illustrate, pictureAt), as small as
 * they can be: they are in every game's code. Each reads one value of the store and shows
 * nothing until there is a picture or a choice to show; the views that do (and their words)
 * are downloaded then (issue 41, part 6).
 */
import { selectStory, type PicturePlace, type PictureSlot } from '../game';
import { ENDING_TURN } from '../stories';
import { useAppSelector } from '../../shared/hooks';
import { loadMessages } from '../../shared/messageParts';
import { onDemand } from '../../shared/onDemand';
import type { PicturesState } from './picturesSlice';

const views = () =>
  Promise.all([
    import(/* webpackChunkName: "pictures-views" */ './views/pictureViews'),
    loadMessages('pictures'),
  ]).then(([module]) => module);
const IllustrateToggle = onDemand(() => views().then((module) => module.IllustrateToggle));
const StoryPicture = onDemand(() => views().then((module) => module.StoryPicture));

/** The pictures' slice comes with their flows: until then, a store has none. */
type State = Parameters<typeof selectStory>[0] & { pictures?: PicturesState };

const canIllustrate = (state: State) => state.pictures?.imageModels.status === 'listed';

/** "Illustrate this story", where the player's provider draws. */
export function IllustrateSlot() {
  const can = useAppSelector(canIllustrate);
  return can ? <IllustrateToggle /> : null;
}

/**
 * The picture of a paragraph (or of the ending), or, under the latest paragraph of an
 * illustrated story past its opening, the offer to draw it.
 */
function PictureSlotOf({ place }: { place: PicturePlace }) {
  const turn = place === 'ending' ? ENDING_TURN : place.turn;
  const shown = useAppSelector((state: State) => state.pictures?.pictures[turn] !== undefined);
  const offered = useAppSelector(
    (state: State) =>
      place !== 'ending' &&
      place.latest &&
      place.turn > 0 &&
      selectStory(state).illustrated &&
      canIllustrate(state),
  );
  return shown || offered ? <StoryPicture turn={turn} /> : null;
}

export const pictureAt: PictureSlot = (place) => <PictureSlotOf place={place} />;
