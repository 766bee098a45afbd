import { FormattedMessage, useIntl } from 'react-intl';
import { providerById } from '../../llm';
import { useAppDispatch, useAppSelector } from '../../../shared/hooks';
import {
  picturesActions,
  selectImageModels,
  selectPictureAt,
  type PictureFailure,
  type PicturesState,
} from '../picturesSlice';
import { useSecondsUntil } from '../../../shared/useSecondsUntil';
import { usePictureUrl } from './usePictureUrl';
import './pictures.css';

/** The shape a picture is drawn in (landscape, 3:2): its place is kept while it comes. */
const WAITING_RATIO = '3 / 2';

/** Failures that the same request would meet again: no Try again is offered for them. */
const FINAL_FAILURES: ReadonlySet<PictureFailure['kind']> = new Set(['refused', 'tooLarge']);

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
  const url = usePictureUrl(turn, picture?.status === 'shown');
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
        <div className="story-picture__waiting" style={{ aspectRatio: WAITING_RATIO }}>
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
        {!FINAL_FAILURES.has(picture.failure.kind) && (
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
  const intl = useIntl();
  const models = useAppSelector(selectImageModels);
  const provider = models.status === 'unknown' ? '' : providerById(models.provider).label;
  const model = models.status === 'listed' ? models.model : '';
  const seconds = useSecondsUntil(failure.retryAt);
  const id =
    failure.kind === 'rateLimited' && seconds === 0
      ? 'pictures.failed.rateLimitedNow'
      : `pictures.failed.${failure.kind}`;
  return (
    <div className="story-picture__why" role="alert">
      <p>{intl.formatMessage({ id }, { provider, model, seconds })}</p>
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
