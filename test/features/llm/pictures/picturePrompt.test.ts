import {
  PICTURE_PROMPT_MAX_CHARS,
  picturePrompt,
  type PicturePromptInput,
} from '../../../../src/features/llm/pictures/picturePrompt';
import { PRESET_GENRES_EN } from '../../../../src/engine/data/genres.en';
import { PRESET_GENRES_KR } from '../../../../src/engine/data/genres.kr';

const SCENE =
  'Mara steps onto the pier as the lanterns of Saltmere flicker. Old Tobin waits by the boats, and the tide pulls at the ropes.';

const input = (extra: Partial<PicturePromptInput> = {}): PicturePromptInput => ({
  genre: 'High Fantasy',
  heroName: 'Mara',
  portraitDescription: 'a young woman with a grey cloak and a silver-hilted sword',
  bio: 'A smuggler turned sellsword who owes the harbourmaster a debt.',
  paragraph: SCENE,
  moment: 'opening',
  ...extra,
});

describe('the picture prompt', () => {
  it('tells the moment, the genre, the scene, the hero and the style, in English', () => {
    expect(picturePrompt(input())).toBe(
      `The opening scene of a story (High Fantasy): ${SCENE} The hero, Mara: a young woman with a grey cloak and a silver-hilted sword. A smuggler turned sellsword who owes the harbourmaster a debt. Style: painterly high-fantasy illustration, rich colour, soft dramatic light. No text, letters or captions in the picture.`,
    );
  });

  it('names the moment and the ending', () => {
    expect(picturePrompt(input({ moment: 'moment' }))).toMatch(/^A moment from a story/);
    expect(picturePrompt(input({ moment: 'ending' }))).toMatch(/^The final scene of a story/);
  });

  it("adds the sheet's living people and places the paragraph names, and no others", () => {
    const prompt = picturePrompt(
      input({
        sheet: [
          { kind: 'person', name: 'Old Tobin', note: 'a one-eyed ferryman, loyal to Mara' },
          { kind: 'place', name: 'Saltmere', note: 'a fog-bound port town' },
          { kind: 'person', name: 'Captain Vey', note: 'hunting Mara across the sea' },
          { kind: 'person', name: 'Mara', note: 'dead: fell at the ford' },
          { kind: 'item', name: 'the boats', note: 'three rotten skiffs' },
        ],
      }),
    );

    expect(prompt).toContain(
      'Also in the scene: Old Tobin (a one-eyed ferryman, loyal to Mara); Saltmere (a fog-bound port town).',
    );
    expect(prompt).not.toContain('Captain Vey');
    expect(prompt).not.toContain('fell at the ford');
    expect(prompt).not.toContain('rotten skiffs');
  });

  it('stays within 1,000 characters, cutting the paragraph first', () => {
    const long = `${'The storm breaks over the harbour and the crowd scatters. '.repeat(30)}`;

    const prompt = picturePrompt(input({ paragraph: long }));

    expect(prompt.length).toBeLessThanOrEqual(PICTURE_PROMPT_MAX_CHARS);
    expect(prompt).toContain('The hero, Mara: a young woman');
    expect(prompt).toContain('owes the harbourmaster a debt');
    expect(prompt).toContain('…');
    expect(prompt).toMatch(/No text, letters or captions in the picture\.$/);
  });

  it('then gives up the sheet, then the bio, keeping the scene and the style', () => {
    const prompt = picturePrompt(
      input({
        paragraph: `Old Tobin ${'rows through the fog toward the lights. '.repeat(20)}`,
        bio: 'b'.repeat(290),
        portraitDescription: 'p'.repeat(290),
        sheet: [{ kind: 'person', name: 'Old Tobin', note: 'n'.repeat(150) }],
      }),
    );

    expect(prompt.length).toBeLessThanOrEqual(PICTURE_PROMPT_MAX_CHARS);
    expect(prompt).not.toContain('Also in the scene');
    expect(prompt).not.toContain('bbbb');
    expect(prompt).toContain('pppp');
    expect(prompt).toContain('rows through the fog');
    expect(prompt).toContain('Style: painterly high-fantasy illustration');
  });

  it('holds its bound whatever it is given', () => {
    const huge = 'x'.repeat(5_000);

    const prompt = picturePrompt(
      input({ genre: huge, heroName: huge, portraitDescription: huge, bio: huge, paragraph: huge }),
    );

    expect(prompt.length).toBeLessThanOrEqual(PICTURE_PROMPT_MAX_CHARS);
  });

  it('says the hero without a name, and leaves the hero out when nothing is known', () => {
    expect(picturePrompt(input({ heroName: '' }))).toContain('The hero: a young woman');
    expect(
      picturePrompt(input({ heroName: undefined, portraitDescription: undefined, bio: undefined })),
    ).not.toContain('The hero');
  });
});

/** The style line the prompt of a story in this genre ends with. */
const genreStyle = (genre: string) =>
  /Style: (.*)\. No text, letters or captions in the picture\.$/.exec(
    picturePrompt(input({ genre })),
  )?.[1];

describe('the style line by genre', () => {
  it('gives every preset genre, English or Korean, a line of its own but one', () => {
    const neutral = genreStyle('Office Politics');
    const unstyled = [...PRESET_GENRES_EN, ...PRESET_GENRES_KR].filter(
      (genre) => genreStyle(genre) === neutral,
    );

    // A regression-revenge story (회귀 복수극) names a plot, not a look: it is drawn neutrally.
    expect(unstyled).toEqual(['회귀 복수극']);
  });

  it('gives the same line to a genre in either language', () => {
    expect(genreStyle('사이버펑크 누아르')).toBe(genreStyle('Cyberpunk Noir'));
    expect(genreStyle('무협')).toBe(genreStyle('Wuxia'));
    expect(genreStyle('코즈믹 호러')).toBe(genreStyle('Cosmic Horror'));
  });

  it("falls back to a neutral style for the player's own genre", () => {
    expect(genreStyle('Office Politics')).toBe(
      'detailed painterly digital illustration, cinematic composition',
    );
  });
});
