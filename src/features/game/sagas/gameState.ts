/**
 * What a model's reply must hold for the game's state to move on (SPEC.md section 4, Game
 * flow: the opening takes the game from loading to playing, and a reply with isFinal true takes
 * it to endingScreen). A reply that holds less is asked for again (askModel.ts); whether a
 * turn's reply may end the story is the conclusion check's (conclusion.ts).
 */
import { normalizeOptions } from '../../../engine/options';
import { pickText } from '../../../engine/reply';

export const has =
  (...fields: string[]) =>
  (reply: Record<string, unknown>) =>
    fields.every((field) => pickText(reply, field) !== '');

export const withOptions = (field: string) => (reply: Record<string, unknown>) =>
  has(field)(reply) && normalizeOptions(reply.options).length > 0;

/** The reply says the story ends (SPEC.md section 4): isFinal, which some models write as text. */
export const endsStory = (reply: Record<string, unknown>) =>
  reply.isFinal === true || reply.isFinal === 'true';

/** From turn 7: an ending needs only its segment; a story that goes on needs options. */
export const segmentOrEnding = (reply: Record<string, unknown>) =>
  endsStory(reply) ? has('storySegment')(reply) : withOptions('storySegment')(reply);

export const stringList = (value: unknown): string[] =>
  Array.isArray(value)
    ? value.filter((item): item is string => typeof item === 'string' && item.trim() !== '')
    : [];
