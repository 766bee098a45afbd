import { useCallback, useEffect, useState } from 'react';
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
  type ShownPicture as Shown,
} from '../picturesSlice';
import { letGoOfHandedPicture, pictureHandedOver } from '../handedOver';
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
  // Its one subscription while it is shown: every picture of a story is on the page, and each
  // streamed update of a turn asks each subscription whether it changed.
  const picture = useAppSelector((state: { pictures: PicturesState }) =>
    selectPictureAt(state, turn),
  );
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
  if (picture.status === 'shown') return <ShownPicture picture={picture} turn={turn} />;
  if (picture.status === 'drawing') return <PictureBeingDrawn />;
  return <FailedPicture failure={picture.failure} turn={turn} />;
}

/** The placeholder, in the shape the provider draws in: its place is kept while it comes. */
function PictureBeingDrawn() {
  const models = useAppSelector(selectImageModels);
  const waitingRatio = pictureRatio(models.status === 'unknown' ? '' : models.provider);
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

/** Why the picture is not there, with Try again where the same request could succeed. */
function FailedPicture({ failure, turn }: { failure: PictureFailure; turn: number }) {
  const dispatch = useAppDispatch();
  // Try again draws with the model there is: none (a Custom server's name cleared), none.
  const canIllustrate = useAppSelector(selectCanIllustrate);
  return (
    <figure className="story-picture">
      <div className="story-picture__failed">
        <FailureMessage failure={failure} />
        {canIllustrate && !FINAL_FAILURES.has(failure.kind) && (
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

/**
 * A kept picture: the Blob its flow has just handed over (handedOver.ts), shown at once, or
 * else a blob: URL of what MyStoriesDB keeps, its place kept while it is read.
 */
function ShownPicture({ picture, turn }: { picture: Omit<Shown, 'turn'>; turn: number }) {
  const { storyId, width, height, alt } = picture;
  // Looked for once, when the picture is first shown (a read: it is taken in the effect below).
  const [handed] = useState(() => pictureHandedOver(storyId, turn));
  useEffect(() => {
    if (handed) letGoOfHandedPicture(storyId, turn);
  }, [handed, storyId, turn]);
  const read = usePictureUrl(handed ? null : storyId, turn);
  // Its own blob: URL while the image is on the page, made as it is put there (no render more).
  const handedSource = useCallback(
    (image: HTMLImageElement | null) => {
      if (!image || !handed) return undefined;
      const url = URL.createObjectURL(handed);
      image.src = url;
      return () => URL.revokeObjectURL(url);
    },
    [handed],
  );
  // Its story's record is gone (deleted once its result went to the leaderboard): nothing.
  if (read === 'gone') return null;
  return (
    <figure className="story-picture">
      {handed ? (
        <img
          ref={handedSource}
          className="story-picture__image"
          width={width}
          height={height}
          alt={alt}
        />
      ) : read === null ? (
        <div
          className="story-picture__waiting"
          style={{ aspectRatio: `${width} / ${height}` }}
          role="img"
          aria-label={alt}
        />
      ) : (
        <img className="story-picture__image" src={read} width={width} height={height} alt={alt} />
      )}
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
