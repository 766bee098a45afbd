import fc from 'fast-check';
import {
  SHEET_CHANGES_PER_REPLY,
  SHEET_MAX_ENTRIES,
  SHEET_NAME_MAX_CHARS,
  SHEET_NOTE_MAX_WORDS,
  applyPlayerChange,
  applySheetChanges,
  isDead,
  type SheetEntry,
} from '../../src/engine/storySheet';
import { readSheetChanges, readSheetEntries } from '../../src/engine/sheetReading';
import { sheetToTell } from '../../src/engine/sheetTelling';

const entry = (over: Partial<SheetEntry> & Pick<SheetEntry, 'kind' | 'name'>): SheetEntry => ({
  note: '',
  closed: false,
  changedIn: 0,
  playerIn: null,
  ...over,
});

describe('reading a reply’s sheetChanges', () => {
  test('keeps what it can read, and drops the rest without failing', () => {
    const changes = readSheetChanges([
      { op: 'add', kind: 'item', name: ' Brass  key ', note: 'Found under the ferry steps.' },
      { op: 'ADD', kind: 'Person', name: 'Mara', note: 'The ferryman’s daughter.' },
      { op: 'forge', kind: 'item', name: 'Sword' },
      { op: 'add', kind: 'spell', name: 'Fireball' },
      { op: 'add', kind: 'item', name: '   ' },
      { op: 'add', kind: 'item' },
      'add item key',
      null,
      { op: 'update', kind: 'item', name: 'brass key', note: 'a duplicate of the first' },
      { op: 'remove', kind: 'thread', name: 'The letter', note: 42 },
    ]);
    expect(changes).toEqual([
      { op: 'add', kind: 'item', name: 'Brass key', note: 'Found under the ferry steps.' },
      { op: 'add', kind: 'person', name: 'Mara', note: 'The ferryman’s daughter.' },
      { op: 'remove', kind: 'thread', name: 'The letter', note: '' },
    ]);
  });

  test('anything but a list is no change', () => {
    for (const value of [undefined, null, 'none', 3, { op: 'add' }]) {
      expect(readSheetChanges(value)).toEqual([]);
    }
  });

  test('cuts long notes and names, and reads at most a reply’s share of changes', () => {
    const long = Array.from({ length: 40 }, (_, i) => `word${i}`).join(' ');
    const [first] = readSheetChanges([
      { op: 'add', kind: 'place', name: 'x'.repeat(200), note: long },
    ]);
    expect(first!.name).toHaveLength(SHEET_NAME_MAX_CHARS);
    expect(first!.note.split(' ')).toHaveLength(SHEET_NOTE_MAX_WORDS);
    expect(first!.note.endsWith('...')).toBe(true);
    const many = Array.from({ length: 30 }, (_, i) => ({ op: 'add', kind: 'item', name: `i${i}` }));
    expect(readSheetChanges(many)).toHaveLength(SHEET_CHANGES_PER_REPLY);
  });

  test('never throws, whatever a model sends', () => {
    fc.assert(
      fc.property(fc.anything(), (value) => {
        const changes = readSheetChanges(value);
        expect(changes.length).toBeLessThanOrEqual(SHEET_CHANGES_PER_REPLY);
        for (const change of changes) expect(change.name).not.toBe('');
      }),
    );
  });
});

describe('the sheet over turns', () => {
  test('adds, updates, closes threads and drops what is removed', () => {
    let sheet = applySheetChanges(
      [],
      [
        { op: 'add', kind: 'person', name: 'Mara', note: 'guides the hero' },
        { op: 'add', kind: 'item', name: 'Brass key', note: 'opens the vault' },
        { op: 'add', kind: 'thread', name: 'The sealed letter', note: 'who sent it?' },
      ],
      3,
    );
    sheet = applySheetChanges(
      sheet,
      [
        { op: 'update', kind: 'person', name: 'mara', note: 'dead: drowned at the crossing' },
        { op: 'remove', kind: 'item', name: 'Brass key', note: '' },
        { op: 'remove', kind: 'thread', name: 'The sealed letter', note: '' },
        { op: 'update', kind: 'place', name: 'The vault', note: 'behind the chapel' },
      ],
      6,
    );
    expect(sheet).toEqual([
      entry({ kind: 'person', name: 'Mara', note: 'dead: drowned at the crossing', changedIn: 6 }),
      entry({
        kind: 'thread',
        name: 'The sealed letter',
        note: 'who sent it?',
        closed: true,
        changedIn: 6,
      }),
      entry({ kind: 'place', name: 'The vault', note: 'behind the chapel', changedIn: 6 }),
    ]);
    expect(isDead(sheet[0]!)).toBe(true);
    expect(isDead(entry({ kind: 'person', name: '서연', note: '사망: 강에 빠졌다' }))).toBe(true);
    expect(isDead(entry({ kind: 'item', name: 'Dead man’s coin', note: 'dead weight' }))).toBe(
      false,
    );
  });

  test('an update with no note keeps the old one', () => {
    const sheet = applySheetChanges(
      [entry({ kind: 'item', name: 'Lamp', note: 'lit' })],
      [{ op: 'update', kind: 'item', name: 'Lamp', note: '' }],
      2,
    );
    expect(sheet[0]).toMatchObject({ note: 'lit', changedIn: 2 });
  });

  test('the player’s version stands against the next reply, and not after it', () => {
    const corrected = applyPlayerChange(
      [entry({ kind: 'person', name: 'Oren', note: 'a ferryman' })],
      { op: 'add', kind: 'person', name: 'Oren', note: 'secretly the harbour master' },
      4,
    );
    const update = {
      op: 'update' as const,
      kind: 'person' as const,
      name: 'Oren',
      note: 'ferryman',
    };
    const nextReply = applySheetChanges(corrected, [update], 5);
    expect(nextReply[0]!.note).toBe('secretly the harbour master');
    expect(applySheetChanges(corrected, [{ ...update, op: 'remove' }], 5)).toHaveLength(1);
    expect(applySheetChanges(nextReply, [update], 6)[0]!.note).toBe('ferryman');
  });

  test('holds at most SHEET_MAX_ENTRIES, letting closed threads and the oldest go first', () => {
    const full = Array.from({ length: SHEET_MAX_ENTRIES }, (_, i) =>
      entry({ kind: 'item', name: `item ${i}`, changedIn: 10 + i }),
    );
    full[50] = entry({ kind: 'thread', name: 'closed one', closed: true, changedIn: 99 });
    const more = applySheetChanges(
      full,
      [
        { op: 'add', kind: 'place', name: 'new place', note: '' },
        { op: 'add', kind: 'place', name: 'another', note: '' },
      ],
      100,
    );
    expect(more).toHaveLength(SHEET_MAX_ENTRIES);
    const names = more.map((kept) => kept.name);
    expect(names).not.toContain('closed one');
    expect(names).not.toContain('item 0');
    expect(names).toContain('item 1');
    expect(names).toEqual(expect.arrayContaining(['new place', 'another']));
  });
});

describe('what a prompt tells of the sheet', () => {
  const cost = () => 10;

  test('the whole sheet when it fits, grouped by kind', () => {
    const sheet = [
      entry({ kind: 'condition', name: 'Cursed hand' }),
      entry({ kind: 'person', name: 'Mara' }),
      entry({ kind: 'thread', name: 'Done', closed: true }),
      entry({ kind: 'thread', name: 'Open' }),
      entry({ kind: 'item', name: 'Key' }),
    ];
    expect(sheetToTell(sheet, [], 100, cost).map((told) => told.name)).toEqual([
      'Mara',
      'Key',
      'Open',
      'Done',
      'Cursed hand',
    ]);
  });

  test('a sheet that fits is told without reading the story (a prompt is built every turn)', () => {
    const sheet = [entry({ kind: 'person', name: 'Mara' }), entry({ kind: 'item', name: 'Key' })];
    const unread = new Proxy(['opening', 'Mara waves.'], {
      get(target, key) {
        if (typeof key === 'string' && /^\d+$/.test(key)) throw new Error(`paragraph ${key} read`);
        return Reflect.get(target, key) as unknown;
      },
    });
    expect(sheetToTell(sheet, unread, 20, cost).map((told) => told.name)).toEqual(['Mara', 'Key']);
    // One entry over, and the story is read to rank them.
    expect(() => sheetToTell(sheet, unread, 19, cost)).toThrow('read');
  });

  test('when it does not fit: closed threads go first, then what the story left longest', () => {
    const sheet = [
      entry({ kind: 'person', name: 'Mara', changedIn: 3 }),
      entry({ kind: 'item', name: 'Key', changedIn: 3 }),
      entry({ kind: 'thread', name: 'Old quest', changedIn: 1, closed: true }),
      entry({ kind: 'place', name: 'Chapel', changedIn: 2 }),
    ];
    // Turn 9's paragraph names Mara: she was mentioned last, the chapel longest ago.
    const paragraphs = ['opening', ...Array.from({ length: 8 }, () => '...'), 'Mara waves.'];
    expect(sheetToTell(sheet, paragraphs, 30, cost).map((told) => told.name)).toEqual([
      'Mara',
      'Key',
      'Chapel',
    ]);
    expect(sheetToTell(sheet, paragraphs, 20, cost).map((told) => told.name)).toEqual([
      'Mara',
      'Key',
    ]);
    expect(sheetToTell(sheet, paragraphs, 0, cost)).toEqual([]);
  });
});

describe('a saved sheet read back', () => {
  test('reads what it can and drops the rest', () => {
    expect(
      readSheetEntries([
        { kind: 'item', name: 'Key', note: 'old', closed: true, changedIn: 3, playerIn: 2 },
        { kind: 'thread', name: 'Quest', closed: true, changedIn: -1 },
        { kind: 'item', name: 'key' },
        { kind: 'ghost', name: 'Boo' },
        'Key',
      ]),
    ).toEqual([
      entry({ kind: 'item', name: 'Key', note: 'old', changedIn: 3, playerIn: 2 }),
      entry({ kind: 'thread', name: 'Quest', closed: true }),
    ]);
    expect(readSheetEntries(undefined)).toEqual([]);
  });
});
