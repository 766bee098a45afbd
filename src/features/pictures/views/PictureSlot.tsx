import { selectStory, type PicturePlace } from '../../game';
import { ENDING_TURN, OPENING_TURN } from '../../stories';
import { useAppSelector } from '../../../shared/hooks';
import { roomForMoment, selectCanIllustrate, selectPictureAt } from '../picturesSlice';
import { StoryPicture } from './StoryPicture';

type State = Parameters<typeof selectStory>[0] & Parameters<typeof selectCanIllustrate>[0];

/**
 * The picture of a paragraph (or of the ending), or, in an illustrated story, the offer to draw
 * it: under the latest paragraph past the opening while the story has room for a moment, and
 * where its opening or its ending has none (not drawn, or let go when the story was left while
 * it was drawn); nothing where there is neither.
 */
export function PictureSlot({ place }: { place: PicturePlace }) {
  const turn = place === 'ending' ? ENDING_TURN : place.turn;
  const shown = useAppSelector((state: State) => selectPictureAt(state, turn) !== undefined);
  const offered = useAppSelector((state: State) => {
    if (!selectStory(state).illustrated || !selectCanIllustrate(state)) return false;
    if (place === 'ending' || place.turn === OPENING_TURN) return true;
    return place.latest && roomForMoment(state.pictures.pictures);
  });
  return shown || offered ? <StoryPicture turn={turn} /> : null;
}
