/**
 * The conclusion check (SPEC.md section 4): what a turn's reply must hold, and whether it ends
 * the story. The reply's isFinal is read by one rule (endsStory), as a boolean or as the text
 * some models write.
 */
import { FIRST_ENDING_TURN, conclusionCheck } from '../../../src/features/game';

const OPTIONS = [
  { text: 'Climb', risk: 'high', alignment: 'neutral', traitAlignment: '' },
  { text: 'Wait', risk: 'low', alignment: 'moral', traitAlignment: '' },
];
const segment = { storySegment: 'The bell rang once more, and the town fell silent.' };

describe.each([true, 'true'])('a reply with isFinal %p', (isFinal) => {
  const ending = { ...segment, isFinal };

  test('ends the story from turn 7, with its segment alone', () => {
    const check = conclusionCheck(FIRST_ENDING_TURN);
    expect(check.ends(ending)).toBe(true);
    expect(check.accept(ending)).toBe(true);
    expect(check.accept({ isFinal })).toBe(false);
  });

  test('before turn 7 ends nothing, and must go on with options', () => {
    const check = conclusionCheck(FIRST_ENDING_TURN - 1);
    expect(check.ends(ending)).toBe(false);
    expect(check.accept(ending)).toBe(false);
    expect(check.accept({ ...ending, options: OPTIONS })).toBe(true);
  });
});

test.each([false, 'false', 'yes', 1, undefined])('isFinal %p goes on, with options', (isFinal) => {
  const check = conclusionCheck(FIRST_ENDING_TURN + 2);
  const reply = { ...segment, isFinal };
  expect(check.ends(reply)).toBe(false);
  expect(check.accept(reply)).toBe(false);
  expect(check.accept({ ...reply, options: OPTIONS })).toBe(true);
});
