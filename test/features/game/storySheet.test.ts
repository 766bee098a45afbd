/**
 * Issue 40, the story sheet as the game keeps it: built from the sheetChanges of each reply,
 * told in every turn's prompt, taken back with a rewritten paragraph, and corrected by the
 * player, whose version stands against the next reply. Each turn is the turn worker run as the
 * game runs it (expectSaga over the real root reducer, the model a scripted client), the next
 * turn starting from the store the last one left.
 */
import type { RootState } from '../../../src/app/store';
import type { SheetChange } from '../../../src/engine/storySheet';
import { gameActions, playTurn, retryTurn, type Story } from '../../../src/features/game';
import { gameReply, type ChatRequestBody } from '../../fixtures/fakeModelServer';
import { PLAYING_GAME, type GameAt } from '../../fixtures/games';
import { play, prompts } from '../../support/gameWorkers';
import { scriptedModel } from '../../support/scriptedModel';
import { rootReducer } from '../../../src/app/store';

/** The game's usual reply to a turn, with these changes to the sheet. */
const replyWith = (sheetChanges: unknown) => (body: ChatRequestBody) => {
  const reply = gameReply(body);
  return { ...reply, json: { ...(reply.json as object), sheetChanges } };
};

const add = (kind: SheetChange['kind'], name: string, note: string) => ({
  op: 'add',
  kind,
  name,
  note,
});

/** One turn played from `game` with a model answering `script`: the store after it. */
async function turn(game: GameAt, script: Parameters<typeof scriptedModel>[0]) {
  const model = scriptedModel(script);
  const result = await play(playTurn, gameActions.choiceMade({ index: 0 }), { game, model }).run(
    false,
  );
  const state = result.storeState as RootState;
  return { game: state.game, prompt: prompts(model).at(-1)!, actions: result.effects.put ?? [] };
}

const sheetOf = (story: Story) =>
  story.storySheet.entries.map(({ kind, name, note, closed }) => ({ kind, name, note, closed }));

describe('the story sheet over turns', () => {
  test('each reply changes it, each prompt tells it, and the dead stay dead', async () => {
    const first = await turn(
      PLAYING_GAME,
      replyWith([
        add('person', 'Mara', "the ferryman's daughter, guides the hero"),
        add('item', 'Brass key', 'opens the vault under the chapel'),
        add('thread', 'The vault', 'what lies under the chapel?'),
        { op: 'bless', kind: 'item', name: 'Ignored' },
      ]),
    );
    // The first prompt had no sheet to tell.
    expect(first.prompt).not.toContain('Story sheet');
    expect(sheetOf(first.game.story)).toEqual([
      {
        kind: 'person',
        name: 'Mara',
        note: "the ferryman's daughter, guides the hero",
        closed: false,
      },
      { kind: 'item', name: 'Brass key', note: 'opens the vault under the chapel', closed: false },
      { kind: 'thread', name: 'The vault', note: 'what lies under the chapel?', closed: false },
    ]);
    const sheetEvents = first.actions.filter(
      (effect) =>
        (effect as { payload: { action: { type: string } } }).payload.action.type ===
        gameActions.sheetChanged.type,
    );
    expect(sheetEvents).toHaveLength(1);

    const second = await turn(
      first.game,
      replyWith([
        { op: 'update', kind: 'person', name: 'Mara', note: 'dead: drowned at the crossing' },
        { op: 'remove', kind: 'item', name: 'Brass key' },
        { op: 'remove', kind: 'thread', name: 'The vault' },
      ]),
    );
    expect(second.prompt).toContain(
      "- People: Mara: the ferryman's daughter, guides the hero\n- Items held: Brass key: opens the vault under the chapel\n- Open threads: The vault: what lies under the chapel?",
    );

    const third = await turn(second.game, replyWith([]));
    expect(third.prompt).toContain('- People: Mara (dead): dead: drowned at the crossing');
    expect(third.prompt).toContain('- Closed threads: The vault');
    expect(third.prompt).not.toContain('Brass key');
    // A reply with no changes leaves the sheet as it was.
    expect(sheetOf(third.game.story)).toEqual(sheetOf(second.game.story));
  });

  test('the Korean prompt tells the sheet in Korean', async () => {
    const model = scriptedModel(replyWith([add('person', '서연', '주인공의 누이')]));
    const first = await play(playTurn, gameActions.choiceMade({ index: 0 }), {
      game: PLAYING_GAME,
      model,
      language: 'kr',
    }).run(false);
    const second = scriptedModel(replyWith([]));
    await play(playTurn, gameActions.choiceMade({ index: 0 }), {
      game: (first.storeState as RootState).game,
      model: second,
      language: 'kr',
    }).run(false);
    expect(prompts(second)[0]).toContain('이야기 시트');
    expect(prompts(second)[0]).toContain('- 인물: 서연: 주인공의 누이');
  });

  test('Write it again takes the replaced paragraph’s changes back with it', async () => {
    const first = await turn(PLAYING_GAME, replyWith([add('item', 'Lantern', 'lit')]));
    const second = await turn(
      first.game,
      replyWith([
        add('person', 'Oren', 'a ferryman'),
        { op: 'remove', kind: 'item', name: 'Lantern' },
      ]),
    );
    expect(sheetOf(second.game.story).map((entry) => entry.name)).toEqual(['Oren']);

    const rewritten = rootReducer(
      { ...(rootReducer(undefined, { type: 'test/init' }) as RootState), game: second.game },
      gameActions.rewriteRequested(),
    );
    expect(sheetOf(rewritten.game.story)).toEqual([
      { kind: 'item', name: 'Lantern', note: 'lit', closed: false },
    ]);
  });

  test('the player’s correction wins over the next reply’s update of the same entry', async () => {
    const first = await turn(PLAYING_GAME, replyWith([add('person', 'Oren', 'a ferryman')]));
    const state = rootReducer(
      { ...(rootReducer(undefined, { type: 'test/init' }) as RootState), game: first.game },
      gameActions.sheetEntryWritten({
        kind: 'person',
        name: 'Oren',
        note: 'secretly the harbour master',
      }),
    );
    const second = await turn(
      state.game,
      replyWith([{ op: 'update', kind: 'person', name: 'Oren', note: 'a simple ferryman' }]),
    );
    // The prompt told the player's version, and the reply did not undo it.
    expect(second.prompt).toContain('Oren: secretly the harbour master');
    expect(second.game.story.storySheet.entries[0]!.note).toBe('secretly the harbour master');
    // Later replies may change it again.
    const third = await turn(
      second.game,
      replyWith([{ op: 'update', kind: 'person', name: 'Oren', note: 'dead: lost at sea' }]),
    );
    expect(third.game.story.storySheet.entries[0]!.note).toBe('dead: lost at sea');
  });

  test('the player’s removal and entry outlast Write it again', async () => {
    const first = await turn(PLAYING_GAME, replyWith([add('condition', 'Cursed hand', 'numb')]));
    let state = rootReducer(
      { ...(rootReducer(undefined, { type: 'test/init' }) as RootState), game: first.game },
      gameActions.sheetEntryRemoved({ kind: 'condition', name: 'Cursed hand' }),
    );
    state = rootReducer(
      state,
      gameActions.sheetEntryWritten({ kind: 'item', name: 'Lucky coin', note: 'from mother' }),
    );
    expect(sheetOf(state.game.story).map((entry) => entry.name)).toEqual(['Lucky coin']);
    // Write it again: the turn's paragraph, and its reply's changes, are taken back.
    const model = scriptedModel(replyWith([]));
    const rewritten = await play(retryTurn, gameActions.rewriteRequested(), {
      game: state.game,
      model,
    }).run(false);
    expect(prompts(model)).toHaveLength(1);
    expect(prompts(model)[0]).not.toContain('Cursed hand');
    expect(prompts(model)[0]).toContain('Lucky coin: from mother');
    expect(sheetOf((rewritten.storeState as RootState).game.story)).toEqual([
      { kind: 'item', name: 'Lucky coin', note: 'from mother', closed: false },
    ]);
  });

  test('a reply whose sheetChanges cannot be read is still a turn', async () => {
    const first = await turn(PLAYING_GAME, replyWith('the hero found a key'));
    expect(first.game.turn).toEqual({ phase: 'choosing' });
    expect(first.game.story.storySheet.entries).toEqual([]);
  });
});

describe('the lorebook in the prompts', () => {
  const FERRY = {
    id: 'ferry',
    name: 'The Ferry Guild',
    keywords: ['ferry', 'ferryman'],
    text: 'The guild owns every crossing and answers only to the harbour master.',
    always: false,
  };
  const MOON = {
    id: 'moon',
    name: 'Two moons',
    keywords: ['moons'],
    text: 'The world has two moons; the red one rises on feast days.',
    always: true,
  };

  test('an entry comes into the prompt of a turn that mentions it, and not into one that does not', async () => {
    const quiet = { ...PLAYING_GAME, story: { ...PLAYING_GAME.story!, lorebook: [FERRY, MOON] } };
    const first = await turn(quiet as GameAt, replyWith([]));
    // The latest paragraph and the choice name no ferry: only the entry marked always is told.
    expect(first.prompt).toContain("The player's lorebook");
    expect(first.prompt).toContain('- Two moons: The world has two moons');
    expect(first.prompt).not.toContain('The Ferry Guild');

    const mentioned = {
      ...first.game,
      story: {
        ...first.game.story,
        previousParagraph: 'The ferryman waves you aboard without a word.',
        storyLog: [
          ...first.game.story.storyLog.slice(0, -1),
          { kind: 'paragraph' as const, text: 'The ferryman waves you aboard without a word.' },
        ],
      },
    };
    const second = await turn(mentioned, replyWith([]));
    expect(second.prompt).toContain(
      '- The Ferry Guild: The guild owns every crossing and answers only to the harbour master.',
    );
  });

  test('a keyword on the story sheet brings its entry too', async () => {
    const first = await turn(
      { ...PLAYING_GAME, story: { ...PLAYING_GAME.story!, lorebook: [FERRY] } } as GameAt,
      replyWith([add('person', 'Old ferryman', 'rows the hero across at dawn')]),
    );
    expect(first.prompt).not.toContain('The Ferry Guild');
    const second = await turn(first.game, replyWith([]));
    expect(second.prompt).toContain('- The Ferry Guild:');
  });
});
