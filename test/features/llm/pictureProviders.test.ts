import { PROVIDERS } from '../../../src/features/llm/providers';
import { PICTURE_PROVIDERS } from '../../../src/features/llm/pictureProviders';
import { namesImageModel } from '../../../src/features/llm/pictures/imageModels';

test('the presets that can draw are those the pictures load for', () => {
  const drawing = PROVIDERS.filter((provider) => provider.draws !== null);
  expect([...PICTURE_PROVIDERS].sort()).toEqual(drawing.map((provider) => provider.id).sort());
  // Groq and a local server draw nothing.
  expect(PICTURE_PROVIDERS.has('groq')).toBe(false);
  expect(PICTURE_PROVIDERS.has('local')).toBe(false);
  // Custom is among them, and only its player names the image model: its list only suggests.
  expect(PROVIDERS.filter(namesImageModel).map((provider) => provider.id)).toEqual(['custom']);
});
