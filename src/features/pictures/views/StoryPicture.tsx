import { FormattedMessage } from 'react-intl';
import { useProviderName } from '../../game/sharedViews';
import { pictureRatio } from '../../llm';
import { useAppDispatch, useAppSelector } from '../../../shared/hooks';
import {
  picturesActions,
  selectCanIllustrate,
  selectImageModels,
  selectPictureModel,
  selectPictureAt,
  type PictureFailure,
  type PicturesState,
} from '../picturesSlice';
import { MAX_PICTURES_PER_STORY } from '../../stories';
import { useSecondsUntil } from '../../../shared/useSecondsUntil';
import { usePictureUrl } from './usePictureUrl';
import './pictures.css';

/** Failures that the same request would meet again: no Try again is offered for them. */
const FINAL_FAILURES: ReadonlySet<PictureFailure['kind']> = new Set([
  'refused',
  'tooLarge',
  'tooMany',
  'cannotEncode',
]);

/**
 * A picture of the story under its paragraph (issue 41, part 3): the offer to draw the latest
 * moment, a placeholder of the picture's size while it is drawn, the picture, or why it is
 * not there with Try again. Shown only from a blob: URL of the kept picture.
 */
export function StoryPicture({ turn }: { turn: number }) {
  const dispatch = useAppDispatch();
  const picture = useAppSelector((state: { pictures: PicturesState }) =>
    selectPictureAt(state, turn),
  );
  const url = usePictureUrl(picture?.status === 'shown' ? picture.storyId : null, turn);
  // Try again draws with the model there is: none (a Custom server's name cleared), none.
  const canIllustrate = useAppSelector(selectCanIllustrate);
  // The shape the provider draws in: its place is kept while it comes.
  const models = useAppSelector(selectImageModels);
  const waitingRatio = pictureRatio(models.status === 'unknown' ? '' : models.provider);
  if (picture === undefined) {
    return (
      <div className="story-picture__offer">
        <button
          type="button"
          className="button"
          onClick={() => dispatch(picturesActions.momentPictureRequested(turn))}
        >
          <span aria-hidden="true">🖼 </span>
          <FormattedMessage id="pictures.moment" />
        </button>
      </div>
    );
  }
  if (picture.status === 'shown') {
    // Its story's record is gone (deleted once its result went to the leaderboard): nothing.
    if (url === 'gone') return null;
    const { width, height, alt } = picture;
    return (
      <figure className="story-picture">
        {url === null ? (
          <div
            className="story-picture__waiting"
            style={{ aspectRatio: `${width} / ${height}` }}
            role="img"
            aria-label={alt}
          />
        ) : (
          <img className="story-picture__image" src={url} width={width} height={height} alt={alt} />
        )}
      </figure>
    );
  }
  if (picture.status === 'drawing') {
    return (
      <figure className="story-picture">
        <div className="story-picture__waiting" style={{ aspectRatio: waitingRatio }}>
          <p role="status">
            <FormattedMessage id="pictures.drawing" />
          </p>
        </div>
      </figure>
    );
  }
  return (
    <figure className="story-picture">
      <div className="story-picture__failed">
        <FailureMessage failure={picture.failure} />
        {canIllustrate && !FINAL_FAILURES.has(picture.failure.kind) && (
          <button
            type="button"
            className="button"
            onClick={() => dispatch(picturesActions.pictureRetryRequested(turn))}
          >
            <FormattedMessage id="pictures.retry" />
          </button>
        )}
      </div>
    </figure>
  );
}

function FailureMessage({ failure }: { failure: PictureFailure }) {
  const models = useAppSelector(selectImageModels);
  const providerName = useProviderName();
  const provider = models.status === 'unknown' ? '' : providerName(models.provider);
  const model = useAppSelector(selectPictureModel);
  const seconds = useSecondsUntil(failure.retryAt);
  const named = models.status === 'listed' && models.named;
  const id =
    failure.kind === 'rateLimited' && seconds === 0
      ? 'pictures.failed.rateLimitedNow'
      : failure.kind === 'retired' && named
        ? 'pictures.failed.retiredNamed'
        : `pictures.failed.${failure.kind}`;
  return (
    <div className="story-picture__why" role="alert">
      <p>
        <FormattedMessage
          id={id}
          values={{
            provider,
            model,
            count: MAX_PICTURES_PER_STORY,
            // The countdown changes every second: an alert read again each time would drown
            // the story (as the game's own waits do, WaitMessage.tsx).
            seconds: <span aria-live="off">{seconds}</span>,
          }}
        />
      </p>
      {failure.providerMessage !== null && (
        <p className="story-picture__said">
          <FormattedMessage
            id="pictures.said"
            values={{ provider, message: failure.providerMessage }}
          />
        </p>
      )}
    </div>
  );
}
