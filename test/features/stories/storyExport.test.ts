import type { Story } from '../../../src/features/game';
import {
  type SavedStory,
  StoryImportError,
  type StoryMarkdownLabels,
  parseStoryJson,
  storyToJson,
  storyToMarkdown,
} from '../../../src/features/stories';
import { savedStory } from '../../fixtures/savedStories';

const LABELS: StoryMarkdownLabels = {
  genre: 'Genre',
  choice: 'You chose',
  outcomes: { success: 'Success', partial: 'Partial success', failure: 'Failure' },
  recap: 'Your ending',
  endingType: 'Ending',
  overallScore: 'Score',
  bigMoment: 'Big moment',
  frequentActivity: 'Frequent activity',
  characterTraitHighlight: 'Trait',
  themeExploration: 'Theme',
  edited: 'edited',
  memory: 'What the storyteller remembers',
  note: 'Pinned note',
};

const PARAGRAPHS = [
  'The lantern guttered as the door creaked open.',
  '# Not a heading: the sea answered in a voice like rust.',
  'At dawn the keeper climbed the last stair alone.',
];

function story(overrides: Parameters<typeof savedStory>[0] = {}): SavedStory {
  return savedStory({
    previousParagraph: PARAGRAPHS[2]!,
    game: {
      turnCount: 2,
      storyLog: [
        { kind: 'paragraph', text: PARAGRAPHS[0]! },
        { kind: 'choice', text: 'Step inside', outcome: 'success', freeText: false },
        { kind: 'paragraph', text: PARAGRAPHS[1]! },
        { kind: 'choice', text: 'Call out\nto the sea', outcome: 'failure', freeText: true },
        { kind: 'paragraph', text: PARAGRAPHS[2]! },
      ],
    },
    ...overrides,
  });
}

function importError(text: string): StoryImportError {
  try {
    parseStoryJson(text);
  } catch (error) {
    if (error instanceof StoryImportError) return error;
    throw error;
  }
  throw new Error('the import was accepted');
}

describe('storyToMarkdown', () => {
  it('has the character, the genre, every paragraph and every choice with its outcome', () => {
    const markdown = storyToMarkdown(story(), LABELS);

    expect(markdown).toMatch(/^# Mira Vale\n/);
    expect(markdown).toContain('*Genre: Gothic mystery*');
    expect(markdown).toContain(PARAGRAPHS[0]);
    expect(markdown).toContain('\\# Not a heading: the sea answered in a voice like rust.');
    expect(markdown).toContain(PARAGRAPHS[2]);
    expect(markdown).toContain('> **You chose:** Step inside (Success)');
    expect(markdown).toContain('> **You chose:** Call out to the sea (Failure)');
    expect(markdown.indexOf('Step inside')).toBeLessThan(markdown.indexOf(PARAGRAPHS[2]!));
    expect(markdown).not.toContain('Your ending');
    expect(markdown).not.toContain('edited');
    expect(markdown).not.toContain('What the storyteller remembers');
  });

  it("keeps the player's hand: edits marked, the memory as corrected, and the pinned note", () => {
    const base = story();
    const game: Story = {
      ...base.game,
      storyLog: base.game.storyLog.map((entry, index) =>
        index === 3 || index === 4 ? { ...entry, edited: true } : entry,
      ),
      storySummary: ['The keeper opened the door.', 'She named the sea;\nit did not answer.'],
      storyNote: 'Mira is afraid of deep water.',
    };
    const markdown = storyToMarkdown({ ...base, game }, LABELS);

    expect(markdown).toContain('> **You chose:** Call out to the sea (Failure) *(edited)*');
    expect(markdown).toContain(`${PARAGRAPHS[2]} *(edited)*`);
    expect(markdown).toContain(`${PARAGRAPHS[0]}\n`);
    expect(markdown).toContain(
      [
        '## What the storyteller remembers',
        '',
        '1. The keeper opened the door.',
        '2. She named the sea; it did not answer.',
        '',
        '**Pinned note:** Mira is afraid of deep water.',
      ].join('\n'),
    );
    expect(markdown.endsWith('**Pinned note:** Mira is afraid of deep water.\n')).toBe(true);
  });

  it('ends a finished story with its recap', () => {
    const recap = {
      wrapUpParagraph: 'The light never went out again.',
      bigMoment: 'Calling the sea by name',
      frequentActivity: 'Climbing stairs',
      characterTraitHighlight: 'Stubborn',
      themeExploration: 'Solitude',
      overallScore: 87,
      endingType: 'Heroic Victory',
    };
    const finished = story({ isFinal: true, endingType: 'Heroic Victory' });
    const markdown = storyToMarkdown({ ...finished, game: { ...finished.game, recap } }, LABELS);

    expect(markdown).toContain('## Your ending');
    expect(markdown).toContain('The light never went out again.');
    expect(markdown).toContain('- **Ending:** Heroic Victory');
    expect(markdown).toContain('- **Score:** 87');
    expect(markdown).toContain('- **Theme:** Solitude');
    expect(markdown).toMatch(/- \*\*Theme:\*\* Solitude\n$/);
  });
});

describe('storyToJson and parseStoryJson', () => {
  it('round-trips a story in a versioned envelope, without its id', () => {
    const json = storyToJson(story());
    const withoutId: Partial<SavedStory> = story();
    delete withoutId.id;

    expect(JSON.parse(json)).toMatchObject({ format: 'taleweaver-story', version: 2 });
    expect(parseStoryJson(json)).toEqual(withoutId);
  });

  it('never exports or imports an API key', () => {
    // A story as an untyped record could hold it, with the session's key in it.
    const leaky = story({ game: { turnCount: 1, apiKey: 'sk-secret' } as Partial<Story> });
    expect(storyToJson(leaky)).not.toContain('sk-secret');

    const envelope = JSON.parse(storyToJson(story()));
    envelope.story.apiKey = 'sk-top';
    envelope.story.game.apiKey = 'sk-nested';
    expect(JSON.stringify(parseStoryJson(JSON.stringify(envelope)))).not.toContain('sk-');
  });

  it.each([
    ['text that is not JSON', 'not json {', 'notJson'],
    ['an empty file', '', 'notJson'],
    ['a JSON array', '[]', 'wrongFormat'],
    [
      'another app’s file',
      JSON.stringify({ format: 'other', version: 1, story: {} }),
      'wrongFormat',
    ],
    ['a future version', JSON.stringify({ format: 'taleweaver-story', version: 3 }), 'wrongFormat'],
    [
      'an envelope without a story',
      JSON.stringify({ format: 'taleweaver-story', version: 1 }),
      'incomplete',
    ],
  ])('rejects %s', (_case, text, reason) => {
    expect(importError(text).reason).toBe(reason);
  });

  it.each([
    'chosenCharacter',
    'chosenGenre',
    'characterBio',
    'characterImage',
    'previousParagraph',
    'game',
  ])('rejects a story without %s, naming it', (field) => {
    const envelope = JSON.parse(storyToJson(story()));
    delete envelope.story[field];

    const error = importError(JSON.stringify(envelope));

    expect(error.reason).toBe('incomplete');
    expect(error.message).toContain(field);
  });

  it('rejects a story whose previous paragraph is under 20 characters', () => {
    const envelope = JSON.parse(storyToJson(story({ previousParagraph: 'Too short.' })));
    expect(importError(JSON.stringify(envelope)).reason).toBe('incomplete');
  });
});
