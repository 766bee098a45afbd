import { PROVIDERS } from '../../../src/features/llm/providers';
import { PICTURE_PROVIDERS } from '../../../src/features/llm/pictureProviders';

test('the presets whose lists are read for image models are those that draw, but Custom', () => {
  const drawing = PROVIDERS.filter(
    (provider) => provider.draws !== null && provider.id !== 'custom',
  );
  expect([...PICTURE_PROVIDERS].sort()).toEqual(drawing.map((provider) => provider.id).sort());
  // Groq and a local server draw nothing.
  expect(PICTURE_PROVIDERS.has('groq')).toBe(false);
  expect(PICTURE_PROVIDERS.has('local')).toBe(false);
});
