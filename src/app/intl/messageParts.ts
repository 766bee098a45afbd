import type { LaterMessagePart } from '../../shared/messageParts';

/**
 * Which messages come with which code, by the id's first word: the home screen's own code
 * (the entry point) shows only the 'home' part; the profile page alone shows 'profile'; every
 * other message comes with the first page or part after the home screen ('pages': the API key
 * form, the game, the leaderboard). So / does not download the words of the game, the
 * leaderboard or the profile before it paints, and a game never downloads the profile's. The
 * 'sharing' part is a published story's page, the cloud saves' and Publish's own views, the
 * saved stories' cards, and the saved-stories list's note on keeping stories (which offers
 * cloud saves); the 'localNetwork'
 * part, what the key screen says of the browser's Local Network Access, only where a page may
 * need the player's permission to reach their own server. The 'memory' part is what the play
 * screen's closed panels on the story's memory say once opened (Story so far's and the story
 * sheet's contents); the 'lore' part, the lorebook panel's words, with its code; the
 * 'illustrate' part, what "Illustrate this story" says (issue 41), with its view, offered where
 * the provider draws; the 'pictures' part, the story's pictures' words, with their views' code.
 */
export type MessagePart = 'home' | LaterMessagePart;

const PART_OF_PREFIX: Readonly<Record<string, MessagePart>> = {
  app: 'home',
  nav: 'home',
  home: 'home',
  language: 'home',
  common: 'home',
  error: 'home',
  wallet: 'home',
  profile: 'profile',
  // A published story's page, and the cloud's views: only those who publish or keep stories
  // with their wallet, or read a published story, fetch these words; and the note on whether
  // the browser keeps the saved stories, shown only once there are some.
  published: 'sharing',
  sharing: 'sharing',
  keeping: 'sharing',
  localNetwork: 'localNetwork',
  memory: 'memory',
  sheet: 'memory',
  pictures: 'pictures',
};

/**
 * The play screen's lorebook (game.lore.*) comes with its panel's code: a game that never opens
 * it never fetches its words. Only the closed panel's own label is shown before.
 */
const SHOWN_CLOSED = new Set(['game.lore.heading', 'game.lore.count']);

/**
 * The saved stories' cards (stories.card.*, and the Markdown export they make, stories.markdown.*)
 * come with the 'sharing' part, which the views that draw cards fetch with their code: a
 * player's first game, which has no card to show, never fetches them.
 */
const CARD_WORDS = new Set(['card', 'markdown']);

/**
 * The cloud's refusals of a picture (issue 41: past its bounds, or its row's own data) are said
 * by the cloud's own views (CloudStories.tsx, PublishPanel.tsx), which come with the 'sharing'
 * part, and by the stories' notice, on any page, once the round that refused it has fetched
 * that part (cloud/sagas/sending.ts): a game that keeps no pictures with a wallet never fetches
 * them.
 */
const CLOUD_ONLY_WORDS = new Set([
  'stories.reason.picturesRefused',
  'stories.reason.pictureFailed',
]);

/**
 * "Illustrate this story" (pictures.toggle.*) is offered before any picture is drawn: its words
 * come with its view, the pictures' own with the first picture.
 */
const OFFER_WORDS = 'toggle';

/**
 * What the game says when the model gives trouble comes with its code (views/troubles.tsx): a
 * wait for a limit or a garbled reply (game.wait.*, but the wait's Stop button, shown before),
 * and a saved model the provider no longer offers (game.model.*).
 */
const SHOWN_BEFORE_TROUBLE = new Set(['game.wait.cancel']);
const TROUBLE_WORDS = new Set(['wait', 'model']);

export function messagePart(id: string): MessagePart {
  const [first = '', second] = id.split('.');
  if (first === 'game' && TROUBLE_WORDS.has(second ?? '') && !SHOWN_BEFORE_TROUBLE.has(id)) {
    return 'troubles';
  }
  if (first === 'game' && second === 'lore' && !SHOWN_CLOSED.has(id)) return 'lore';
  if (first === 'stories' && second !== undefined && CARD_WORDS.has(second)) return 'sharing';
  if (CLOUD_ONLY_WORDS.has(id)) return 'sharing';
  if (first === 'pictures' && second === OFFER_WORDS) return 'illustrate';
  return PART_OF_PREFIX[first] ?? 'pages';
}
