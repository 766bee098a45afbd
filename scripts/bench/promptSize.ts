/**
 * Budget 5, prompt size per turn: the prompt of turn 100 at most 1.2x that of turn 10, in
 * tokens of a real tokenizer (gpt-tokenizer, o200k_base). The prompts are the product's own:
 * a whole story is played through the game's saga over the real reducers, in each interface
 * language, against a stand-in model that answers at the lengths the prompts ask for
 * (storyText.ts), and the request the client sends at turn 10 and at turn 100 is counted,
 * system message and user message.
 */
import { combineReducers, configureStore } from '@reduxjs/toolkit';
import { countTokens } from 'gpt-tokenizer';
import createSagaMiddleware from 'redux-saga';
import { seededRng } from '../../src/engine/random';
import type { Language, Rng } from '../../src/engine/types';
import { gameActions, gameSlice, initialGameState } from '../../src/features/game/gameSlice';
import { playerStatsSlice } from '../../src/features/game/playerStatsSlice';
import { gameSaga } from '../../src/features/game/sagas/gameSaga';
import { providerSessionSlice } from '../../src/features/llm';
import { LENGTH_GUIDANCE } from '../../src/features/llm/prompts';
import { initialSettingsState, settingsSlice } from '../../src/features/settings';
import { times, type Benchmark, type BudgetResult } from './budget';
import { storyText, wordCount } from './storyText';

const EARLY_TURN = 10;
const LATE_TURN = 100;
const LIMIT = 1.2;
const HERO = { en: 'Aria Vale', kr: '아리아' } as const;
const GENRE = { en: 'High Fantasy', kr: '하이 판타지' } as const;

/** What the client sent for one turn's story segment. */
interface SentPrompt {
  system: string;
  user: string;
  /** The number of summaries in the game when the prompt was sent. */
  summaries: number;
}

interface ChatBody {
  messages: { role: string; content: string }[];
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
  if (prompt.includes('{"storySegment"')) {
    return { storySegment: scene(), options: options(), isFinal: false };
  }
  if (prompt.includes('{"storySummary"')) return { storySummary: summary() };
  if (prompt.includes('{"newStorySummary"')) return { newStorySummary: summary() };
  if (prompt.includes('{"storyStart"')) return { storyStart: scene(), options: options() };
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
 * Plays one story of `turns` turns through the game's saga and returns the segment prompt the
 * client sent at each turn, by turn number.
 */
async function playStory(language: Language, turns: number): Promise<Map<number, SentPrompt>> {
  const rng = seededRng(language === 'en' ? 5 : 6);
  const sent = new Map<number, SentPrompt>();
  const reducer = combineReducers({
    settings: settingsSlice.reducer,
    providerSession: providerSessionSlice.reducer,
    game: gameSlice.reducer,
    playerStats: playerStatsSlice.reducer,
    wallet: (state = { status: 'verified', address: '0x1' }) => state,
  });
  // The stand-in provider: answers every chat completion at once, as one JSON reply.
  const fetchImpl: typeof fetch = async (_url, init) => {
    const body = JSON.parse(String(init?.body)) as ChatBody;
    const system = body.messages.find((message) => message.role === 'system')?.content ?? '';
    const user = body.messages.find((message) => message.role === 'user')?.content ?? '';
    const { game } = store.getState();
    if (user.includes('{"storySegment"')) {
      sent.set(game.turnCount, { system, user, summaries: game.storySummary.length });
    }
    const content = JSON.stringify(modelReply(user, language, rng));
    return new Response(JSON.stringify({ choices: [{ message: { content } }] }), {
      headers: { 'Content-Type': 'application/json' },
    });
  };
  const sagas = createSagaMiddleware({ context: { fetch: fetchImpl, rng: seededRng(7) } });
  const store = configureStore({
    reducer,
    preloadedState: {
      settings: { ...initialSettingsState, language },
      game: {
        ...initialGameState,
        apiKey: 'bench-key-0123456789',
        stage: 'characterSelection',
        chosenGenre: GENRE[language],
        chosenImage: 7,
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
        const { game } = store.getState();
        if (game.error) reject(new Error(`The game failed: ${game.error}`));
        else if (!game.isLoading) resolve();
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
    for (let turn = 1; turn <= turns; turn += 1) {
      const { options } = store.getState().game;
      store.dispatch(gameActions.choiceMade({ index: Math.floor(rng() * options.length) }));
      await settled();
    }
  } finally {
    task.cancel();
  }
  return sent;
}

const tokensOf = (prompt: SentPrompt) => countTokens(prompt.system) + countTokens(prompt.user);

const benchmark: Benchmark = {
  name: 'promptSize',
  async run(): Promise<BudgetResult[]> {
    const details: Record<string, string> = {
      tokenizer: 'gpt-tokenizer o200k_base, system + user message',
      prompt: 'the turn prompt (from turn 7 the conclusion check), as the client sends it',
    };
    const ratios: string[] = [];
    let pass = true;
    for (const language of ['en', 'kr'] as const) {
      const sent = await playStory(language, LATE_TURN);
      const early = sent.get(EARLY_TURN);
      const late = sent.get(LATE_TURN);
      if (!early || !late)
        throw new Error(`No turn prompt recorded at turn 10 or 100 (${language})`);
      const ratio = tokensOf(late) / tokensOf(early);
      pass &&= ratio <= LIMIT;
      ratios.push(`${times(ratio)} (${language})`);
      for (const [turn, prompt] of [
        [EARLY_TURN, early],
        [LATE_TURN, late],
      ] as const) {
        details[`${language} turn ${turn}`] =
          `${tokensOf(prompt)} tokens, ${wordCount(prompt.system + ' ' + prompt.user)} words, ` +
          `${prompt.summaries} summaries in the game`;
      }
      const largest = Math.max(...[...sent.values()].map(tokensOf));
      details[`${language} largest turn prompt, turns 1-100`] = `${largest} tokens`;
    }
    return [
      {
        budget: '5. Prompt size per turn',
        limit: `turn ${LATE_TURN} ≤ ${LIMIT}x turn ${EARLY_TURN}`,
        measured: ratios.join(', '),
        pass,
        details,
      },
    ];
  },
};

export default benchmark;
