/**
 * The pictures handed from their flow to their view (pictures/handedOver.ts): found by story and
 * turn, a newer drawing in place of an older one, the last few at most waiting, and let go.
 */
import {
  handOverPicture,
  letGoOfHandedPicture,
  letGoOfHandedPictures,
  pictureHandedOver,
} from '../../../src/features/pictures/handedOver';

const picture = (name: string) => new Blob([name], { type: 'image/webp' });

afterEach(() => letGoOfHandedPictures());

test('a picture is found by its story and turn, a newer drawing in place of the older', () => {
  const first = picture('first drawing');
  const second = picture('second drawing');
  handOverPicture(7, 2, first);
  expect(pictureHandedOver(7, 2)).toBe(first);
  expect(pictureHandedOver(7, 3)).toBeUndefined();
  expect(pictureHandedOver(8, 2)).toBeUndefined();
  handOverPicture(7, 2, second);
  expect(pictureHandedOver(7, 2)).toBe(second);
  letGoOfHandedPicture(7, 2);
  expect(pictureHandedOver(7, 2)).toBeUndefined();
});

test('the last few wait, the oldest let go first; another story lets all go', () => {
  const turns = [0, 1, 2, 3, 4, 5];
  for (const turn of turns) handOverPicture(7, turn, picture(`turn ${turn}`));
  // Drawn again, turn 2 is now the newest.
  handOverPicture(7, 2, picture('turn 2 again'));
  const waiting = turns.filter((turn) => pictureHandedOver(7, turn) !== undefined);
  expect(waiting).toEqual([2, 3, 4, 5]);
  letGoOfHandedPictures();
  expect(turns.filter((turn) => pictureHandedOver(7, turn) !== undefined)).toEqual([]);
});
