/**
 * The player's lorebook in the store (src/features/game/lorebook/): entries added, changed,
 * removed and put back by the game's events, when the player may change them, the limits
 * refusing an entry whole, and a genre's kept lorebook (the settings' genreLorebooks) copied
 * into a new story of the genre and kept over a visit. Real stores, read through selectors.
 */
import { makeStore } from '../../../src/app/store';
import {
  LORE_ALWAYS_MAX,
  LOREBOOK_MAX_ENTRIES,
  type LoreEntry,
} from '../../../src/engine/lorebook';
import { gameActions, selectStory, type Phase, type Turn } from '../../../src/features/game';
import type { LoreDraft } from '../../../src/features/game/lorebook/lorebookReducers';
import {
  MAX_GENRE_LOREBOOKS,
  genreLorebookForgotten,
  genreLorebookSaved,
  selectGenreLorebooks,
} from '../../../src/features/settings';
import { MemoryStorage } from '../../fixtures/testWallet';
import { PLAYING_GAME, appStateWith, gameAt, playingWith } from '../../fixtures/games';
import { gameStore } from '../../support/gameStore';

const ORLA: LoreDraft = {
  name: 'Orla',
  keywords: ['Orla', 'ferryman’s daughter'],
  text: 'The ferryman’s daughter. She knows every current of the black river.',
  always: false,
};
const draft = (name: string, more: Partial<LoreDraft> = {}): LoreDraft => ({
  name,
  keywords: [name],
  text: `What is true of ${name}.`,
  always: false,
  ...more,
});

function playingStore(turn: Turn = { phase: 'choosing' }, lorebook: LoreEntry[] = []) {
  return makeStore({ preloadedState: { game: gameAt(playingWith({ lorebook }, turn)) } });
}
const lorebookOf = (store: ReturnType<typeof makeStore>) => selectStory(store.getState()).lorebook;

describe('the player writes the lorebook between turns', () => {
  test('an entry added goes at the end, with an id of its own', () => {
    const store = playingStore();
    store.dispatch(gameActions.loreEntryAdded(ORLA));
    store.dispatch(gameActions.loreEntryAdded(draft('The tower')));
    const [orla, tower] = lorebookOf(store);
    expect(orla).toEqual({ ...ORLA, id: expect.any(String) });
    expect(tower?.name).toBe('The tower');
    expect(orla!.id).not.toBe(tower!.id);
    store.stop();
  });

  test('an entry changed stays in its place; removed, it goes; Undo puts it back where it was', () => {
    const store = playingStore();
    for (const name of ['Orla', 'Key', 'Tower'])
      store.dispatch(gameActions.loreEntryAdded(draft(name)));
    const key = lorebookOf(store)[1]!;
    store.dispatch(gameActions.loreEntryChanged({ ...key, text: 'Brass, and warm to the touch.' }));
    expect(lorebookOf(store).map((entry) => entry.text)[1]).toBe('Brass, and warm to the touch.');

    const changed = lorebookOf(store)[1]!;
    store.dispatch(gameActions.loreEntryRemoved({ id: key.id }));
    expect(lorebookOf(store).map((entry) => entry.name)).toEqual(['Orla', 'Tower']);
    store.dispatch(gameActions.loreEntryRestored({ entry: changed, index: 1 }));
    expect(lorebookOf(store)).toEqual([
      expect.objectContaining({ name: 'Orla' }),
      changed,
      expect.objectContaining({ name: 'Tower' }),
    ]);
    // Put back twice, it is there once.
    store.dispatch(gameActions.loreEntryRestored({ entry: changed, index: 0 }));
    expect(lorebookOf(store)).toHaveLength(3);
    store.stop();
  });

  test('an entry past a limit is refused whole, never cut or half taken', () => {
    const store = playingStore();
    store.dispatch(gameActions.loreEntryAdded({ ...ORLA, text: 'x'.repeat(501) }));
    store.dispatch(gameActions.loreEntryAdded({ ...ORLA, keywords: ['Orla', ' '] }));
    store.dispatch(gameActions.loreEntryAdded({ ...ORLA, name: 'n'.repeat(61) }));
    expect(lorebookOf(store)).toEqual([]);
    // What the event carried beyond an entry's fields is not kept either.
    store.dispatch(gameActions.loreEntryAdded({ ...ORLA, html: '<b>' } as LoreDraft));
    expect(Object.keys(lorebookOf(store)[0]!).sort()).toEqual([
      'always',
      'id',
      'keywords',
      'name',
      'text',
    ]);
    store.stop();
  });

  test('an entry without a name or a text is refused; so is a change that would leave one', () => {
    const store = playingStore();
    store.dispatch(gameActions.loreEntryAdded(draft('', { text: 'Nameless.' })));
    store.dispatch(gameActions.loreEntryAdded(draft('Orla', { text: '  ' })));
    expect(lorebookOf(store)).toEqual([]);
    store.dispatch(gameActions.loreEntryAdded(ORLA));
    const orla = lorebookOf(store)[0]!;
    store.dispatch(gameActions.loreEntryChanged({ ...orla, text: '' }));
    expect(lorebookOf(store)[0]).toBe(orla);
    store.stop();
  });

  test(`at most ${LORE_ALWAYS_MAX} entries always told: a fourth is refused whole, added or changed`, () => {
    const store = playingStore();
    for (const name of ['A', 'B', 'C']) {
      store.dispatch(gameActions.loreEntryAdded(draft(name, { always: true })));
    }
    store.dispatch(gameActions.loreEntryAdded(draft('D', { always: true })));
    expect(lorebookOf(store).map((entry) => entry.name)).toEqual(['A', 'B', 'C']);
    store.dispatch(gameActions.loreEntryAdded(draft('D')));
    const d = lorebookOf(store)[3]!;
    store.dispatch(gameActions.loreEntryChanged({ ...d, always: true, text: 'Changed.' }));
    expect(lorebookOf(store)[3]).toBe(d);
    // One freed, the change is taken.
    store.dispatch(gameActions.loreEntryChanged({ ...lorebookOf(store)[0]!, always: false }));
    store.dispatch(gameActions.loreEntryChanged({ ...d, always: true }));
    expect(lorebookOf(store).map((entry) => entry.always)).toEqual([false, true, true, true]);
    store.stop();
  });

  test(`at most ${LOREBOOK_MAX_ENTRIES} entries`, () => {
    const store = playingStore();
    for (let n = 0; n <= LOREBOOK_MAX_ENTRIES; n += 1) {
      store.dispatch(gameActions.loreEntryAdded(draft(`Entry ${n}`)));
    }
    expect(lorebookOf(store)).toHaveLength(LOREBOOK_MAX_ENTRIES);
    expect(lorebookOf(store).at(-1)?.name).toBe(`Entry ${LOREBOOK_MAX_ENTRIES - 1}`);
    store.stop();
  });

  test.each<[Phase, boolean]>([
    ['naming', true],
    ['openingFailed', true],
    ['choosing', true],
    ['stopped', true],
    ['failed', true],
    ['choosingPortrait', false],
    ['opening', false],
    ['writing', false],
    ['concluding', false],
    ['ended', false],
  ])('in the %s phase the player may change it: %s', (phase, heard) => {
    const writing = { streamed: '', thinking: false, wait: null };
    const turns: Partial<Record<Phase, Turn>> = {
      openingFailed: { phase: 'openingFailed', problem: null },
      failed: { phase: 'failed', problem: null },
      opening: { phase: 'opening', progress: 0, ...writing },
      writing: { phase: 'writing', ...writing },
      concluding: { phase: 'concluding', ...writing },
    };
    const store = playingStore(turns[phase] ?? ({ phase } as Turn));
    store.dispatch(gameActions.loreEntryAdded(ORLA));
    expect(lorebookOf(store)).toHaveLength(heard ? 1 : 0);
    store.stop();
  });

  test('a new game starts with an empty lorebook; a saved story comes back with its own', () => {
    const store = playingStore();
    store.dispatch(gameActions.loreEntryAdded(ORLA));
    const story = selectStory(store.getState());
    store.dispatch(gameActions.newGameStarted());
    expect(lorebookOf(store)).toEqual([]);
    store.dispatch(gameActions.savedStoryResumed(story));
    expect(lorebookOf(store)).toEqual(story.lorebook);
    store.stop();
  });
});

describe('a lorebook kept with its genre', () => {
  const kept = (name: string): LoreEntry => ({ ...draft(name), id: `kept-${name}` });

  test('a new story of the genre starts with a copy of it; a story of another genre does not', async () => {
    const state = appStateWith(
      { turn: { phase: 'home' } },
      { genreLorebooks: { 'Sea Legend': [kept('Orla'), kept('Tide')] } },
    );
    const game = gameStore(state, {});
    game.store.dispatch(gameActions.newGameStarted());
    const taken = game.dispatched(gameActions.genreLorebookTaken.type);
    game.store.dispatch(gameActions.genreChosen('Sea Legend'));
    await taken;
    expect(selectStory(game.store.getState()).lorebook.map((entry) => entry.name)).toEqual([
      'Orla',
      'Tide',
    ]);

    // The story's copy is its own: a change to it leaves the kept one as it was.
    game.store.dispatch(gameActions.portraitChosen(3));
    const orla = selectStory(game.store.getState()).lorebook[0]!;
    game.store.dispatch(gameActions.loreEntryChanged({ ...orla, text: 'Changed in this story.' }));
    expect(selectGenreLorebooks(game.store.getState())['Sea Legend']![0]!.text).toBe(
      'What is true of Orla.',
    );

    game.store.dispatch(gameActions.newGameStarted());
    game.store.dispatch(gameActions.genreChosen('Desert Noir'));
    expect(selectStory(game.store.getState()).lorebook).toEqual([]);
    expect(
      game.actions.filter((action) => action.type === gameActions.genreLorebookTaken.type),
    ).toHaveLength(1);
    game.stop();
  });

  test('kept, replaced, forgotten: the latest MAX_GENRE_LOREBOOKS genres, an empty book keeping nothing', () => {
    const store = makeStore({ preloadedState: { game: gameAt(PLAYING_GAME) } });
    store.dispatch(genreLorebookSaved({ genre: ' Sea Legend ', lorebook: [kept('Orla')] }));
    expect(Object.keys(selectGenreLorebooks(store.getState()))).toEqual(['Sea Legend']);
    store.dispatch(genreLorebookSaved({ genre: 'Sea Legend', lorebook: [kept('Tide')] }));
    expect(
      selectGenreLorebooks(store.getState())['Sea Legend']!.map((entry) => entry.name),
    ).toEqual(['Tide']);
    store.dispatch(genreLorebookSaved({ genre: 'Sea Legend', lorebook: [] }));
    expect(selectGenreLorebooks(store.getState())).toEqual({});

    for (let n = 0; n <= MAX_GENRE_LOREBOOKS; n += 1) {
      store.dispatch(genreLorebookSaved({ genre: `Genre ${n}`, lorebook: [kept('Orla')] }));
    }
    const genres = Object.keys(selectGenreLorebooks(store.getState()));
    expect(genres).toHaveLength(MAX_GENRE_LOREBOOKS);
    expect(genres).not.toContain('Genre 0');
    store.dispatch(genreLorebookForgotten('Genre 5'));
    expect(Object.keys(selectGenreLorebooks(store.getState()))).not.toContain('Genre 5');
    store.stop();
  });

  test('kept in the browser over a visit, read back within the limits', async () => {
    const storage = new MemoryStorage();
    const first = makeStore({ persist: true, context: { storage } });
    await first.ready;
    first.dispatch(genreLorebookSaved({ genre: 'Sea Legend', lorebook: [kept('Orla')] }));
    for (let tick = 0; tick < 200; tick += 1) {
      if (storage.getItem('persist:taleweaver/settings')?.includes('kept-Orla')) break;
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    first.stop();
    // A hand-edited record: a genre with no entries and an entry with no text are dropped.
    const record = JSON.parse(storage.getItem('persist:taleweaver/settings')!) as Record<
      string,
      string
    >;
    const books = JSON.parse(record.genreLorebooks!) as Record<string, unknown>;
    books.Broken = [{ id: 'x', name: 'No text' }];
    storage.setItem(
      'persist:taleweaver/settings',
      JSON.stringify({ ...record, genreLorebooks: JSON.stringify(books) }),
    );

    const second = makeStore({ persist: true, context: { storage } });
    await second.ready;
    expect(selectGenreLorebooks(second.getState())).toEqual({ 'Sea Legend': [kept('Orla')] });
    second.stop();
  });
});
