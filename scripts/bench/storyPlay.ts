/**
 * A whole story played through the game's own saga over the real reducers, against a stand-in
 * model that answers at once, at the lengths the prompts ask for (storyText.ts): the prompts and
 * the request bodies are the product's own. For the benchmarks that count what the client sends
 * (promptSize.ts, freeTier.ts).
 */
import { combineReducers, configureStore } from '@reduxjs/toolkit';
import createSagaMiddleware from 'redux-saga';
import { withDefaults } from '../../src/app/sagaContext';
import { seededRng } from '../../src/engine/random';
import type { Language, Rng } from '../../src/engine/types';
import { gameActions, gameSlice, initialGameState } from '../../src/features/game/gameSlice';
import { gameSaga } from '../../src/features/game/sagas/gameSaga';
import { providerSessionSlice, httpModelClient } from '../../src/features/llm';
import { LENGTH_GUIDANCE } from '../../src/features/llm/prompts';
import { initialSettingsState, settingsSlice } from '../../src/features/settings';
import { storyText } from './storyText';

const HERO = { en: 'Aria Vale', kr: '아리아' } as const;
/** How the played story's sheet fills, for the benches' reports. */
export const SHEET_AS_PLAYED =
  'the model adds three entries a turn from the opening on (notes of 10-20 words): from turn 5 the sheet is fuller than its share of the prompt (SHEET_TOKEN_BUDGET) and is told within it';

const SHEET_NAMES = {
  en: ['Captain of the Watch', 'Silver locket', 'Drowned chapel', 'Oath to the abbess'],
  kr: ['경비대장', '은 목걸이', '가라앉은 예배당', '수녀원장과의 맹세'],
} as const;
const GENRE = { en: 'High Fantasy', kr: '하이 판타지' } as const;

/** A chat completion the client sent, and the turn it was sent in (0: the opening). */
export interface SentRequest {
  body: ChatBody;
  turn: number;
  /** The number of summaries in the game when it was sent. */
  summaries: number;
}

export interface ChatBody {
  model: string;
  messages: { role: string; content: string }[];
  max_tokens?: number;
  max_completion_tokens?: number;
  [field: string]: unknown;
}

/** The reply a model would give to `prompt`, recognised by the JSON shape it asks for. */
function modelReply(prompt: string, language: Language, rng: Rng): Record<string, unknown> {
  const name = HERO[language];
  const text = (
    kind: 'scene' | 'summary' | 'option' | 'bio',
    range: { min: number; max: number },
  ) => storyText(kind, { language, name, minWords: range.min, maxWords: range.max }, rng);
  const L = LENGTH_GUIDANCE;
  // Models write near the top of the ranges they are given; scenes run 120-180 words.
  const scene = () => text('scene', { min: 120, max: 180 });
  const options = () =>
    Array.from({ length: 3 + Math.floor(rng() * 2) }, (_, i) => ({
      text: text('option', L.optionWords),
      risk: (['low', 'medium', 'high'] as const)[i % 3],
      alignment: (['moral', 'neutral', 'immoral'] as const)[Math.floor(rng() * 3)],
      traitAlignment: 'curious',
    }));
  const summary = () => text('summary', { min: L.summaryMaxWords - 10, max: L.summaryMaxWords });
  // The story replies carry their summary when the prompt asks for it (one request a turn).
  const summaryOf = (field: string) =>
    prompt.includes(`"${field}"`) ? { [field]: summary() } : {};
  // Issue 40: a model that keeps the story sheet busy, three entries a turn with notes of
  // 10-20 words, so from the first turns on the sheet is fuller than its budget.
  const kinds = ['person', 'item', 'place', 'thread', 'condition'] as const;
  const sheetOf = () =>
    prompt.includes('"sheetChanges"')
      ? {
          sheetChanges: Array.from({ length: 3 }, () => ({
            op: 'add',
            kind: kinds[Math.floor(rng() * kinds.length)],
            // A name as long as a story's: two or three words.
            name: `${SHEET_NAMES[language][Math.floor(rng() * 4)]} ${Math.floor(rng() * 10_000)}`,
            note: text('summary', { min: 10, max: 20 }),
          })),
        }
      : {};
  if (prompt.includes('{"storySegment"')) {
    return {
      storySegment: scene(),
      options: options(),
      isFinal: false,
      ...summaryOf('storySummary'),
      ...sheetOf(),
    };
  }
  if (prompt.includes('{"storySummary"')) return { storySummary: summary() };
  if (prompt.includes('{"newStorySummary"')) return { newStorySummary: summary() };
  if (prompt.includes('{"storyStart"')) {
    return {
      storyStart: scene(),
      options: options(),
      ...summaryOf('newStorySummary'),
      ...sheetOf(),
    };
  }
  if (prompt.includes('{"characterQuirks"')) {
    return {
      characterQuirks: ['curious', 'stubborn', 'kind', 'reckless', 'witty'],
      characterGender: 'female',
      characterBio: text('bio', { min: L.bioMaxWords - 15, max: L.bioMaxWords }),
      characterFacialFeatures: [
        'grey eyes',
        'a scar on the chin',
        'freckles',
        'sharp nose',
        'dark brows',
      ],
    };
  }
  if (prompt.includes('{"gender"')) return { gender: 'female' };
  throw new Error(`The stand-in model does not know this prompt:\n${prompt.slice(-300)}`);
}

/**
 * Plays one story of `turns` turns through the game's saga, with the provider settings given
 * (the settings' defaults when none), and returns every chat completion the client sent.
 */
export async function playStory(
  language: Language,
  turns: number,
  provider: { provider?: string; model?: string } = {},
): Promise<SentRequest[]> {
  const rng = seededRng(language === 'en' ? 5 : 6);
  const sent: SentRequest[] = [];
  let turn = 0;
  const reducer = combineReducers({
    settings: settingsSlice.reducer,
    providerSession: providerSessionSlice.reducer,
    game: gameSlice.reducer,
    wallet: (state = { status: 'verified', address: '0x1' }) => state,
  });
  // The stand-in provider: answers every chat completion at once, as one JSON reply.
  const fetchImpl: typeof fetch = async (_url, init) => {
    const body = JSON.parse(String(init?.body)) as ChatBody;
    const user = body.messages.find((message) => message.role === 'user')?.content ?? '';
    sent.push({ body, turn, summaries: store.getState().game.story.storySummary.length });
    const content = JSON.stringify(modelReply(user, language, rng));
    return new Response(JSON.stringify({ choices: [{ message: { content } }] }), {
      headers: { 'Content-Type': 'application/json' },
    });
  };
  const sagas = createSagaMiddleware({
    // The page's clock and the rest as a store made without them has them (the app's defaults).
    context: withDefaults({ model: httpModelClient(fetchImpl), random: seededRng(7) }),
  });
  const store = configureStore({
    reducer,
    preloadedState: {
      settings: { ...initialSettingsState, ...provider, language },
      game: {
        ...initialGameState,
        apiKey: 'bench-key-0123456789',
        turn: { phase: 'naming' as const },
        story: { ...initialGameState.story, chosenGenre: GENRE[language], chosenImage: 7 },
      },
    },
    middleware: (getDefault) =>
      getDefault({ serializableCheck: false, immutableCheck: false }).concat(sagas),
  });
  const task = sagas.run(gameSaga);

  /** Resolves once the game has finished what it was doing (the opening, a turn). */
  const settled = () =>
    new Promise<void>((resolve, reject) => {
      const check = () => {
        const { turn } = store.getState().game;
        if (turn.phase === 'failed' || turn.phase === 'openingFailed') {
          reject(new Error(`The game failed: ${turn.phase} ${JSON.stringify(turn.problem)}`));
        } else if (turn.phase === 'choosing' || turn.phase === 'ended') resolve();
        else return false;
        return true;
      };
      if (check()) return;
      const unsubscribe = store.subscribe(() => {
        if (check()) unsubscribe();
      });
    });

  try {
    store.dispatch(gameActions.characterNamed(HERO[language]));
    await settled();
    for (turn = 1; turn <= turns; turn += 1) {
      const { options } = store.getState().game.story;
      store.dispatch(gameActions.choiceMade({ index: Math.floor(rng() * options.length) }));
      await settled();
    }
  } finally {
    task.cancel();
  }
  return sent;
}
