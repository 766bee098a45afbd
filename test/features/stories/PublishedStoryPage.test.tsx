/**
 * @jest-environment jsdom
 */
/**
 * The published story's page, /story/<id>, as a visitor without a wallet meets it: the story
 * as text in the language it was written in, with the app's own language frame (InLanguage);
 * a story that is not published, a slow or failing backend, each said in words.
 */
import type { ThunkDispatch, UnknownAction } from '@reduxjs/toolkit';
import { screen, waitFor, within } from '@testing-library/react';
import { baseApi } from '../../../src/api/baseApi';
import type { Backend } from '../../../src/api';
import { InLanguage } from '../../../src/app/intl/InLanguage';
import { injectBackendApi, makeStore, type AppStore } from '../../../src/app/store';
import type { Language } from '../../../src/engine/types';
import { PublishedStoryPage } from '../../../src/features/stories/published/PublishedStoryPage';
import {
  publishedStoryApi,
  readPublishedStory,
  type PublishedStory,
} from '../../../src/features/stories/published/publishedStoryApi';
import { renderWithProviders } from '../../support/render';

const ID = '5f0c7a7e-2b4f-4c43-9a53-8d7f0d1e2a3b';

/** The row as the database gives it (migration 20261127000000_cloud_stories.sql). */
const row = (overrides: Record<string, unknown> = {}) => ({
  id: ID,
  language: 'en',
  genre: 'Fantasy',
  portrait: 7,
  character_name: 'Mira',
  author: '0x1234…abcd',
  entries: [
    { kind: 'paragraph', text: 'The city lay under a green sea.', outcome: null },
    { kind: 'choice', text: 'Dive for the bell', outcome: 'SUCCESS' },
    { kind: 'paragraph', text: '<script>alert(1)</script> rang once.', outcome: null },
    { kind: 'choice', text: 'Swim <b>up</b>', outcome: 'failure' },
    { kind: 'choice', text: 'Wait', outcome: null },
  ],
  recap: {
    wrapUpParagraph: 'She kept the last map.',
    bigMoment: 'The bell under the water.',
    frequentActivity: 'Listening.',
    characterTraitHighlight: 'Patience.',
    themeExploration: 'What is kept.',
  },
  score: 1412,
  ending_type: 'bittersweet resolution',
  turn_count: 9,
  published_at: '2026-11-27T10:00:00.000Z',
  ...overrides,
});

const KOREAN_STORY = readPublishedStory(
  row({
    language: 'kr',
    genre: '판타지',
    character_name: '김서연',
    ending_type: '씁쓸한 결말',
    entries: [
      { kind: 'paragraph', text: '바다 밑의 도시.', outcome: null },
      { kind: 'choice', text: '종을 찾아 잠수한다', outcome: 'partial' },
    ],
  }),
);

type ApiDispatch = ThunkDispatch<
  { api: ReturnType<typeof baseApi.reducer> },
  unknown,
  UnknownAction
>;

let store: AppStore;

/** A real store with the backend API in, as the routes give it; no backend unless told. */
function makeTestStore(backend?: () => Promise<Backend>): AppStore {
  injectBackendApi(baseApi);
  return makeStore(backend ? { backend } : {});
}

/** The page over a store whose cache holds `story` for `id` (null: none published). */
async function renderStory(
  story: PublishedStory | null,
  { language = 'en', id = ID }: { language?: Language; id?: string } = {},
) {
  store = makeTestStore();
  await (store.dispatch as ApiDispatch)(
    publishedStoryApi.util.upsertQueryData('getPublishedStory', id, story),
  );
  const rendered = renderPage({ language, id });
  // The page's words load before it shows (InLanguage), as the route's do.
  if (story) await screen.findByRole('article');
  return rendered;
}

function renderPage({ language = 'en', id = ID }: { language?: Language; id?: string } = {}) {
  return renderWithProviders(<PublishedStoryPage id={id} InLanguage={InLanguage} />, {
    store,
    language,
    route: `/story/${id}`,
  });
}

afterEach(() => {
  store.dispatch(baseApi.util.resetApiState());
  jest.restoreAllMocks();
});

describe('a published story', () => {
  test('shows its title, portrait, author, every entry in order, the ending and the way to play', async () => {
    const { container } = await renderStory(readPublishedStory(row()));
    const article = screen.getByRole('article', { name: 'Mira · Fantasy' });
    expect(article.getAttribute('lang')).toBe('en');
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('Mira · Fantasy');
    expect(document.title).toBe('Mira · Fantasy · Taleweaver');
    const portrait = screen.getByRole('img', { name: 'Portrait of Mira' });
    expect(portrait.getAttribute('src')).toBe('/characters/7.png');
    expect(screen.getByText('0x1234…abcd').parentElement?.textContent).toBe(
      'Written by 0x1234…abcd',
    );
    expect(screen.getByText('November 27, 2026')).toBeTruthy();

    const lines = [...article.querySelectorAll('.published-story__log > p')].map(
      (line) => line.textContent,
    );
    expect(lines).toEqual([
      'The city lay under a green sea.',
      '➤The player chose: Dive for the bell✓SUCCESS',
      '<script>alert(1)</script> rang once.',
      '➤The player chose: Swim <b>up</b>✕FAILURE',
      '➤The player chose: Wait',
    ]);

    const ending = screen.getByRole('region', { name: 'Ending' });
    expect(ending.className).toContain('ending-mood--bittersweet');
    expect(within(ending).getByText('Bittersweet Resolution')).toBeTruthy();
    expect(within(ending).getByText('She kept the last map.')).toBeTruthy();
    expect(within(ending).getByText('Most Epic Moment').nextSibling?.textContent).toBe(
      'The bell under the water.',
    );
    expect(within(ending).getByText('Adventure Score').nextSibling?.textContent).toBe('1,412');
    expect(within(ending).getByText('Turns').nextSibling?.textContent).toBe('9');

    expect(screen.getByRole('link', { name: 'Play your own story' }).getAttribute('href')).toBe(
      '/',
    );
    expect(container.querySelector('script, b')).toBeNull();
  });

  test('story text that looks like HTML stays text', async () => {
    const { container } = await renderStory(readPublishedStory(row()));
    expect(screen.getByText('<script>alert(1)</script> rang once.').tagName).toBe('P');
    expect(screen.getByText('Swim <b>up</b>')).toBeTruthy();
    expect(container.querySelector('script')).toBeNull();
    expect(container.innerHTML).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
  });

  test('a Korean story speaks Korean, whatever the interface language', async () => {
    await renderStory(KOREAN_STORY, { language: 'en' });
    const article = await screen.findByRole('article', { name: '김서연 · 판타지' });
    expect(article.getAttribute('lang')).toBe('ko');
    expect(screen.getByText('0x1234…abcd').parentElement?.textContent).toBe('작가 0x1234…abcd');
    expect(screen.getByText('2026년 11월 27일')).toBeTruthy();
    expect(within(article).getByText('부분 성공')).toBeTruthy();
    expect(within(article).getByText('플레이어의 선택:')).toBeTruthy();
    // The ending keeps the name the model gave it in Korean, with its own mood.
    const ending = screen.getByRole('region', { name: '결말' });
    expect(within(ending).getByText('씁쓸한 결말')).toBeTruthy();
    expect(ending.className).toContain('ending-mood--bittersweet');
    expect(within(ending).getByText('모험 점수')).toBeTruthy();
    expect(within(ending).getByText('턴 수')).toBeTruthy();
    expect(screen.getByRole('link', { name: '나만의 이야기 시작하기' })).toBeTruthy();
    expect(screen.getByRole('img', { name: '김서연의 초상화' })).toBeTruthy();
  });

  test('an English story in a Korean interface stays English', async () => {
    await renderStory(readPublishedStory(row()), { language: 'kr' });
    const article = screen.getByRole('article', { name: 'Mira · Fantasy' });
    expect(article.getAttribute('lang')).toBe('en');
    expect(within(article).getByText('SUCCESS')).toBeTruthy();
    expect(within(article).getByRole('link', { name: 'Play your own story' })).toBeTruthy();
  });

  test('a story without a recap or a score shows its ending type alone', async () => {
    await renderStory(readPublishedStory(row({ recap: null, score: null, ending_type: '' })));
    const ending = screen.getByRole('region', { name: 'Ending' });
    expect(ending.className).toContain('ending-mood--other');
    expect(within(ending).queryByText('Most Epic Moment')).toBeNull();
    expect(within(ending).queryByText('Adventure Score')).toBeNull();
    expect(within(ending).getByText('Turns')).toBeTruthy();
  });
});

describe('no story to show', () => {
  test('a story not published (any more) says so, with the way to play', async () => {
    await renderStory(null);
    expect(
      screen.getByRole('heading', { level: 1, name: 'This story is not published (any more).' }),
    ).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Play your own story' }).getAttribute('href')).toBe(
      '/',
    );
  });

  test('in Korean too', async () => {
    await renderStory(null, { language: 'kr' });
    expect(
      screen.getByRole('heading', { level: 1, name: /^이 이야기는 공개되어 있지 않습니다/ }),
    ).toBeTruthy();
    expect(screen.getByRole('link', { name: '나만의 이야기 시작하기' })).toBeTruthy();
  });

  test('an id that is no story id asks the backend nothing', async () => {
    const backend = jest.fn(() => new Promise<Backend>(() => undefined));
    store = makeTestStore(backend);
    renderPage({ id: 'not-a-story' });
    expect(await screen.findByRole('heading', { name: /not published/ })).toBeTruthy();
    expect(backend).not.toHaveBeenCalled();
  });

  test('says it is loading while the backend answers', () => {
    store = makeTestStore(() => new Promise<Backend>(() => undefined));
    renderPage();
    expect(screen.getByRole('status').textContent).toBe('Loading…');
  });

  test('a failed request says why, and Retry asks again', async () => {
    jest.spyOn(console, 'error').mockImplementation(() => undefined);
    const backend = jest.fn(() => Promise.reject(new Error('offline')));
    store = makeTestStore(backend);
    const { user } = renderPage();
    expect((await screen.findByRole('alert')).textContent).toContain(
      'The story could not be loaded.',
    );
    expect(screen.getByText('offline')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Retry' }));
    expect((await screen.findByRole('alert')).textContent).toContain('could not be loaded');
    expect(backend).toHaveBeenCalledTimes(2);
  });
});

describe('a published story’s pictures', () => {
  const webp = Buffer.from([...Buffer.from('RIFF'), 0, 0, 0, 0, ...Buffer.from('WEBPVP8 ')]);
  const pictures = [
    { turn: 0, width: 768, height: 512, alt: 'A city under a green sea.', mediaType: 'image/webp' },
    { turn: 1, width: 768, height: 512, alt: 'A bell rings once.', mediaType: 'image/webp' },
    { turn: -1, width: 512, height: 512, alt: 'The last map, kept.', mediaType: 'image/webp' },
  ];
  let made: Blob[];

  beforeEach(() => {
    made = [];
    // jsdom has no blob: URLs; the page's are counted here.
    URL.createObjectURL = (blob: Blob) => {
      made.push(blob);
      return `blob:test/${made.length}`;
    };
    URL.revokeObjectURL = () => undefined;
  });

  test('each shows under its paragraph, and the ending’s in the ending, with the scene as its alt text', async () => {
    await renderStory(readPublishedStory(row()));
    const dispatch = store.dispatch as ApiDispatch;
    await dispatch(publishedStoryApi.util.upsertQueryData('getPublishedPictures', ID, pictures));
    for (const { turn } of pictures) {
      await dispatch(
        publishedStoryApi.util.upsertQueryData(
          'getPublishedPictureData',
          { storyId: ID, turn },
          webp.toString('base64'),
        ),
      );
    }
    // Shown once its bytes are decoded: an <img>, no longer the placeholder.
    const shown = (name: string) =>
      waitFor(() => {
        const image = screen.getByRole('img', { name });
        expect(image.tagName).toBe('IMG');
        return image;
      });
    const opening = await shown('A city under a green sea.');
    await shown('The last map, kept.');
    const log = screen.getByRole('article').querySelector('.published-story__log')!;
    const order = [...log.children].map((child) =>
      child.tagName === 'FIGURE'
        ? `[${child.querySelector('img')?.getAttribute('alt')}]`
        : child.textContent,
    );
    expect(order).toEqual([
      'The city lay under a green sea.',
      '[A city under a green sea.]',
      '➤The player chose: Dive for the bell✓SUCCESS',
      '<script>alert(1)</script> rang once.',
      '[A bell rings once.]',
      '➤The player chose: Swim <b>up</b>✕FAILURE',
      '➤The player chose: Wait',
    ]);
    expect(opening.getAttribute('src')).toMatch(/^blob:/);
    expect(opening.getAttribute('width')).toBe('768');
    const ending = screen.getByRole('region', { name: 'Ending' });
    expect(within(ending).getByRole('img', { name: 'The last map, kept.' })).toBeTruthy();
    // The bytes shown are the backend's, as the WebP they are.
    expect(made).toHaveLength(3);
    expect(made[0]!.type).toBe('image/webp');
    const bytes = await new Promise<ArrayBuffer>((resolve) => {
      // jsdom's Blob has no arrayBuffer(); its FileReader reads one.
      const reader = new FileReader();
      reader.onload = () => resolve(reader.result as ArrayBuffer);
      reader.readAsArrayBuffer(made[0]!);
    });
    expect(Buffer.from(bytes)).toEqual(webp);
  });

  test('while its bytes come, a picture keeps its place and its name', async () => {
    await renderStory(readPublishedStory(row()));
    await (store.dispatch as ApiDispatch)(
      publishedStoryApi.util.upsertQueryData('getPublishedPictures', ID, pictures.slice(0, 1)),
    );
    const waiting = await screen.findByRole('img', { name: 'A city under a green sea.' });
    expect(waiting.tagName).toBe('DIV');
    expect(waiting.getAttribute('style')).toContain('aspect-ratio: 768 / 512');
  });
});
