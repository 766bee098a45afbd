import { memo } from 'react';
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
export const PictureSlot = memo(function PictureSlot({ place }: { place: PicturePlace }) {
  const turn = place === 'ending' ? ENDING_TURN : place.turn;
  const shown = useAppSelector((state: State) => selectPictureAt(state, turn) !== undefined);
  const offered = useAppSelector((state: State) => {
    if (!selectStory(state).illustrated || !selectCanIllustrate(state)) return false;
    if (place === 'ending' || place.turn === OPENING_TURN) return true;
    return place.latest && roomForMoment(state.pictures.pictures);
  });
  return shown || offered ? <StoryPicture turn={turn} /> : null;
}, samePlace);

/**
 * The story's log renders each slot anew with each entry it adds, each place a new object: a
 * slot whose place is the same is not rendered again, nor is its picture.
 */
function samePlace({ place: a }: { place: PicturePlace }, { place: b }: { place: PicturePlace }) {
  if (a === 'ending' || b === 'ending') return a === b;
  return a.turn === b.turn && a.latest === b.latest;
}
