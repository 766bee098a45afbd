/**
 * @jest-environment jsdom
 */
// Reading the story aloud (issue 22): a stand-in for the browser's speech synthesis records what
// the page asks it to read, and sends the events a browser would (voices arriving late, the end
// of a reading, the error of one cancelled).
import { act, cleanup, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useMemo } from 'react';
import { useAppSelector } from '../../../src/shared/hooks';
import { makeStore, type AppStore } from '../../../src/app/store';
import type { Language } from '../../../src/engine/types';
import { AutoReadToggle } from '../../../src/features/game/views/AutoReadToggle';
import { ReadAloudButton } from '../../../src/features/game/views/ReadAloudButton';
import { useReadAloud, voiceFor } from '../../../src/features/game/views/readAloud';
import {
  arrivedParagraph,
  paragraphsIn,
  useAutoRead,
  type ReadableParagraph,
} from '../../../src/features/game/views/useAutoRead';
import {
  autoReadChosen,
  initialSettingsState,
  languageChosen,
  selectAutoRead,
  selectLanguage,
} from '../../../src/features/settings';
import { MemoryStorage } from '../../fixtures/testWallet';
import { renderWithProviders } from '../../support/render';

const voice = (lang: string, name: string, extra: Partial<SpeechSynthesisVoice> = {}) =>
  ({
    lang,
    name,
    voiceURI: name,
    localService: false,
    default: false,
    ...extra,
  }) as SpeechSynthesisVoice;

const US_ENGLISH = voice('en-US', 'Samantha', { localService: true, default: true });
const KOREAN_ONLINE = voice('ko-KR', 'Google 한국의', { default: true });
const KOREAN_ON_DEVICE = voice('ko_KR', 'Yuna', { localService: true });

/** What the page asked to be read; the stand-in's own fields, beside the browser's. */
class FakeUtterance extends EventTarget {
  lang = '';
  voice: SpeechSynthesisVoice | null = null;
  constructor(public text: string) {
    super();
  }
}

/** A browser's speech synthesis, as far as the page uses it. */
class FakeSpeech extends EventTarget {
  spoken: FakeUtterance[] = [];
  cancels = 0;
  private current: FakeUtterance | null = null;
  constructor(private voices: SpeechSynthesisVoice[]) {
    super();
  }
  getVoices() {
    return this.voices;
  }
  speak(utterance: FakeUtterance) {
    this.spoken.push(utterance);
    this.current = utterance;
  }
  /** As Chrome does: the cancelled reading's error comes after the call, not during it. */
  cancel() {
    this.cancels += 1;
    const cancelled = this.current;
    this.current = null;
    if (cancelled) setTimeout(() => cancelled.dispatchEvent(new Event('error')), 0);
  }
  voicesArrive(voices: SpeechSynthesisVoice[]) {
    this.voices = voices;
    act(() => void this.dispatchEvent(new Event('voiceschanged')));
  }
  finishReading() {
    const finished = this.current;
    this.current = null;
    act(() => void finished?.dispatchEvent(new Event('end')));
  }
  get lastSpoken() {
    return this.spoken.at(-1);
  }
}

let speech: FakeSpeech;
let store: AppStore;

/** Installs the stand-in where the browser's speech synthesis is. */
function installSpeech(voices: SpeechSynthesisVoice[]) {
  speech = new FakeSpeech(voices);
  Object.defineProperty(window, 'speechSynthesis', { value: speech, configurable: true });
  Object.defineProperty(window, 'SpeechSynthesisUtterance', {
    value: FakeUtterance,
    configurable: true,
  });
}

afterEach(() => {
  cleanup();
  store?.stop();
  Reflect.deleteProperty(window, 'speechSynthesis');
  Reflect.deleteProperty(window, 'SpeechSynthesisUtterance');
});

/** The story log's part, as it will be wired: a button per paragraph, the box, auto-read. */
function StoryReader({ paragraphs }: { paragraphs: readonly ReadableParagraph[] }) {
  const language = useAppSelector(selectLanguage);
  const autoRead = useAppSelector(selectAutoRead);
  const { available, speakingKey, speak, stop } = useReadAloud(language);
  const reader = useMemo(() => ({ available, speak, stop }), [available, speak, stop]);
  useAutoRead(paragraphs, autoRead, reader);
  return (
    <div>
      <AutoReadToggle available={available} />
      {paragraphs.map((paragraph) => (
        <p key={paragraph.key} data-testid={paragraph.key}>
          {paragraph.text}
          <ReadAloudButton
            paragraphKey={paragraph.key}
            text={paragraph.text}
            speaking={speakingKey === paragraph.key}
            reader={reader}
          />
        </p>
      ))}
    </div>
  );
}

const STORY: ReadableParagraph[] = [
  { key: '0', text: 'The fog rolled over Wexham.' },
  { key: '2', text: 'The lantern led to a chapel.' },
];
const NEXT: ReadableParagraph = { key: '4', text: 'The bells began to ring.' };

function renderReader(
  paragraphs: readonly ReadableParagraph[],
  // The catalogue is English unless told, whatever the chosen language: the voice follows the
  // setting, the words on the buttons the catalogue.
  { language = 'en' as Language, autoRead = false, catalogue = 'en' as Language } = {},
) {
  const rendered = renderWithProviders(<StoryReader paragraphs={paragraphs} />, {
    preloadedState: { settings: { ...initialSettingsState, language, autoRead } },
    language: catalogue,
  });
  store = rendered.store;
  const { rerender, unmount } = rendered;
  return {
    show: (shown: readonly ReadableParagraph[]) => rerender(<StoryReader paragraphs={shown} />),
    unmount,
  };
}

const readButtonOf = (key: string) =>
  within(screen.getByTestId(key)).getByRole('button', { name: 'Read aloud' });

describe('which voice reads', () => {
  test("a voice of the interface language's, on the device first, then the default", () => {
    const voices = [US_ENGLISH, KOREAN_ONLINE, KOREAN_ON_DEVICE];
    expect(voiceFor(voices, 'kr')).toBe(KOREAN_ON_DEVICE);
    expect(voiceFor(voices, 'en')).toBe(US_ENGLISH);
    expect(voiceFor([KOREAN_ONLINE, voice('ko-KR', 'Other')], 'kr')).toBe(KOREAN_ONLINE);
    // Any case, a bare language, an underscore; not a language that merely starts alike.
    expect(voiceFor([voice('KO_kr', 'Shouting')], 'kr')?.name).toBe('Shouting');
    expect(voiceFor([voice('ko', 'Bare')], 'kr')?.name).toBe('Bare');
    expect(voiceFor([voice('kok-IN', 'Konkani'), US_ENGLISH], 'kr')).toBeNull();
  });
});

describe('the read-aloud controls', () => {
  test('are not shown in a browser without speech synthesis', () => {
    renderReader(STORY);
    expect(screen.getByText(STORY[0]!.text)).toBeTruthy();
    expect(screen.queryByRole('button')).toBeNull();
    expect(screen.queryByRole('checkbox')).toBeNull();
  });

  test('are not shown when no voice speaks the interface language', () => {
    installSpeech([US_ENGLISH]);
    renderReader(STORY, { language: 'kr' });
    expect(screen.queryByRole('button')).toBeNull();
    expect(screen.queryByRole('checkbox')).toBeNull();

    act(() => void store.dispatch(languageChosen('en')));
    expect(screen.getAllByRole('button', { name: 'Read aloud' })).toHaveLength(2);
    expect(screen.getByRole('checkbox', { name: 'Read new paragraphs aloud' })).toBeTruthy();
  });

  test('show once the voices arrive after the page', () => {
    installSpeech([]);
    renderReader(STORY, { language: 'kr', catalogue: 'kr' });
    expect(screen.queryByRole('button')).toBeNull();

    speech.voicesArrive([US_ENGLISH, KOREAN_ON_DEVICE]);
    expect(screen.getAllByRole('button', { name: '소리 내어 읽기' })).toHaveLength(2);
    expect(screen.getByRole('checkbox', { name: '새 문단 자동으로 읽기' })).toBeTruthy();
  });
});

describe('reading a paragraph', () => {
  test("reads its text with the language's voice, pressed until it ends", async () => {
    installSpeech([US_ENGLISH, KOREAN_ONLINE, KOREAN_ON_DEVICE]);
    renderReader(STORY, { language: 'kr' });
    await userEvent.click(readButtonOf('2'));

    expect(speech.spoken).toHaveLength(1);
    expect(speech.lastSpoken).toMatchObject({
      text: 'The lantern led to a chapel.',
      lang: 'ko-KR',
      voice: KOREAN_ON_DEVICE,
    });
    expect(readButtonOf('2').getAttribute('aria-pressed')).toBe('true');
    expect(readButtonOf('2').title).toBe('Stop reading');
    expect(readButtonOf('0').getAttribute('aria-pressed')).toBe('false');

    speech.finishReading();
    expect(readButtonOf('2').getAttribute('aria-pressed')).toBe('false');
    expect(readButtonOf('2').title).toBe('Read aloud');
  });

  test('pressed again, it stops; the keyboard reaches it', async () => {
    installSpeech([US_ENGLISH]);
    renderReader(STORY);
    await userEvent.tab(); // the auto-read box
    await userEvent.tab();
    expect(document.activeElement).toBe(readButtonOf('0'));
    await userEvent.keyboard('{Enter}');
    expect(speech.lastSpoken?.text).toBe('The fog rolled over Wexham.');
    const cancelsBefore = speech.cancels;

    await userEvent.keyboard('{Enter}');
    expect(speech.cancels).toBe(cancelsBefore + 1);
    expect(readButtonOf('0').getAttribute('aria-pressed')).toBe('false');
    expect(speech.spoken).toHaveLength(1);
  });

  test('another paragraph takes over; the cancelled reading ending late changes nothing', async () => {
    installSpeech([US_ENGLISH]);
    renderReader(STORY);
    await userEvent.click(readButtonOf('0'));
    await userEvent.click(readButtonOf('2'));
    await act(() => new Promise((resolve) => setTimeout(resolve, 10))); // the first one's error

    expect(speech.spoken.map((utterance) => utterance.text)).toEqual([
      'The fog rolled over Wexham.',
      'The lantern led to a chapel.',
    ]);
    expect(readButtonOf('2').getAttribute('aria-pressed')).toBe('true');
    expect(readButtonOf('0').getAttribute('aria-pressed')).toBe('false');
  });

  test('a change of language, or leaving the screen, stops it', async () => {
    installSpeech([US_ENGLISH, KOREAN_ON_DEVICE]);
    const { unmount } = renderReader(STORY);
    await userEvent.click(readButtonOf('0'));
    const cancelsBefore = speech.cancels;

    act(() => void store.dispatch(languageChosen('kr')));
    expect(speech.cancels).toBe(cancelsBefore + 1);
    expect(readButtonOf('0').getAttribute('aria-pressed')).toBe('false');

    await userEvent.click(readButtonOf('2'));
    expect(speech.lastSpoken).toMatchObject({ lang: 'ko-KR', voice: KOREAN_ON_DEVICE });
    const cancelsThen = speech.cancels;
    unmount();
    expect(speech.cancels).toBe(cancelsThen + 1);
  });
});

describe('reading new paragraphs aloud', () => {
  test('reads only a paragraph that arrives, not those already there', () => {
    installSpeech([US_ENGLISH]);
    const { show } = renderReader(STORY, { autoRead: true });
    expect(screen.getByRole<HTMLInputElement>('checkbox').checked).toBe(true);
    expect(speech.spoken).toEqual([]);

    show([...STORY, NEXT]);
    expect(speech.spoken.map((utterance) => utterance.text)).toEqual([NEXT.text]);
    expect(readButtonOf('4').getAttribute('aria-pressed')).toBe('true');

    // The same story again (another render): nothing more.
    show([...STORY, NEXT]);
    expect(speech.spoken).toHaveLength(1);
  });

  test('a saved story opened, or the box ticked, reads nothing', async () => {
    installSpeech([US_ENGLISH]);
    const { show } = renderReader(STORY);
    show([...STORY, NEXT]); // the box is clear
    expect(speech.spoken).toEqual([]);

    await userEvent.click(screen.getByRole('checkbox', { name: 'Read new paragraphs aloud' }));
    expect(selectAutoRead(store.getState())).toBe(true);
    expect(speech.spoken).toEqual([]); // not the latest paragraph, already there

    // Another story, one paragraph longer than this one: opened, not arrived.
    show([
      { key: '0', text: 'The tide went out.' },
      { key: '2', text: 'A boat lay on the sand.' },
      { key: '4', text: 'Someone had left a lamp lit.' },
      { key: '6', text: 'The lamp went out.' },
    ]);
    expect(speech.spoken).toEqual([]);
  });

  test('a paragraph arrives: the story as it was, then one more', () => {
    expect(arrivedParagraph(STORY, [...STORY, NEXT])).toEqual(NEXT);
    expect(arrivedParagraph([], [STORY[0]!])).toEqual(STORY[0]); // a new game's opening
    expect(arrivedParagraph([], [...STORY, NEXT])).toBeNull();
    expect(arrivedParagraph(STORY, STORY)).toBeNull();
    expect(arrivedParagraph(STORY, [STORY[0]!, { ...STORY[1]!, text: 'Else' }, NEXT])).toBeNull();
    expect(
      paragraphsIn([
        { kind: 'paragraph', text: 'A' },
        { kind: 'choice', text: 'B', outcome: null, freeText: false },
        { kind: 'paragraph', text: 'C' },
      ]),
    ).toEqual([
      { key: '0', text: 'A' },
      { key: '2', text: 'C' },
    ]);
  });
});

describe('the auto-read setting', () => {
  const KEY = 'persist:taleweaver/settings';

  test('is kept for the next visit, and only a yes or a no comes back', async () => {
    installSpeech([US_ENGLISH]);
    const storage = new MemoryStorage();
    store = makeStore({ persist: true, context: { storage } });
    await store.ready;
    expect(selectAutoRead(store.getState())).toBe(false);
    renderWithProviders(<AutoReadToggle available />, { store, language: 'en' });
    await userEvent.click(screen.getByRole('checkbox', { name: 'Read new paragraphs aloud' }));
    // The persistoid writes after the dispatch, a field per timer tick.
    for (let tick = 0; tick < 200 && storage.getItem(KEY) === null; tick += 1) {
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    const saved = JSON.parse(storage.getItem(KEY) ?? '{}') as Record<string, string>;
    expect(saved.autoRead).toBe('true');
    store.stop();

    store = makeStore({ persist: true, context: { storage } });
    await store.ready;
    expect(selectAutoRead(store.getState())).toBe(true);
    store.stop();

    storage.setItem(KEY, JSON.stringify({ ...saved, autoRead: JSON.stringify('yes') }));
    store = makeStore({ persist: true, context: { storage } });
    await store.ready;
    expect(selectAutoRead(store.getState())).toBe(false);
    store.dispatch(autoReadChosen('yes' as unknown as boolean));
    expect(selectAutoRead(store.getState())).toBe(false);
  });
});
