/**
 * @jest-environment jsdom
 *
 * Issue 41, parts 1 and 3, on screen: "Illustrate this story" only where the provider lists a
 * model that draws, saying which model and whose key; under a paragraph, the offer to draw it,
 * the placeholder while it is drawn, the kept picture from a blob: URL, or why it is not there
 * with Try again, in English and in Korean. Rendered through the game's slots over a real store.
 */
import 'fake-indexeddb/auto';
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { StrictMode } from 'react';
import { act, screen } from '@testing-library/react';
import type { UnknownAction } from '@reduxjs/toolkit';
import { makeStore, type AppStore } from '../../../src/app/store';
import type { RootState } from './pictureScenes';
import type { Language } from '../../../src/engine/types';
import type { Turn } from '../../../src/features/game';
import {
  IllustrateSlot,
  pictureAt,
  picturesActions,
  type ImageModels,
  type PictureFailure,
  type PicturesState,
} from '../../../src/features/pictures';
import { handOverPicture, pictureHandedOver } from '../../../src/features/pictures/handedOver';
import { ENDING_TURN, MAX_MOMENT_PICTURES, openStoriesDb } from '../../../src/features/stories';
import { appStateWith } from '../../fixtures/games';
import { pictureOf } from '../../fixtures/storyPictures';
import { renderWithProviders } from '../../support/render';
import { keptStory, NAMED_STORY, OPENING } from './pictureScenes';

const LISTED: ImageModels = {
  status: 'listed',
  provider: 'openai',
  models: [
    { id: 'gpt-image-1', label: 'gpt-image-1' },
    { id: 'gpt-image-1-mini', label: 'GPT Image 1 Mini' },
  ],
  model: 'gpt-image-1-mini',
  replaced: null,
  named: false,
};

let store: AppStore | null = null;
let dispatched: UnknownAction[] = [];
afterEach(() => {
  store?.stop();
  store = null;
  dispatched = [];
});

function renderOver(
  ui: React.ReactElement,
  {
    language = 'en',
    turn = { phase: 'choosing' },
    pictures = {},
    imageModels = LISTED,
    illustrated = true,
    current = null,
    provider = 'openai',
    imageModel = '',
    codeMissing = false,
  }: {
    /** The story pictures' code could not be fetched. */
    codeMissing?: boolean;
    provider?: string;
    imageModel?: string;
    language?: Language;
    turn?: Turn;
    pictures?: PicturesState['pictures'];
    imageModels?: ImageModels;
    illustrated?: boolean;
    current?: RootState['stories']['current'];
  } = {},
) {
  const state = appStateWith(
    {
      turn,
      story: {
        ...NAMED_STORY,
        illustrated,
        storyLog: [{ kind: 'paragraph', text: OPENING }],
      },
    },
    { provider, language, imageModel },
  );
  store = makeStore({
    preloadedState: {
      ...state,
      stories: { ...state.stories, current },
      pictures: {
        imageModels,
        pictures,
        storyFlows: !codeMissing,
        storyFlowsMissing: codeMissing,
      },
    },
  });
  const dispatch = store.dispatch;
  store.dispatch = ((action: UnknownAction) => {
    dispatched.push(action);
    return dispatch(action);
  }) as AppStore['dispatch'];
  return renderWithProviders(ui, { store, language });
}

/** jsdom makes no blob: URLs: each made here is `url`, and what was made and let go is kept. */
function objectUrls(url: string) {
  const made: Blob[] = [];
  const revoked: string[] = [];
  URL.createObjectURL = (blob: Blob) => {
    made.push(blob);
    return `${url}#${made.length}`;
  };
  URL.revokeObjectURL = (gone: string) => void revoked.push(gone);
  return { made, revoked };
}
const { createObjectURL, revokeObjectURL } = URL;
afterEach(() => Object.assign(URL, { createObjectURL, revokeObjectURL }));

const failedWith = (failure: Partial<PictureFailure>): PicturesState['pictures'] => ({
  0: {
    status: 'failed',
    moment: 'opening',
    failure: { kind: 'other', retryAt: null, providerMessage: null, ...failure },
  },
});

describe('Illustrate this story', () => {
  test('is not offered where no model that draws is listed', async () => {
    const { container } = renderOver(<IllustrateSlot />, {
      imageModels: { status: 'none', provider: 'groq' },
      turn: { phase: 'naming' },
    });
    await act(async () => {});
    expect(container.textContent).toBe('');
    act(() => {
      store!.dispatch(
        picturesActions.imageModelsListed({
          provider: 'openai',
          models: LISTED.status === 'listed' ? LISTED.models : [],
          model: 'gpt-image-1-mini',
          replaced: null,
          named: false,
        }),
      );
    });
    expect(await screen.findByRole('checkbox', { name: 'Illustrate this story' })).toBeTruthy();
  });

  test('says the model and whose key draws, and turns pictures on for this story', async () => {
    const { user } = renderOver(<IllustrateSlot />, {
      turn: { phase: 'naming' },
      illustrated: false,
    });
    const toggle = await screen.findByRole('checkbox', { name: 'Illustrate this story' });
    expect((toggle as HTMLInputElement).checked).toBe(false);
    expect(
      screen.getByText(
        /^GPT Image 1 Mini draws the opening, the ending and any moment you ask for, with your OpenAI key\./,
      ),
    ).toBeTruthy();
    // What it is about is heard with the checkbox.
    const about = document.getElementById(toggle.getAttribute('aria-describedby')!);
    expect(about?.textContent).toContain('OpenAI bills it at its image prices');

    await user.click(toggle);
    expect(dispatched.map((action) => action.type)).toContain('game/illustrationChosen');
    expect(store!.getState().game.story.illustrated).toBe(true);
    expect((toggle as HTMLInputElement).checked).toBe(true);
  });

  test('says so when the chosen model was replaced, and lets another be chosen', async () => {
    const { user } = renderOver(<IllustrateSlot />, {
      turn: { phase: 'naming' },
      imageModels: { ...LISTED, replaced: 'dall-e-3' } as ImageModels,
    });
    expect(
      await screen.findByText(
        'OpenAI no longer offers dall-e-3: pictures are drawn with GPT Image 1 Mini.',
      ),
    ).toBeTruthy();
    await user.selectOptions(
      screen.getByRole('combobox', { name: 'Picture model' }),
      'gpt-image-1',
    );
    expect((store!.getState() as RootState).pictures.imageModels).toMatchObject({
      model: 'gpt-image-1',
      replaced: null,
    });
  });

  const CUSTOM: ImageModels = {
    status: 'listed',
    provider: 'custom',
    models: [{ id: 'flux-schnell', label: 'FLUX.1 schnell' }],
    model: '',
    replaced: null,
    named: true,
  };

  test('a Custom server: off until the player names its image model, the list suggesting', async () => {
    const { user } = renderOver(<IllustrateSlot />, {
      turn: { phase: 'naming' },
      illustrated: false,
      provider: 'custom',
      imageModels: CUSTOM,
    });
    const toggle = await screen.findByRole('checkbox', { name: 'Illustrate this story' });
    expect((toggle as HTMLInputElement).disabled).toBe(true);
    expect(
      screen.getByText('Name the image model your server draws with to turn pictures on.'),
    ).toBeTruthy();
    expect(
      screen.getByText('Each picture is billed as your server bills it, if it does.'),
    ).toBeTruthy();
    const field = screen.getByRole('combobox', { name: 'Image model on your server' });
    const suggested = document.getElementById(field.getAttribute('list')!);
    expect([...suggested!.querySelectorAll('option')].map((option) => option.value)).toEqual([
      'flux-schnell',
    ]);

    await user.type(field, 'sdxl-turbo');
    // The settings' own event, the player's other model settings as they were.
    expect(dispatched.at(-1)).toEqual({
      type: 'settings/modelSettingsChosen',
      payload: { provider: 'custom', model: '', baseUrl: '', imageModel: 'sdxl-turbo' },
    });
    expect(store!.getState().settings.imageModel).toBe('sdxl-turbo');
    expect((toggle as HTMLInputElement).disabled).toBe(false);
    expect(
      screen.getByText(
        /^sdxl-turbo on your server draws the opening, the ending and any moment you ask for/,
      ),
    ).toBeTruthy();
    await user.click(toggle);
    expect(store!.getState().game.story.illustrated).toBe(true);

    // Cleared, the name takes pictures away again: nothing is drawn with no model.
    await user.clear(field);
    expect((toggle as HTMLInputElement).checked).toBe(false);
    expect((toggle as HTMLInputElement).disabled).toBe(true);
  });

  test('a Custom server that refuses the named model says to check its name', async () => {
    renderOver(<>{pictureAt({ turn: 0, latest: true })}</>, {
      provider: 'custom',
      imageModel: 'my-painter',
      imageModels: CUSTOM,
      pictures: failedWith({ kind: 'retired', providerMessage: 'model not found' }),
    });
    const alert = await screen.findByRole('alert');
    expect(alert.querySelector('p')?.textContent).toBe(
      "Your server does not draw with my-painter. Check the image model's name under “Illustrate this story”, then try again.",
    );
    expect(screen.getByRole('button', { name: 'Try again' })).toBeTruthy();
  });

  test('a Custom server whose model name was cleared offers no Try again: nothing would draw', async () => {
    renderOver(<>{pictureAt({ turn: 0, latest: true })}</>, {
      provider: 'custom',
      imageModel: '',
      imageModels: CUSTOM,
      pictures: failedWith({ kind: 'retired', providerMessage: 'model not found' }),
    });
    await screen.findByRole('alert');
    expect(screen.queryByRole('button', { name: 'Try again' })).toBeNull();
  });

  test.each([
    [
      'en',
      "The pictures' code could not be downloaded (is the connection down?). It is tried again with the story's next scene.",
    ],
    [
      'kr',
      '그림 기능을 내려받지 못했습니다(인터넷 연결을 확인하세요). 이야기의 다음 장면에서 다시 시도합니다.',
    ],
  ] as const)(
    'says so (%s) when the code that draws could not be downloaded, while the story is illustrated',
    async (language, said) => {
      renderOver(<IllustrateSlot />, { language, codeMissing: true });
      expect((await screen.findByRole('alert')).textContent).toBe(said);
    },
  );

  test('says nothing of it for a story not illustrated', async () => {
    renderOver(<IllustrateSlot />, { codeMissing: true, illustrated: false });
    await screen.findByRole('checkbox', { name: 'Illustrate this story' });
    expect(screen.queryByRole('alert')).toBeNull();
  });

  test('in Korean', async () => {
    renderOver(<IllustrateSlot />, { language: 'kr', turn: { phase: 'naming' } });
    expect(await screen.findByRole('checkbox', { name: '이 이야기에 그림 넣기' })).toBeTruthy();
    expect(screen.getByText(/^GPT Image 1 Mini 모델이 시작 장면과 결말/)).toBeTruthy();
  });
});

describe('a picture under its paragraph', () => {
  test('the latest paragraph of an illustrated story past its opening offers to be drawn', async () => {
    const { user } = renderOver(<>{pictureAt({ turn: 1, latest: true })}</>);
    await user.click(await screen.findByRole('button', { name: /Picture this moment/ }));
    expect(dispatched).toContainEqual(picturesActions.momentPictureRequested(1));
  });

  test.each([
    ['an opening without its picture', { turn: 0, latest: false }, 0],
    ['an ending without its picture', 'ending', ENDING_TURN],
  ] as const)(
    '%s offers it (not drawn, or its drawing left with the story)',
    async (_name, place, turn) => {
      const { user } = renderOver(<>{pictureAt(place)}</>);
      await user.click(await screen.findByRole('button', { name: /Picture this moment/ }));
      expect(dispatched).toContainEqual(picturesActions.momentPictureRequested(turn));
    },
  );

  test('a slot follows its place as the log renders it anew: the offer moves with the latest', async () => {
    const { rerender } = renderOver(<>{pictureAt({ turn: 1, latest: true })}</>);
    const offer = /Picture this moment/;
    expect(await screen.findByRole('button', { name: offer })).toBeTruthy();
    // The log rendered again with an entry more: the same place, a new object.
    rerender(<>{pictureAt({ turn: 1, latest: true })}</>);
    expect(screen.getByRole('button', { name: offer })).toBeTruthy();
    // A paragraph came after it: no longer the latest, no offer under it.
    rerender(<>{pictureAt({ turn: 1, latest: false })}</>);
    expect(screen.queryByRole('button', { name: offer })).toBeNull();
    // The paragraph after it written again away: the latest once more.
    rerender(<>{pictureAt({ turn: 1, latest: true })}</>);
    expect(screen.getByRole('button', { name: offer })).toBeTruthy();
  });

  test('a story with as many moments as it may keep offers no more', async () => {
    const moments = Object.fromEntries(
      Array.from({ length: MAX_MOMENT_PICTURES }, (_, index) => [
        index + 1,
        { status: 'drawing', moment: 'moment' } as const,
      ]),
    );
    const { container } = renderOver(
      <>{pictureAt({ turn: MAX_MOMENT_PICTURES + 1, latest: true })}</>,
      { pictures: moments },
    );
    await act(async () => {});
    expect(container.textContent).toBe('');
  });

  test.each([
    ['an earlier paragraph', { turn: 1, latest: false }, {}],
    ['a story not illustrated', { turn: 1, latest: true }, { illustrated: false }],
    [
      'a provider that draws nothing',
      { turn: 1, latest: true },
      { imageModels: { status: 'none', provider: 'groq' } },
    ],
  ] as const)('no offer under %s', async (_name, place, options) => {
    const { container } = renderOver(<>{pictureAt(place)}</>, options as never);
    await act(async () => {});
    expect(container.textContent).toBe('');
  });

  test('while it is drawn: a placeholder that says so', async () => {
    renderOver(<>{pictureAt({ turn: 0, latest: true })}</>, {
      pictures: { 0: { status: 'drawing', moment: 'opening' } },
    });
    expect((await screen.findByRole('status')).textContent).toBe('Drawing this scene…');
    expect(screen.queryByRole('button')).toBeNull();
  });

  test('a kept picture is shown from a blob: URL of MyStoriesDB, with its words as alt text', async () => {
    const db = await openStoriesDb();
    const record = await keptStory(db);
    const offered = pictureOf(record.id, 'opening');
    // Put as keepPicture keeps it (jsdom's Blob cannot be read back to check its bytes).
    await db.put('pictures', { ...offered, mediaType: 'image/webp', bytes: offered.blob.size });
    db.close();
    const { made, revoked } = objectUrls('blob:taleweaver/opening');
    const { unmount } = renderOver(<>{pictureAt({ turn: 0, latest: true })}</>, {
      current: record,
      pictures: {
        0: {
          status: 'shown',
          storyId: record.id,
          moment: 'opening',
          width: 768,
          height: 512,
          alt: offered.alt,
        },
      },
    });
    const shown = (await screen.findByAltText(offered.alt)) as HTMLImageElement;
    expect(shown.getAttribute('src')).toBe('blob:taleweaver/opening#1');
    expect(shown.getAttribute('width')).toBe('768');
    expect(made).toHaveLength(1);
    unmount();
    expect(revoked).toEqual(['blob:taleweaver/opening#1']);
  });

  test('a picture just kept is shown from the Blob its flow handed over, MyStoriesDB not read', async () => {
    // A story whose record MyStoriesDB does not keep: a read would find nothing, and show none.
    const storyId = 4_141;
    const drawn = new Blob(['the kept WebP'], { type: 'image/webp' });
    handOverPicture(storyId, 0, drawn);
    const { made, revoked } = objectUrls('blob:taleweaver/handed');
    const shownPicture = {
      status: 'shown' as const,
      storyId,
      moment: 'opening' as const,
      width: 768,
      height: 512,
      alt: 'The lamp over the rocks.',
    };
    // In StrictMode, as the app renders: its refs are set, cleared and set again.
    const { unmount } = renderOver(
      <StrictMode>{pictureAt({ turn: 0, latest: true })}</StrictMode>,
      {
        pictures: { 0: shownPicture },
      },
    );
    const shown = (await screen.findByAltText(shownPicture.alt)) as HTMLImageElement;
    expect(made.every((blob) => blob === drawn)).toBe(true);
    expect(shown.getAttribute('src')).toBe(`blob:taleweaver/handed#${made.length}`);
    // Taken once shown: a later view of it (the story taken up again) reads MyStoriesDB.
    expect(pictureHandedOver(storyId, 0)).toBeUndefined();
    // Rendered again, now kept under a branch of the story: the same image, from the same URL.
    const before = { src: shown.getAttribute('src'), made: made.length };
    await act(async () => {
      store!.dispatch(
        picturesActions.branchPicturesKept({ from: storyId, storyId: 4_142, turns: [0] }),
      );
    });
    expect((store!.getState() as RootState).pictures.pictures[0]).toMatchObject({ storyId: 4_142 });
    expect(screen.getByAltText(shownPicture.alt)).toBe(shown);
    expect({ src: shown.getAttribute('src'), made: made.length }).toEqual(before);
    // Every URL made is let go, the last when the picture leaves the page.
    expect(revoked).toHaveLength(made.length - 1);
    unmount();
    expect(revoked.toSorted()).toEqual(made.map((_, i) => `blob:taleweaver/handed#${i + 1}`));
  });

  test.each([
    [
      'en',
      { kind: 'refused', providerMessage: 'Your request was rejected by the safety system.' },
      'OpenAI would not draw this scene: its content policy refused it.',
      'OpenAI said: Your request was rejected by the safety system.',
      null,
    ],
    [
      'kr',
      { kind: 'refused', providerMessage: 'Your request was rejected by the safety system.' },
      'OpenAI의 콘텐츠 정책에 따라 이 장면은 그려지지 않았습니다.',
      'OpenAI의 응답: Your request was rejected by the safety system.',
      null,
    ],
    [
      'en',
      { kind: 'timeout' },
      'The picture took more than two minutes and was given up.',
      null,
      'Try again',
    ],
    ['kr', { kind: 'timeout' }, '그림이 2분 넘게 걸려 중단했습니다.', null, '다시 시도'],
    [
      'en',
      { kind: 'notKept' },
      'The browser could not keep this picture: its storage may be full.',
      null,
      'Try again',
    ],
    [
      'en',
      { kind: 'retired' },
      'OpenAI no longer draws with gpt-image-1-mini. Try again: the game asks OpenAI which models draw now.',
      null,
      'Try again',
    ],
  ] as const)(
    'a failure (%s, %o) is said, with Try again where another try can help',
    async (language, failure, said, quoted, retry) => {
      const { user } = renderOver(<>{pictureAt({ turn: 0, latest: true })}</>, {
        language,
        pictures: failedWith(failure),
      });
      const alert = await screen.findByRole('alert');
      expect(alert.querySelector('p')?.textContent).toBe(said);
      if (quoted === null) expect(alert.querySelectorAll('p')).toHaveLength(1);
      else expect(alert.querySelectorAll('p')[1]?.textContent).toBe(quoted);
      if (retry === null) {
        // A refused scene would be refused again: no Try again is offered.
        expect(screen.queryByRole('button')).toBeNull();
        return;
      }
      await user.click(screen.getByRole('button', { name: retry }));
      expect(dispatched).toContainEqual(picturesActions.pictureRetryRequested(0));
    },
  );

  test('a per-minute limit counts down to when another try may go, then says a moment', async () => {
    const retryAt = Date.now() + 12_000;
    renderOver(<>{pictureAt({ turn: 0, latest: true })}</>, {
      pictures: failedWith({ kind: 'rateLimited', retryAt }),
    });
    expect((await screen.findByRole('alert')).textContent).toMatch(
      /^OpenAI's limit of pictures a minute is reached\. Try again in 1[12] s\.$/,
    );
    act(() => {
      store!.dispatch(
        picturesActions.pictureFailed({
          turn: 0,
          moment: 'opening',
          failure: { kind: 'rateLimited', retryAt: null, providerMessage: null },
        }),
      );
    });
    expect(
      await screen.findByText(
        "OpenAI's limit of pictures a minute is reached. Try again in a moment.",
      ),
    ).toBeTruthy();
  });
});

describe('the pictures’ words', () => {
  const catalogue = (language: string) =>
    JSON.parse(
      readFileSync(path.join(__dirname, `../../../src/app/intl/messages/${language}.json`), 'utf8'),
    ) as Record<string, string>;
  const source = (dir: string): string =>
    readdirSync(dir, { withFileTypes: true })
      .map((entry) =>
        entry.isDirectory()
          ? source(path.join(dir, entry.name))
          : /\.tsx?$/.test(entry.name)
            ? readFileSync(path.join(dir, entry.name), 'utf8')
            : '',
      )
      .join('\n');

  /** Every kind a failure can be: a kind added to PictureFailure fails to compile here. */
  const KINDS: Record<PictureFailure['kind'], null> = {
    tooMany: null,
    cannotEncode: null,
    unverified: null,
    refused: null,
    rateLimited: null,
    noCredit: null,
    retired: null,
    timeout: null,
    notAnImage: null,
    tooLarge: null,
    unreachable: null,
    keyRefused: null,
    other: null,
    notKept: null,
  };

  test('every message the views name, and every failure’s, is in English and in Korean', () => {
    const named = [
      ...source(path.join(__dirname, '../../../src/features/pictures')).matchAll(
        /id(?:=|: )["'](pictures\.[\w.]+)["']/g,
      ),
    ].map((match) => match[1]!);
    const ids = new Set([
      ...named,
      ...Object.keys(KINDS).map((kind) => `pictures.failed.${kind}`),
      'pictures.failed.rateLimitedNow',
    ]);
    expect(named.length).toBeGreaterThanOrEqual(8);
    const en = catalogue('en');
    const kr = catalogue('kr');
    for (const id of ids) {
      expect([id, typeof en[id]]).toEqual([id, 'string']);
      expect([id, typeof kr[id]]).toEqual([id, 'string']);
    }
  });
});
