import { openAiImages } from '../../../fixtures/fakeImages/openai';
import { openRouterImages } from '../../../fixtures/fakeImages/openrouter';
import { togetherImages } from '../../../fixtures/fakeImages/together';
import {
  defaultImageModel,
  imageModelsOf,
  settleImageModel,
  type ImageModel,
} from '../../../../src/features/llm/pictures/imageModels';
import { providerById } from '../../../../src/features/llm/providers';

const openai = providerById('openai');
const together = providerById('together');
const openrouter = providerById('openrouter');
const ids = (models: readonly ImageModel[]) => models.map((model) => model.id);
const NOW = Date.parse('2026-11-28T00:00:00Z');

describe('which image models a provider lists', () => {
  it("OpenAI's GPT image models, not its text, audio or video models, nor DALL·E", () => {
    const listed = openAiImages.listing(new URLSearchParams());
    const withDallE = {
      data: [
        ...(listed as { data: object[] }).data,
        { id: 'dall-e-3', object: 'model', created: 1, owned_by: 'system' },
      ],
    };

    expect(ids(imageModelsOf(openai, withDallE, NOW))).toEqual([
      'chatgpt-image-latest',
      'gpt-image-1',
      'gpt-image-1-mini',
      'gpt-image-1.5',
      'gpt-image-2',
      'gpt-image-2.5-flare',
      'gpt-image-2.5-flare-2026-09-08',
      'gpt-image-2.5-sunburst',
      'gpt-image-2.5-sunburst-2026-09-08',
    ]);
  });

  it('leaves out a model whose shutdown_date has passed', () => {
    const list = {
      data: [
        { id: 'gpt-image-1', shutdown_date: '2026-10-01' },
        { id: 'gpt-image-2', shutdown_date: '2027-06-01' },
      ],
    };

    expect(ids(imageModelsOf(openai, list, NOW))).toEqual(['gpt-image-2']);
  });

  it("Together's models of type image, with their display names", () => {
    const models = imageModelsOf(together, togetherImages.listing(new URLSearchParams()), NOW);

    expect(models.map(({ id, label }) => [id, label])).toEqual([
      ['black-forest-labs/FLUX.1-schnell', 'FLUX.1 [schnell]'],
      ['black-forest-labs/FLUX.1.1-pro', 'FLUX1.1 [pro]'],
      ['black-forest-labs/FLUX.2-pro', 'FLUX.2 [pro]'],
    ]);
  });

  it("OpenRouter's models whose output modalities include image, the image-only ones marked", () => {
    const list = openRouterImages.listing(new URLSearchParams('output_modalities=all'));

    expect(imageModelsOf(openrouter, list, NOW)).toEqual([
      {
        id: 'black-forest-labs/flux.2-pro',
        label: 'Black Forest Labs: FLUX.2 Pro',
        created: expect.any(Number),
        drawsOnly: true,
      },
      {
        id: 'google/gemini-2.5-flash-image',
        label: 'Google: Gemini 2.5 Flash Image (Nano Banana)',
        created: expect.any(Number),
      },
      {
        id: 'google/gemini-3.1-flash-image',
        label: 'Google: Gemini 3.1 Flash Image',
        created: expect.any(Number),
      },
    ]);
  });

  it("OpenRouter's default list leaves out the models that draw without writing", () => {
    const listed = imageModelsOf(openrouter, openRouterImages.listing(new URLSearchParams()), NOW);

    expect(ids(listed)).toEqual(['google/gemini-2.5-flash-image', 'google/gemini-3.1-flash-image']);
  });

  it('none at Groq or a local server, whatever their lists hold', () => {
    const list = { data: [{ id: 'gpt-image-1', type: 'image' }] };

    expect(imageModelsOf(providerById('groq'), list, NOW)).toEqual([]);
    expect(imageModelsOf(providerById('local'), list, NOW)).toEqual([]);
  });

  it("a custom server's image models by either list shape or by name", () => {
    const list = {
      data: [
        { id: 'sdxl-turbo' },
        { id: 'my-painter', type: 'image' },
        { id: 'llama3.2' },
        { id: 'painter-2', architecture: { output_modalities: ['image'] } },
      ],
    };

    expect(ids(imageModelsOf(providerById('custom'), list, NOW))).toEqual([
      'my-painter',
      'painter-2',
      'sdxl-turbo',
    ]);
  });

  it('reads nonsense as no models', () => {
    for (const answer of [null, 'models', { data: 'x' }, { data: [null, 3, { id: '' }] }]) {
      expect(imageModelsOf(openai, answer, NOW)).toEqual([]);
    }
  });
});

describe('the image model to draw with', () => {
  const openAiListed = imageModelsOf(openai, openAiImages.listing(new URLSearchParams()), NOW);

  it("OpenAI's default: the newest flare alias, not its dated snapshot", () => {
    expect(defaultImageModel(openai, openAiListed)).toBe('gpt-image-2.5-flare');
  });

  it('a newer flare generation wins when the list has it', () => {
    const newer = [...openAiListed, { id: 'gpt-image-3-flare', label: 'gpt-image-3-flare' }];

    expect(defaultImageModel(openai, newer)).toBe('gpt-image-3-flare');
  });

  it('without a flare model, the newest mini, then the newest plain GPT image model', () => {
    const list = (...names: string[]) => names.map((id) => ({ id, label: id }));

    expect(defaultImageModel(openai, list('gpt-image-1', 'gpt-image-1-mini', 'gpt-image-2'))).toBe(
      'gpt-image-1-mini',
    );
    expect(defaultImageModel(openai, list('gpt-image-1', 'gpt-image-1.5'))).toBe('gpt-image-1.5');
  });

  it("Together's schnell and OpenRouter's Flash Image by default", () => {
    const togetherListed = imageModelsOf(together, togetherImages.listing(new URLSearchParams()));
    const routerListed = imageModelsOf(
      openrouter,
      openRouterImages.listing(new URLSearchParams('output_modalities=image')),
    );

    expect(defaultImageModel(together, togetherListed)).toBe('black-forest-labs/FLUX.1-schnell');
    expect(defaultImageModel(openrouter, routerListed)).toBe('google/gemini-3.1-flash-image');
  });

  it('keeps a chosen model the list holds', () => {
    expect(settleImageModel(openai, 'gpt-image-1.5', openAiListed)).toEqual({
      model: 'gpt-image-1.5',
      replaced: false,
    });
  });

  it('replaces a chosen model the list no longer holds, and says so', () => {
    expect(settleImageModel(openai, 'dall-e-3', openAiListed)).toEqual({
      model: 'gpt-image-2.5-flare',
      replaced: true,
    });
  });

  it('gives the default, not a replacement, when none was chosen', () => {
    expect(settleImageModel(openai, '  ', openAiListed)).toEqual({
      model: 'gpt-image-2.5-flare',
      replaced: false,
    });
  });

  it('an empty list decides nothing: a named model is kept, none named is none', () => {
    const custom = providerById('custom');

    expect(settleImageModel(custom, 'my-painter', [])).toEqual({
      model: 'my-painter',
      replaced: false,
    });
    expect(settleImageModel(custom, '', [])).toEqual({ model: null, replaced: false });
  });
});
