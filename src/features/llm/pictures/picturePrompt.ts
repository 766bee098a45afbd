/**
 * What a picture of the story is asked to show (issue 41, part 2): the scene (the paragraph),
 * the hero as the game knows them (the portrait's description, the bio, the name), the people
 * and places of the story sheet the paragraph names, and a style line for the genre, so that a
 * story's pictures look like one story. The frame is English, the language image models follow
 * best (their prompts are trained and documented in English); what the story wrote goes in as
 * written. Nothing of the player goes in: no key, no wallet, no account, only the story's own
 * words. At most PICTURE_PROMPT_MAX_CHARS (the first images API's limit, 1,000), the paragraph
 * cut first.
 */
import { isDead, type SheetEntry } from '../../../engine/storySheet';

export const PICTURE_PROMPT_MAX_CHARS = 1000;
/** The least of the paragraph kept before the sheet and the hero are cut. */
const MIN_SCENE_CHARS = 280;

export type PictureMoment = 'opening' | 'moment' | 'ending';

export interface PicturePromptInput {
  /** The story's genre, a preset's name (in either language) or the player's own. */
  genre: string;
  /** The hero's name in the story. */
  heroName?: string;
  /** What the chosen portrait shows, in words. */
  portraitDescription?: string;
  bio?: string;
  /** The paragraph to draw: the opening's, the latest turn's, or the ending's. */
  paragraph: string;
  /** The story sheet, where the story has one: only what the paragraph names is drawn. */
  sheet?: readonly Pick<SheetEntry, 'kind' | 'name' | 'note'>[];
  moment: PictureMoment;
}

/**
 * A style line by genre: the genres are words (the presets of src/engine/data/genres.*.ts in
 * English and Korean, or the player's own), so each line is found by the words it shares with
 * them, the first row that matches deciding.
 */
const GENRE_STYLES: readonly { match: RegExp; style: string }[] = [
  {
    match: /cyberpunk|biopunk|사이버펑크|바이오펑크/i,
    style: 'neon-lit cyberpunk concept art, rain-slick streets, cinematic lighting',
  },
  {
    match:
      /horror|haunted|occult|vampire|werewolf|witch|호러|공포|유령|오컬트|괴담|뱀파이어|늑대인간|마녀|퇴마|저승/i,
    style: 'dark atmospheric gothic illustration, deep shadows, muted desaturated colours',
  },
  {
    match: /noir|detective|mystery|누아르|탐정|미스터리|추리/i,
    style: 'moody film-noir illustration, hard light and long shadows',
  },
  {
    match: /thriller|spy|heist|caper|crime|mafia|스릴러|첩보|범죄|케이퍼|마피아/i,
    style: 'tense cinematic thriller still, dramatic contrast, shallow depth of field',
  },
  {
    match: /steampunk|dieselpunk|스팀펑크|디젤펑크/i,
    style: 'brass-and-steam Victorian illustration, warm sepia tones, intricate machinery',
  },
  {
    match: /wuxia|xianxia|samurai|ninja|무협|선협|사무라이|닌자|사극/i,
    style: 'East Asian ink-wash painting with bold brushwork and soft colour washes',
  },
  {
    match:
      /space|sci-?fi|science fiction|alien|mecha|virtual reality|dystopi|generation ship|kaiju|time travel|solarpunk|우주|스페이스|SF|외계|로봇|가상현실|디스토피아|시간 여행|솔라펑크/i,
    style: 'cinematic science-fiction concept art, vast scale, clean futuristic light',
  },
  {
    match: /apocalyp|zombie|survival|아포칼립스|좀비|생존/i,
    style: 'gritty post-apocalyptic illustration, dust and ruin, harsh daylight',
  },
  {
    match: /western|frontier|\bwest\b|서부/i,
    style: 'painterly Western illustration, wide dusty landscapes, golden-hour light',
  },
  {
    match: /pirate|해적/i,
    style: 'swashbuckling adventure painting, stormy seas, rich saturated colours',
  },
  {
    match: /superhero|supervillain|슈퍼히어로|히어로/i,
    style: 'dynamic comic-book illustration, bold inks and bright colours',
  },
  {
    match: /romance|romantic|로맨/i,
    style: 'warm soft-focus illustration, gentle light, expressive faces',
  },
  {
    match: /myth|saga|legend|fairy|faerie|arabian|신화|전설|동화|설화|천일야화|아라비안|영웅담/i,
    style: 'storybook illustration in the manner of a classic myth, rich detail, warm glow',
  },
  {
    match:
      /fantasy|sorcery|magic|dragon|isekai|monster|dungeon|판타지|마법|드래곤|이세계|괴수|던전|요정/i,
    style: 'painterly high-fantasy illustration, rich colour, soft dramatic light',
  },
  {
    match: /medieval|roman|war\b|court|history|historical|중세|로마|전쟁|정치|역사|삼국|고려|조선/i,
    style: 'historical painting, period costume and architecture, natural light',
  },
  {
    match: /expedition|explor|jungle|desert|lost world|deep sea|tomb|탐험|탐사|사막|정글|유적/i,
    style: 'adventure illustration, vast wild landscapes, vivid natural light',
  },
];
const NEUTRAL_STYLE = 'detailed painterly digital illustration, cinematic composition';

function genreStyle(genre: string): string {
  return GENRE_STYLES.find((row) => row.match.test(genre))?.style ?? NEUTRAL_STYLE;
}

const MOMENT_LINES: Readonly<Record<PictureMoment, string>> = {
  opening: 'The opening scene of a story',
  moment: 'A moment from a story',
  ending: 'The final scene of a story',
};

const clean = (text: string | undefined) => (text ?? '').replace(/\s+/g, ' ').trim();

/** Text cut to at most `max` characters, at a word where it can be, with an ellipsis. */
function cut(text: string, max: number): string {
  if (text.length <= max) return text;
  if (max <= 1) return '';
  const room = text.slice(0, max - 1);
  const space = room.lastIndexOf(' ');
  return `${(space > max / 2 ? room.slice(0, space) : room).trimEnd()}…`;
}

/** The living people and the places of the sheet that the paragraph names. */
function namedInScene(input: PicturePromptInput): string {
  const scene = input.paragraph.toLowerCase();
  const named = (input.sheet ?? []).filter(
    (entry) =>
      (entry.kind === 'person' || entry.kind === 'place') &&
      clean(entry.name) !== '' &&
      scene.includes(clean(entry.name).toLowerCase()) &&
      !isDead(entry),
  );
  const told = named.map((entry) => `${clean(entry.name)} (${clean(entry.note)})`);
  return told.length === 0 ? '' : `Also in the scene: ${told.join('; ')}.`;
}

function heroLine(input: PicturePromptInput, bioChars: number): string {
  const name = cut(clean(input.heroName), 60);
  const looks = cut(clean(input.portraitDescription), 300);
  const bio = cut(clean(input.bio), bioChars);
  const parts = [looks, bio]
    .map((part) => part.replace(/[.…]+$/, ''))
    .filter((part) => part !== '');
  if (name === '' && parts.length === 0) return '';
  const who = name === '' ? 'The hero' : `The hero, ${name}`;
  return parts.length === 0 ? `${who}.` : `${who}: ${parts.join('. ')}.`;
}

/**
 * The picture's prompt: what happens (the paragraph), who is there, and how it is drawn, within
 * PICTURE_PROMPT_MAX_CHARS. The paragraph gives way first (to MIN_SCENE_CHARS), then the sheet's
 * people and places, then the bio; the style line and the moment always stay.
 */
export function picturePrompt(input: PicturePromptInput): string {
  const head = `${MOMENT_LINES[input.moment]} (${cut(clean(input.genre), 60) || 'adventure'}):`;
  const tail = `Style: ${genreStyle(input.genre)}. No text, letters or captions in the picture.`;
  const paragraph = clean(input.paragraph);
  const assemble = (scene: string, hero: string, others: string) =>
    [head, scene, hero, others, tail].filter((part) => part !== '').join(' ');

  const everything = namedInScene(input);
  const tries = [
    { others: everything, bioChars: 300 },
    { others: '', bioChars: 300 },
    { others: '', bioChars: 0 },
  ];
  for (const [index, { others, bioChars }] of tries.entries()) {
    const hero = heroLine(input, bioChars);
    const room = PICTURE_PROMPT_MAX_CHARS - assemble('', hero, others).length - 1;
    const last = index === tries.length - 1;
    if (room >= Math.min(MIN_SCENE_CHARS, paragraph.length) || last) {
      const prompt = assemble(cut(paragraph, Math.max(room, 0)), hero, others);
      return prompt.slice(0, PICTURE_PROMPT_MAX_CHARS);
    }
  }
  return head;
}
