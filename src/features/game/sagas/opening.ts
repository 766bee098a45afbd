/**
 * Opening generation (SPEC.md section 4): the character profile with the gender read from the
 * name, the opening scene streamed with its options, and its summary. The profile's gender and
 * the scene's summary ride in their replies; the spec's separate requests are fallbacks.
 */
import { call, put, race, select } from 'typed-redux-saga';
import { normalizeOptions } from '../../../engine/options';
import { pickText } from '../../../engine/reply';
import { REPLY_TOKENS, loreAtOpening } from '../../llm';
import { gameActions, type Story } from '../gameSlice';
import { policed } from './failurePolicy';
import { sheetChangesOf } from './sheetChanges';
import { sketchOf } from '../turnPrompt';
import { RETRY_LIMITS, askModel, currentPrompts } from './askModel';
import { selectState } from './flowState';
import { has, stringList, withOptions } from './gameState';
import { storyStopped } from './storyStops';

const GENDERS = ['male', 'female', 'non-binary'];

/**
 * SPEC.md section 3: the character profile, its gender read from the name. The profile reply
 * carries the gender; the spec's separate gender request is only its fallback.
 */
function* writeCharacterProfile(game: Story) {
  const prompts = yield* currentPrompts();
  const name = game.chosenCharacter;
  const profile = yield* call(
    askModel,
    prompts.characterProfile({ name, genre: game.chosenGenre }),
    {
      retries: RETRY_LIMITS.opening,
      replyTokens: REPLY_TOKENS.characterProfile,
      accept: has('characterBio'),
    },
  );
  let gender = pickText(profile, 'characterGender').toLowerCase();
  if (!GENDERS.includes(gender)) {
    const named = yield* call(askModel, prompts.genderFromName({ name }), {
      retries: RETRY_LIMITS.opening,
      replyTokens: REPLY_TOKENS.genderFromName,
      accept: has('gender'),
    });
    gender = pickText(named, 'gender');
  }
  yield* put(
    gameActions.characterProfileReceived({
      gender,
      bio: pickText(profile, 'characterBio'),
      traits: stringList(profile.characterQuirks).slice(0, 5),
      facialFeatures: stringList(profile.characterFacialFeatures).slice(0, 5),
    }),
  );
}

function* writeOpening() {
  const prompts = yield* currentPrompts();
  let { story: game } = (yield* select(selectState)).game;
  if (!game.characterBio) {
    yield* call(writeCharacterProfile, game);
    game = (yield* select(selectState)).game.story;
  }
  // SPEC.md section 4: 25 percent for each of traits, bio and image that exist, then 100 when
  // the opening is ready.
  const parts = [game.characterTraits.length > 0, game.characterBio !== '', game.chosenImage > 0];
  yield* put(gameActions.openingProgressed(25 * parts.filter(Boolean).length));

  const opening = yield* call(
    askModel,
    prompts.openingScene({
      character: sketchOf(game),
      genre: game.chosenGenre,
      lore: loreAtOpening(game.lorebook),
    }),
    {
      retries: RETRY_LIMITS.opening,
      streamField: 'storyStart',
      replyTokens: REPLY_TOKENS.openingScene,
      accept: withOptions('storyStart'),
    },
  );
  const storyStart = pickText(opening, 'storyStart');
  yield* put(
    gameActions.openingReceived({ storyStart, options: normalizeOptions(opening.options) }),
  );
  yield* call(sheetChangesOf, opening);
  yield* put(gameActions.openingProgressed(100));

  // The opening's summary rides in its reply; the spec's own request is the fallback.
  let summary = pickText(opening, 'newStorySummary');
  if (summary === '') {
    const reply = yield* call(
      askModel,
      prompts.openingSummary({
        characterName: game.chosenCharacter,
        genre: game.chosenGenre,
        storyStart,
      }),
      {
        retries: RETRY_LIMITS.openingSummary,
        replyTokens: REPLY_TOKENS.openingSummary,
        accept: has('newStorySummary'),
      },
    );
    summary = pickText(reply, 'newStorySummary');
  }
  yield* put(gameActions.openingSummaryReceived(summary));
}

/**
 * The opening generation worker: from the character named (or Try again on a failed opening)
 * to the opening scene and its summary, unless the player stops it first.
 */
export const openingGeneration = policed(function* openingGeneration(
  _action:
    | ReturnType<typeof gameActions.characterNamed>
    | ReturnType<typeof gameActions.openingRetryRequested>,
) {
  yield* race({ done: call(writeOpening), stopped: call(storyStopped) });
});
