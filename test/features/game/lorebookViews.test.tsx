/**
 * @jest-environment jsdom
 */
/**
 * The lorebook panel as a player meets it (views/Lorebook.tsx and LorebookPanel.tsx): closed
 * until opened, then entries written, shown as text, changed, removed and put back, the limit on
 * entries always told said where it bites, a draft kept over closing, a lorebook kept for the
 * genre, only shown while a paragraph is written, in Korean too, and at the name before the
 * opening.
 */
import { screen, waitFor, within } from '@testing-library/react';
import { makeStore, type AppStore } from '../../../src/app/store';
import type { LoreEntry } from '../../../src/engine/lorebook';
import type { Language } from '../../../src/engine/types';
import type { Turn } from '../../../src/features/game';
import { Lorebook } from '../../../src/features/game/views/Lorebook';
import { NameView } from '../../../src/features/game/views/NameView';
import { selectGenreLorebooks } from '../../../src/features/settings';
import { gameAt, playingWith } from '../../fixtures/games';
import { renderWithProviders } from '../../support/render';

const entry = (name: string, more: Partial<LoreEntry> = {}): LoreEntry => ({
  id: name.toLowerCase(),
  name,
  keywords: [name],
  text: `What is true of ${name}.`,
  always: false,
  ...more,
});

let store: AppStore;
afterEach(() => store?.stop());

function renderLorebook(
  lorebook: LoreEntry[] = [],
  { turn = { phase: 'choosing' }, language = 'en' }: { turn?: Turn; language?: Language } = {},
) {
  store = makeStore({
    preloadedState: { game: gameAt(playingWith({ lorebook, chosenGenre: 'Sea Legend' }, turn)) },
  });
  return renderWithProviders(<Lorebook />, { store, language });
}

const lorebookOf = () => store.getState().game.story.lorebook;

async function open(user: ReturnType<typeof renderWithProviders>['user'], label = 'Lorebook') {
  await user.click(screen.getByText(label));
  await screen.findByText(/Write down what the storyteller must not forget|이야기꾼이 잊으면/);
}

test('closed, it names itself and its count only; opened, its words and entries come', async () => {
  const { user } = renderLorebook([entry('Orla')]);
  expect(screen.getByText('Lorebook')).toBeTruthy();
  expect(screen.getByText(/1 entry/)).toBeTruthy();
  expect(screen.queryByText('Orla')).toBeNull();
  await open(user);
  expect(screen.getByText('Orla')).toBeTruthy();
  expect(screen.getByText('Keywords: Orla')).toBeTruthy();
  expect(screen.getByText(/go only to your model provider/)).toBeTruthy();
});

test('an entry is written with a live count, saved, and shown as text, never HTML', async () => {
  const { user, container } = renderLorebook();
  await open(user);
  expect(screen.getByText('No entries yet.')).toBeTruthy();
  await user.click(screen.getByRole('button', { name: 'Add an entry' }));
  // The form opens on its name.
  expect(document.activeElement).toBe(screen.getByRole('textbox', { name: 'Name' }));
  await user.type(screen.getByRole('textbox', { name: 'Name' }), 'The drowned bell');
  await user.type(
    screen.getByRole('textbox', { name: 'Keywords, separated by commas' }),
    'bell, drowned bell',
  );
  const text = screen.getByRole('textbox', { name: 'What the storyteller should know' });
  expect(text).toHaveProperty('maxLength', 500);
  await user.type(text, '<b>Rings</b> at low tide.');
  expect(screen.getByText('25 / 500 characters')).toBeTruthy();
  await user.click(screen.getByRole('checkbox', { name: /Always tell the storyteller/ }));
  expect(screen.getByText(/1 of 3 in use/)).toBeTruthy();
  await user.click(screen.getByRole('button', { name: 'Save entry' }));

  expect(lorebookOf()).toEqual([
    {
      id: expect.any(String),
      name: 'The drowned bell',
      keywords: ['bell', 'drowned bell'],
      text: '<b>Rings</b> at low tide.',
      always: true,
    },
  ]);
  expect(screen.getByText('<b>Rings</b> at low tide.')).toBeTruthy();
  expect(container.querySelector('.lorebook-panel b')).toBeNull();
  expect(screen.getByText('always')).toBeTruthy();
  // Focus lands on the new entry's Edit.
  expect(document.activeElement).toBe(
    screen.getByRole('button', { name: 'Edit The drowned bell' }),
  );
  expect(screen.getByText(/1 entry/)).toBeTruthy();
});

test('an entry without keywords takes its name; one without text says so and stays open', async () => {
  const { user } = renderLorebook();
  await open(user);
  await user.click(screen.getByRole('button', { name: 'Add an entry' }));
  await user.type(screen.getByRole('textbox', { name: 'Name' }), 'Orla');
  await user.click(screen.getByRole('button', { name: 'Save entry' }));
  expect(screen.getByRole('alert').textContent).toBe('Write what the storyteller should know.');
  expect(lorebookOf()).toEqual([]);
  await user.type(
    screen.getByRole('textbox', { name: 'What the storyteller should know' }),
    'The ferryman’s daughter.{Control>}{Enter}{/Control}',
  );
  expect(lorebookOf()).toMatchObject([{ name: 'Orla', keywords: ['Orla'] }]);
});

test('an entry is changed in place; Escape leaves it as it was', async () => {
  const { user } = renderLorebook([entry('Orla'), entry('Tide')]);
  await open(user);
  await user.click(screen.getByRole('button', { name: 'Edit Orla' }));
  expect(screen.getByText('Editing “Orla”')).toBeTruthy();
  const text = screen.getByRole('textbox', { name: 'What the storyteller should know' });
  expect(text).toHaveProperty('value', 'What is true of Orla.');
  await user.clear(text);
  await user.type(text, 'She drowned in turn 6.');
  await user.click(screen.getByRole('button', { name: 'Save entry' }));
  expect(lorebookOf().map((kept) => kept.text)).toEqual([
    'She drowned in turn 6.',
    'What is true of Tide.',
  ]);

  await user.click(screen.getByRole('button', { name: 'Edit Tide' }));
  await user.type(screen.getByRole('textbox', { name: 'Name' }), ' changed');
  await user.keyboard('{Escape}');
  expect(lorebookOf()[1]!.name).toBe('Tide');
  expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Edit Tide' }));
});

test('with three entries always told, a fourth cannot be marked, and the form says why', async () => {
  const always = ['A', 'B', 'C'].map((name) => entry(name, { always: true }));
  const { user } = renderLorebook([...always, entry('D')]);
  await open(user);
  await user.click(screen.getByRole('button', { name: 'Edit D' }));
  const box = screen.getByRole('checkbox', { name: /Always tell the storyteller/ });
  expect(box).toHaveProperty('disabled', true);
  expect(screen.getByText(/All 3 “always” places are taken/)).toBeTruthy();
  await user.click(screen.getByRole('button', { name: 'Cancel' }));
  // One of the three keeps its mark, and may clear it.
  await user.click(screen.getByRole('button', { name: 'Edit A' }));
  const own = screen.getByRole('checkbox', { name: /Always tell the storyteller/ });
  expect(own).toHaveProperty('disabled', false);
  expect(own).toHaveProperty('checked', true);
  expect(screen.getByText(/3 of 3 in use/)).toBeTruthy();
});

test('a removed entry goes at once, and Undo puts it back where it was', async () => {
  const { user } = renderLorebook([entry('Orla'), entry('Tide'), entry('Bell')]);
  await open(user);
  await user.click(screen.getByRole('button', { name: 'Remove Tide' }));
  expect(lorebookOf().map((kept) => kept.name)).toEqual(['Orla', 'Bell']);
  expect(screen.getByRole('status').textContent).toContain('“Tide” removed.');
  const undo = screen.getByRole('button', { name: 'Undo' });
  expect(document.activeElement).toBe(undo);
  await user.click(undo);
  expect(lorebookOf().map((kept) => kept.name)).toEqual(['Orla', 'Tide', 'Bell']);
  expect(screen.queryByRole('button', { name: 'Undo' })).toBeNull();
  expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Edit Tide' }));
});

test('an entry still being written survives closing the panel', async () => {
  const { user } = renderLorebook();
  await open(user);
  await user.click(screen.getByRole('button', { name: 'Add an entry' }));
  await user.type(screen.getByRole('textbox', { name: 'Name' }), 'Half-written');
  await user.click(screen.getByText('Lorebook'));
  await waitFor(() => expect(screen.queryByRole('textbox', { name: 'Name' })).toBeNull());
  await user.click(screen.getByText('Lorebook'));
  expect(await screen.findByRole('textbox', { name: 'Name' })).toHaveProperty(
    'value',
    'Half-written',
  );
  expect(lorebookOf()).toEqual([]);
});

test('kept for the genre, it says so; changed, it offers to keep it instead; forgotten, it is gone', async () => {
  const { user } = renderLorebook([entry('Orla')]);
  await open(user);
  await user.click(
    screen.getByRole('button', { name: 'Start new “Sea Legend” stories with this lorebook' }),
  );
  expect(selectGenreLorebooks(store.getState())['Sea Legend']).toEqual([entry('Orla')]);
  expect(screen.getByText('New “Sea Legend” stories start with this lorebook.')).toBeTruthy();

  await user.click(screen.getByRole('button', { name: 'Remove Orla' }));
  await user.click(screen.getByRole('button', { name: 'Undo' }));
  await user.click(screen.getByRole('button', { name: 'Add an entry' }));
  await user.type(screen.getByRole('textbox', { name: 'Name' }), 'Tide');
  await user.type(
    screen.getByRole('textbox', { name: 'What the storyteller should know' }),
    'It turns twice a day.',
  );
  await user.click(screen.getByRole('button', { name: 'Save entry' }));
  expect(screen.getByText(/start with the lorebook you kept before \(1 entry\)/)).toBeTruthy();
  await user.click(screen.getByRole('button', { name: 'Keep this one instead' }));
  expect(selectGenreLorebooks(store.getState())['Sea Legend']).toHaveLength(2);

  await user.click(screen.getByRole('button', { name: 'Stop keeping it' }));
  expect(selectGenreLorebooks(store.getState())).toEqual({});
  expect(
    screen.getByRole('button', { name: 'Start new “Sea Legend” stories with this lorebook' }),
  ).toBeTruthy();
});

test('while a paragraph is written, the entries are shown and nothing can be changed', async () => {
  const writing: Turn = { phase: 'writing', streamed: '', thinking: false, wait: null };
  const { user } = renderLorebook([entry('Orla')], { turn: writing });
  await open(user);
  expect(screen.getByText('Orla')).toBeTruthy();
  expect(screen.getByText(/while you choose what to do next/)).toBeTruthy();
  const panel = document.querySelector<HTMLElement>('.lorebook-panel')!;
  expect(within(panel).queryByRole('button', { name: /Edit|Remove|Add an entry/ })).toBeNull();
});

test('in Korean', async () => {
  const { user } = renderLorebook([entry('용', { keywords: ['용', '붉은 용'], always: true })], {
    language: 'kr',
  });
  expect(screen.getByText(/항목 1개/)).toBeTruthy();
  await open(user, '설정집');
  expect(screen.getByText('키워드: 용, 붉은 용')).toBeTruthy();
  expect(screen.getByText('항상')).toBeTruthy();
  await user.click(screen.getByRole('button', { name: '항목 추가' }));
  expect(screen.getByRole('textbox', { name: '키워드 (쉼표로 구분)' })).toBeTruthy();
  expect(screen.getByText(/조사가 붙은 낱말에서도/)).toBeTruthy();
  expect(screen.getByText(/3개 중 1개 사용 중/)).toBeTruthy();
});

test('at the name, before the opening, the lorebook is there to write', async () => {
  store = makeStore({
    preloadedState: {
      game: gameAt({ turn: { phase: 'naming' }, story: { chosenGenre: 'Sea Legend' } }),
    },
  });
  const { user } = renderWithProviders(<NameView />, { store });
  await open(user);
  await user.click(screen.getByRole('button', { name: 'Add an entry' }));
  await user.type(screen.getByRole('textbox', { name: 'Name' }), 'The Pale Court');
  await user.type(
    screen.getByRole('textbox', { name: 'What the storyteller should know' }),
    'Rules the drowned city.',
  );
  await user.click(screen.getByRole('checkbox', { name: /Always tell the storyteller/ }));
  await user.click(screen.getByRole('button', { name: 'Save entry' }));
  expect(lorebookOf()).toMatchObject([{ name: 'The Pale Court', always: true }]);
});
