/**
 * One picture of the story (issue 41, parts 2 and 3), drawn beside the turn: asked of the
 * player's provider with the story's own words and compressed, kept in MyStoriesDB under the
 * story's id and turn, then shown. Its failures are its own: each ends as pictureFailed with
 * the kind the player is told, and nothing of the turn waits for it or hears of it.
 */
import { call, cancel, fork, join, put, race, select, take } from 'typed-redux-saga';
import { selectGame, type Story } from '../../game';
import {
  PICTURE_TIMEOUT_MS,
  PictureError,
  picturePrompt,
  providerById,
  type PictureMoment,
  type PictureShape,
} from '../../llm';
import { selectSettings } from '../../settings';
import {
  ENDING_TURN,
  PictureCompressionError,
  StorageError,
  type StorageErrorReason,
  keepPicture,
  selectCurrentRecord,
  storiesActions,
} from '../../stories';
import { wait } from '../../../shared/waits';
import {
  picturesActions,
  selectImageModels,
  selectListIsAnotherProviders,
  selectPictureModel,
  type PictureFailure,
} from '../picturesSlice';
import { handOverPicture } from '../handedOver';
import { IMAGE_MODELS_TIMEOUT_MS, listImageModels } from './imageModels';
import { fromContext } from './sagaContext';

/** The story's pictures sit beside the text, a column wide: landscape. */
const SHAPE: PictureShape = 'landscape';
/** The alt text: the scene's first words, enough to say what is shown. */
const ALT_MAX_CHARS = 300;

/** The paragraph a picture shows: the turn's (the opening's is 0), or the story's last. */
export function paragraphOf(story: Story, turn: number): string | null {
  const paragraphs = story.storyLog.filter((entry) => entry.kind === 'paragraph');
  const paragraph = turn === ENDING_TURN ? paragraphs.at(-1) : paragraphs[turn];
  return paragraph?.text ?? null;
}

/** The alt text of a picture: what its paragraph says, cut at a sentence where it can be. */
export function altOf(paragraph: string): string {
  const text = paragraph.replace(/\s+/g, ' ').trim();
  if (text.length <= ALT_MAX_CHARS) return text;
  const room = text.slice(0, ALT_MAX_CHARS);
  const sentence = room.search(/[.!?。](?=[^.!?。]*$)/);
  return sentence > ALT_MAX_CHARS / 3 ? room.slice(0, sentence + 1) : `${room.trimEnd()}…`;
}

/** What to draw: the scene, the hero as the story knows them, and the genre's style. */
export function promptOf(story: Story, paragraph: string, moment: PictureMoment): string {
  const looks = [story.characterGender, ...story.characterFacialFeatures].filter(Boolean);
  return picturePrompt({
    genre: story.chosenGenre,
    heroName: story.chosenCharacter,
    portraitDescription: looks.join(', '),
    bio: story.characterBio,
    paragraph,
    sheet: story.storySheet.entries,
    moment,
  });
}

/** What the player is told of a failed picture. */
export function failureOf(error: unknown, now: number): PictureFailure {
  if (error instanceof PictureError) {
    return {
      kind: error.kind,
      retryAt: error.retryAfterMs === null ? null : now + error.retryAfterMs,
      providerMessage: error.providerMessage,
    };
  }
  const failure = (kind: PictureFailure['kind']) => ({
    kind,
    retryAt: null,
    providerMessage: null,
  });
  if (error instanceof PictureCompressionError) {
    return failure(error.reason === 'cannotEncode' ? 'cannotEncode' : 'notAnImage');
  }
  if (error instanceof StorageError) return failure('notKept');
  console.error('A picture failed', error);
  return failure('other');
}

/**
 * The saved story's id, or why its save failed: a new story has one from its first save, which
 * the picture of its opening may have to wait for. Followed from when the picture is asked for,
 * as that save comes while the picture is being drawn (a story changed meanwhile cancels it).
 */
export function* savedStoryId(): Generator<unknown, number | StorageErrorReason> {
  for (;;) {
    const current = yield* select(selectCurrentRecord);
    if (current) return current.id;
    const { failed } = yield* race({
      saved: take(storiesActions.storySaved.type),
      failed: take(storiesActions.storySaveFailed),
    });
    if (failed) return failed.payload;
  }
}

/**
 * The image models listed for the player's provider: where the list is still another provider's
 * (the player has just changed provider, and the new list is being read), the new one, waited
 * for as long as a list may take to read.
 */
function* modelsOfTheProvider() {
  if (!(yield* select(selectListIsAnotherProviders))) return yield* select(selectImageModels);
  yield* race({
    read: take([
      picturesActions.imageModelsListed.type,
      picturesActions.imageModelsUnavailable.type,
    ]),
    late: call(wait, IMAGE_MODELS_TIMEOUT_MS),
  });
  return yield* select(selectImageModels);
}

/**
 * Asks the provider for the picture, compressed for keeping (the client does both, in the
 * pictures' worker where it can), at most PICTURE_TIMEOUT_MS on the context's clock for both
 * (compressing takes a second or two of it); a picture that takes longer, or a flow cancelled
 * meanwhile, aborts its request.
 */
function* askForPicture(prompt: string) {
  const client = yield* fromContext('pictureClient');
  const clock = yield* fromContext('clock');
  const models = yield* modelsOfTheProvider();
  const named = yield* select(selectPictureModel);
  if (models.status !== 'listed' || named === '') {
    throw new PictureError('retired', 'No model draws pictures');
  }
  const settings = yield* select(selectSettings);
  const { apiKey } = yield* select(selectGame);
  const provider = providerById(settings.provider);
  const model = models.models.find((listed) => listed.id === named);
  const controller = new AbortController();
  try {
    const { drawn } = yield* race({
      drawn: call([client, client.draw], {
        provider,
        baseUrl: settings.baseUrl,
        apiKey,
        signal: controller.signal,
        now: () => clock.now(),
        model: named,
        prompt,
        size: SHAPE,
        ...(model?.drawsOnly ? { drawsOnly: true } : {}),
      }),
      late: call(wait, PICTURE_TIMEOUT_MS),
    });
    if (!drawn) throw new PictureError('timeout', 'The picture took longer than its time');
    return { image: drawn, model: named };
  } finally {
    // Whether it won, lost or was cancelled (a new story), the request has nothing more to do.
    // No effect may be yielded here: this generator runs inside drawPicture's (yield*), and a
    // yield in its finally turns the cancellation into a normal return into drawPicture.
    controller.abort();
  }
}

/** Draws, keeps and shows one picture of the story being played. */
export function* drawPicture(turn: number, moment: PictureMoment) {
  const { story } = yield* select(selectGame);
  const paragraph = paragraphOf(story, turn);
  if (paragraph === null) return;
  const clock = yield* fromContext('clock');
  yield* put(picturesActions.pictureDrawingStarted({ turn, moment }));
  const saving = yield* fork(savedStoryId);
  try {
    const { image, model } = yield* askForPicture(promptOf(story, paragraph, moment));
    // The story's id, or why its save failed (savedStoryId).
    const saved: unknown = yield* join(saving);
    if (typeof saved !== 'number') {
      throw new StorageError(saved as StorageErrorReason, 'The story was not saved');
    }
    // Kept under the story as it is saved now: one that went on as a branch of its own meanwhile
    // (another tab had played it on) keeps its own line's pictures. A story left for another
    // cancels this flow, so the record here is still this story's.
    const storyId = (yield* select(selectCurrentRecord))?.id ?? saved;
    const openDb = yield* fromContext('openStoriesDb');
    const db = yield* call(openDb);
    const alt = altOf(paragraph);
    const result = yield* call(keepPicture, db, {
      storyId,
      turn,
      moment,
      blob: image.blob,
      width: image.width,
      height: image.height,
      alt,
      model,
      createdAt: new Date(clock.now()).toISOString(),
    });
    if (!result.kept) {
      const kind = result.reason === 'tooMany' ? 'tooMany' : 'notKept';
      const failure: PictureFailure = { kind, retryAt: null, providerMessage: null };
      yield* put(picturesActions.pictureFailed({ turn, moment, failure }));
      return;
    }
    // Kept: the places beyond the browser follow (the wallet's cloud), then it is shown, from
    // the Blob in hand (handedOver.ts).
    yield* put(storiesActions.pictureKept({ storyId, turn }));
    yield* call(handOverPicture, storyId, turn, image.blob);
    const { width, height } = image;
    yield* put(picturesActions.pictureShown({ storyId, turn, moment, width, height, alt }));
  } catch (error) {
    const failure = failureOf(error, clock.now());
    yield* put(picturesActions.pictureFailed({ turn, moment, failure }));
    // A model gone from the provider: its list is read again, so that Try again draws with
    // the one that stands in (with the notice of the model replaced).
    if (failure.kind === 'retired') yield* call(listImageModels);
  } finally {
    // A picture that failed before its story was saved waits for that save no more: its flow
    // ends here, and Try again may draw it anew.
    if (saving.isRunning()) yield* cancel(saving);
  }
}
