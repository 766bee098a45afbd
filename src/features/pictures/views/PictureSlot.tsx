import { selectStory, type PicturePlace } from '../../game';
import { ENDING_TURN } from '../../stories';
import { useAppSelector } from '../../../shared/hooks';
import { selectCanIllustrate, selectPictureAt, type PicturesState } from '../picturesSlice';
import { StoryPicture } from './StoryPicture';

type State = Parameters<typeof selectStory>[0] & { pictures: PicturesState };

/**
 * The picture of a paragraph (or of the ending), or, under the latest paragraph of an
 * illustrated story past its opening, the offer to draw it; nothing where there is neither.
 */
export function PictureSlot({ place }: { place: PicturePlace }) {
  const turn = place === 'ending' ? ENDING_TURN : place.turn;
  const shown = useAppSelector((state: State) => selectPictureAt(state, turn) !== undefined);
  const offered = useAppSelector(
    (state: State) =>
      place !== 'ending' &&
      place.latest &&
      place.turn > 0 &&
      selectStory(state).illustrated &&
      selectCanIllustrate(state),
  );
  return shown || offered ? <StoryPicture turn={turn} /> : null;
}
