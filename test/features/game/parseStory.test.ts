/** parseStory, the one reader of a stored or imported story. */
import { initialStory, isStoryProblem, parseStory, type Story } from '../../../src/features/game';
import { PLAYING_GAME, gameAt, RECAP } from '../../fixtures/games';

const PARAGRAPH = 'The road ends at a locked gate under a sky of iron.';
const recap = RECAP;
const story: Story = gameAt({
  story: {
    ...PLAYING_GAME.story,
    chosenImage: 7,
    storyLog: [
      { kind: 'paragraph', text: PARAGRAPH },
      { kind: 'choice', text: 'Climb', outcome: null, freeText: true },
      { kind: 'paragraph', text: 'Over the gate.' },
    ],
    previousParagraph: 'Over the gate.',
    turnCount: 1,
    scenarioHistory: ['standard'],
    moralChoices: ['neutral'],
    outcomes: ['success'],
  },
}).story;

const parsed = (value: unknown) => {
  const result = parseStory(value);
  if (isStoryProblem(result)) throw new Error(`not a story: ${result.reason}`);
  return result;
};

test('gives back exactly the story saved, and nothing of the session', () => {
  const stored = { ...JSON.parse(JSON.stringify(story)), apiKey: 'sk-secret', stage: 'playing' };
  const read = parsed(stored);
  expect(read).toEqual(story);
  expect(read).not.toHaveProperty('apiKey');
  expect(read).not.toHaveProperty('stage');
});

test('malformed fields fall back to their start values; entries of the wrong shape are dropped', () => {
  const read = parsed({
    ...story,
    chosenImage: 99,
    characterImage: '/characters/12.png',
    turnCount: -3,
    storyLog: [{ kind: 'paragraph', text: 'kept' }, { kind: 'poem', text: 'dropped' }, 7],
    options: [{ text: 'no risk' }, story.options[0]],
    outcomes: ['success', 'glorious'],
    playerStats: { moralScore: 'high', riskScore: 12 },
    recap: { wrapUpParagraph: 'half a recap' },
  });
  expect(read).toEqual(
    expect.objectContaining({
      chosenImage: 12,
      turnCount: 0,
      storyLog: [{ kind: 'paragraph', text: 'kept' }],
      options: [story.options[0]],
      outcomes: ['success'],
      recap: null,
    }),
  );
  expect(read.playerStats).toEqual({ ...initialStory.playerStats, riskScore: 12 });
});

test('an old record with only its last paragraph gets a story log of it; one without is refused', () => {
  expect(parsed({ previousParagraph: PARAGRAPH }).storyLog).toEqual([
    { kind: 'paragraph', text: PARAGRAPH },
  ]);
  expect(parseStory({ previousParagraph: '  ' })).toEqual({ reason: 'noParagraph' });
  expect(parseStory('a story')).toEqual({ reason: 'notAnObject' });
});

test('a story marked final without its recap is taken up where it can go on', () => {
  expect(parsed({ ...story, isFinal: true, recap: null }).isFinal).toBe(false);
  expect(parsed({ ...story, isFinal: true, recap }).isFinal).toBe(true);
});

describe('the player’s stats', () => {
  test('come back as saved when they are in range', () => {
    const saved = {
      moralScore: -30,
      riskScore: 21,
      traitConsistency: 7,
      creativity: 8,
      successRate: 50,
    };
    expect(parsed({ ...story, playerStats: saved }).playerStats).toEqual(saved);
  });

  test('come back inside the spec’s ranges, whatever the record held', () => {
    const playerStats = {
      moralScore: -1e9,
      riskScore: 1e9,
      traitConsistency: Number.NaN,
      creativity: '80',
      successRate: -5,
    };
    expect(parsed({ ...story, playerStats }).playerStats).toEqual({
      moralScore: -100,
      riskScore: 100,
      traitConsistency: 0,
      creativity: 0,
      successRate: 0,
    });
  });
});
