import { SCENARIO_TYPES } from '../../../src/engine/types';
import type { Language, Outcome, ScenarioType } from '../../../src/engine/types';
import { countTokens } from 'gpt-tokenizer';
import {
  GIST_MAX_WORDS,
  LENGTH_GUIDANCE,
  PROMPT_TOKEN_BUDGET,
  REPLY_KEYS,
  STORY_CONTEXT_TOKEN_BUDGET,
  WHOLE_SUMMARIES,
  loadPrompts,
  promptsFor,
  storyContext,
  summaryGist,
} from '../../../src/features/llm/prompts';
import { estimateTokens } from '../../../src/features/llm/tokens';
import type {
  CharacterSketch,
  PromptUse,
  RecapInput,
  TurnInput,
} from '../../../src/features/llm/prompts';

const HANGUL = /[\uac00-\ud7a3]/;

/** Test material in each language: a hero, a ~40-word summary pool and a ~150-word paragraph. */
interface Material {
  character: CharacterSketch;
  genre: string;
  choiceText: string;
  summaries: readonly string[];
  paragraph: string;
}

const MATERIAL: Record<Language, Material> = {
  en: {
    character: {
      name: 'Aria Blackthorn',
      gender: 'female',
      bio: 'Once the royal cartographer of Vell, Aria was disgraced when a map she drew led an army into a drowned valley. She now charts forbidden places for smugglers and pilgrims, chasing the lost river chart that could clear her name. She talks her way out of anything, trusts omens more than people, and hides that she sold her mentor to the crown.',
      traits: ['Reckless', 'Silver-tongued', 'Loyal to a fault', 'Curious', 'Superstitious'],
    },
    genre: 'Gothic mystery on a haunted river',
    choiceText: 'Bribe the ferryman with your last silver coin and cross the black river at dusk',
    summaries: [
      "Aria bribed the ferryman with her last silver coin, crossed the black river at dusk and found the drowned chapel where the cult's ledger lay hidden, but a masked acolyte saw her slip away with it.",
      'Hunted through the reed marshes, Aria traded the ledger for safe passage with the smugglers of Lantern Quay, keeping a single torn page that names the duke as the cult’s secret patron and its paymaster.',
      'At the masked ball Aria charmed the duke’s steward into revealing the crypt beneath the palace, yet her old mentor recognised her across the hall and quietly sent the city guard to follow her.',
      'In the crypt Aria freed a chained prophet who warned that the river itself was dying, then escaped through the flooded tunnels as the guards broke the seals and the water rose behind them.',
    ],
    paragraph:
      'The lantern gutters as you push the chapel door, and the smell of wet stone and old incense rolls out to meet you. Pews lie overturned in the black water that has crept in from the river, and on the altar a ledger bound in cracked red leather waits as if someone meant you to find it. Your fingers are numb, but you open it anyway: names, dates, sums of silver, and at the bottom of each page the same seal of a crowned heron. Somewhere behind you the water shifts. You turn too slowly. A figure in a porcelain mask stands in the doorway, a hooked knife loose in one hand, and does not move. The ferryman’s bell rings once across the river, then again, closer. The acolyte tilts its head, listening, and you realise it is waiting for the bell to stop before it comes for you and the ledger.',
  },
  kr: {
    character: {
      name: '김서윤',
      gender: 'female',
      bio: '한때 벨 왕국의 궁정 지도 제작자였던 서윤은 자신이 그린 지도 때문에 군대가 물에 잠긴 골짜기로 들어갔다는 누명을 쓰고 쫓겨났다. 지금은 밀수꾼과 순례자에게 금지된 땅의 지도를 그려 주며, 이름을 되찾아 줄 잃어버린 강의 지도를 쫓는다. 말로는 누구에게도 지지 않고 사람보다 징조를 더 믿으며, 스승을 왕실에 팔아넘긴 과거를 숨기고 있다.',
      traits: ['무모함', '말솜씨', '지나친 의리', '호기심', '미신을 믿음'],
    },
    genre: '유령이 떠도는 강의 고딕 미스터리',
    choiceText: '마지막 은화로 뱃사공을 매수해 해 질 녘 검은 강을 건넌다',
    summaries: [
      '서윤은 마지막 은화로 뱃사공을 매수해 해 질 녘 검은 강을 건넜고, 물에 잠긴 예배당에서 교단의 장부를 찾아냈다. 그러나 가면을 쓴 신도가 장부를 들고 빠져나가는 그녀를 똑똑히 보았다.',
      '갈대 늪을 가로질러 쫓기던 서윤은 등불 나루의 밀수꾼들에게 장부를 넘기고 안전한 뱃길을 얻었다. 다만 공작이 교단의 숨은 후원자이자 돈줄임을 밝히는 찢어진 한 장만은 몰래 챙겼다.',
      '가면무도회에서 서윤은 공작의 집사를 구슬려 궁궐 아래 지하 묘지의 위치를 알아냈다. 하지만 연회장 건너편의 옛 스승이 그녀를 알아보고 조용히 경비대를 보내 뒤를 밟게 했다.',
      '지하 묘지에서 서윤은 사슬에 묶인 예언자를 풀어 주었고, 강 자체가 죽어 가고 있다는 경고를 들었다. 경비대가 봉인을 부수고 물이 차오르자 그녀는 잠긴 굴을 헤엄쳐 겨우 빠져나왔다.',
    ],
    paragraph:
      '서윤이 예배당 문을 밀자 등불이 흔들렸고, 젖은 돌과 오래된 향냄새가 한꺼번에 밀려 나왔다. 강에서 스며든 검은 물 위로 뒤집힌 의자들이 떠 있었고, 제단 위에는 갈라진 붉은 가죽으로 묶은 장부 한 권이 누군가 일부러 놓아둔 것처럼 기다리고 있었다. 손끝이 얼어붙었지만 그녀는 장부를 펼쳤다. 이름과 날짜, 은화의 액수가 빼곡했고, 모든 장 맨 아래에는 왕관을 쓴 왜가리 문장이 찍혀 있었다. 등 뒤에서 물이 출렁였다. 돌아보는 순간이 너무 늦었다. 도자기 가면을 쓴 형체가 문간에 서서 갈고리 칼을 느슨하게 쥔 채 움직이지 않았다. 강 건너에서 뱃사공의 종이 한 번, 그리고 더 가까이서 또 한 번 울렸다. 신도는 고개를 갸웃하며 귀를 기울였고, 서윤은 그것이 종소리가 멎기를 기다렸다가 자신과 장부를 덮치려 한다는 것을 깨달았다.',
  },
};

/** Turn N of a story: N summaries so far, each ~40 words, and the ~150-word paragraph. */
function summariesAt(language: Language, turnCount: number): string[] {
  const pool = MATERIAL[language].summaries;
  return Array.from({ length: turnCount }, (_, i) => pool[i % pool.length] ?? '');
}

function turnInput(
  language: Language,
  turnCount: number,
  outcome: Outcome = 'partial',
  scenarioType: ScenarioType = 'betrayal',
): TurnInput {
  const { character, genre, choiceText, paragraph } = MATERIAL[language];
  return {
    character,
    genre,
    summaries: summariesAt(language, turnCount),
    previousParagraph: paragraph,
    choice: { text: choiceText, risk: 'high', alignment: 'immoral', traitAlignment: 'Reckless' },
    outcome,
    scenarioType,
    turnCount,
    playerStats: {
      moralScore: -20,
      riskScore: 64,
      traitConsistency: 45,
      creativity: 16,
      successRate: 57,
    },
  };
}

function recapInput(language: Language): RecapInput {
  const { character, genre, paragraph } = MATERIAL[language];
  return {
    character,
    genre,
    summaries: summariesAt(language, 20),
    finalParagraph: paragraph,
    turnCount: 20,
    playerStats: turnInput(language, 20).playerStats,
    moralChoices: ['moral', 'immoral', 'immoral', 'neutral'],
    outcomes: ['success', 'failure', 'partial', 'success'],
  };
}

/** Every use's prompt in one language, built from the material. */
function everyPrompt(language: Language): Record<PromptUse, string> {
  const prompts = promptsFor(language);
  const { character, genre, paragraph, choiceText } = MATERIAL[language];
  return {
    genderFromName: prompts.genderFromName({ name: character.name }),
    characterProfile: prompts.characterProfile({ name: character.name, genre }),
    openingScene: prompts.openingScene({ character, genre }),
    openingSummary: prompts.openingSummary({
      characterName: character.name,
      genre,
      storyStart: paragraph,
    }),
    nextSegment: prompts.nextSegment(turnInput(language, 5)),
    conclusionCheck: prompts.conclusionCheck(turnInput(language, 9)),
    segmentSummary: prompts.segmentSummary({
      characterName: character.name,
      choiceText,
      storySegment: paragraph,
    }),
    recap: prompts.recap(recapInput(language)),
  };
}

const LANGUAGES: readonly Language[] = ['en', 'kr'];

// Korean's prompts are fetched by the first Korean game (English's come with the game's code).
beforeAll(() => loadPrompts('kr'));
const USES = Object.keys(REPLY_KEYS) as PromptUse[];

describe('reply keys', () => {
  it('are the fields SPEC.md section 7 names for each use', () => {
    expect(REPLY_KEYS).toEqual({
      genderFromName: ['gender'],
      characterProfile: [
        'characterQuirks',
        'characterGender',
        'characterBio',
        'characterFacialFeatures',
      ],
      // DESIGN.md, one request per turn: the story replies carry their summary too, and
      // (issue 40) the story sheet's changes.
      openingScene: ['storyStart', 'options', 'newStorySummary', 'sheetChanges'],
      openingSummary: ['newStorySummary'],
      nextSegment: [
        'storySegment',
        'options',
        'storySummary',
        'outcome',
        'scenarioType',
        'sheetChanges',
      ],
      conclusionCheck: ['storySegment', 'options', 'isFinal', 'storySummary', 'sheetChanges'],
      segmentSummary: ['storySummary'],
      recap: [
        'wrapUpParagraph',
        'bigMoment',
        'frequentActivity',
        'characterTraitHighlight',
        'themeExploration',
        'overallScore',
        'scoreBreakdown',
        'endingType',
      ],
    });
  });
});

describe.each(LANGUAGES)('the %s prompts', (language) => {
  let prompts: Record<PromptUse, string>;
  beforeAll(() => {
    prompts = everyPrompt(language);
  });
  const { character, genre, choiceText } = MATERIAL[language];

  it.each(USES)('%s names every reply key, in English', (use) => {
    for (const key of REPLY_KEYS[use]) expect(prompts[use]).toContain(`"${key}"`);
  });

  it.each(USES)('%s asks for one JSON object', (use) => {
    expect(prompts[use]).toMatch(language === 'en' ? /ONE JSON object/ : /JSON 객체 하나/);
  });

  it('come with a system prompt asking for JSON only', () => {
    expect(promptsFor(language).systemPrompt).toMatch(/JSON/);
  });

  it('ask for the option fields, including the scoreBreakdown keys of the recap', () => {
    for (const use of ['openingScene', 'nextSegment', 'conclusionCheck'] as const) {
      for (const key of ['text', 'risk', 'alignment', 'traitAlignment']) {
        expect(prompts[use]).toContain(`"${key}"`);
      }
      expect(prompts[use]).toContain('low|medium|high');
      expect(prompts[use]).toContain('moral|immoral|neutral');
    }
    for (const key of ['decisions', 'consistency', 'creativity', 'morality']) {
      expect(prompts.recap).toContain(`"${key}"`);
    }
  });

  it('include the inputs they are given', () => {
    for (const use of USES) expect(prompts[use]).toContain(character.name);
    for (const use of USES.filter((u) => !['genderFromName', 'segmentSummary'].includes(u))) {
      expect(prompts[use]).toContain(genre);
    }
    for (const use of ['openingScene', 'nextSegment', 'conclusionCheck', 'recap'] as const) {
      expect(prompts[use]).toContain(character.bio);
      for (const trait of character.traits) expect(prompts[use]).toContain(trait);
    }
    expect(prompts.segmentSummary).toContain(choiceText);
    expect(prompts.segmentSummary).toContain(MATERIAL[language].paragraph);
    expect(prompts.openingSummary).toContain(MATERIAL[language].paragraph);
    expect(prompts.recap).toContain(MATERIAL[language].paragraph);
  });

  it('keep the detected gender in the character profile', () => {
    const withGender = promptsFor(language).characterProfile({
      name: character.name,
      genre,
      gender: 'non-binary',
    });
    expect(withGender).toContain(language === 'en' ? 'non-binary' : '논바이너리');
  });

  it.each(['nextSegment', 'conclusionCheck'] as const)(
    '%s states the choice, the rolled outcome, the scenario type, the turn and the scene before',
    (use) => {
      const outcomes: readonly Outcome[] = ['success', 'partial', 'failure'];
      for (const outcome of outcomes) {
        for (const scenarioType of SCENARIO_TYPES) {
          const prompt = promptsFor(language)[use](turnInput(language, 12, outcome, scenarioType));
          expect(prompt).toContain(choiceText);
          expect(prompt).toContain(`"${outcome}"`);
          expect(prompt).toContain(`"${scenarioType}"`);
          expect(prompt).toContain('12');
          expect(prompt).toContain(MATERIAL[language].paragraph);
          expect(prompt).toContain(MATERIAL[language].summaries[3]);
          if (use === 'nextSegment') {
            // The echo the model is told to give back.
            expect(prompt).toContain(`"outcome":"${outcome}","scenarioType":"${scenarioType}"`);
          }
        }
      }
    },
  );

  it('state the length guidance of SPEC.md section 5', () => {
    const L = LENGTH_GUIDANCE;
    const range = (r: { min: number; max: number }) =>
      language === 'en' ? `${r.min}-${r.max}` : `${r.min}~${r.max}`;
    expect(prompts.openingScene).toContain(range(L.storyWords));
    expect(prompts.openingScene).toContain(range(L.openingOptions));
    expect(prompts.openingScene).toContain(range(L.optionWords));
    for (const use of ['nextSegment', 'conclusionCheck'] as const) {
      expect(prompts[use]).toContain(range(L.storyWords));
      expect(prompts[use]).toContain(range(L.turnOptions));
      expect(prompts[use]).toContain(range(L.optionWords));
    }
    expect(prompts.characterProfile).toContain(String(L.bioMaxWords));
    expect(prompts.characterProfile).toContain(String(L.quirks));
    expect(prompts.openingSummary).toContain(String(L.summaryMaxWords));
    expect(prompts.segmentSummary).toContain(String(L.summaryMaxWords));
    expect(prompts.recap).toContain(range({ min: 1, max: 100 }));
    expect(prompts.recap).toContain(range({ min: 0, max: 100 }));
  });

  it('let the conclusion check end the story with no options', () => {
    expect(prompts.conclusionCheck).toMatch(/isFinal\S* true/);
    expect(prompts.conclusionCheck).toContain('[]');
  });
});

describe('the numbers in the guidance', () => {
  it('match SPEC.md sections 5 and 9', () => {
    expect(LENGTH_GUIDANCE).toMatchObject({
      storyWords: { min: 65, max: 200 },
      optionWords: { min: 10, max: 30 },
      openingOptions: { min: 2, max: 4 },
      turnOptions: { min: 3, max: 4 },
      bioMaxWords: 70,
      summaryMaxWords: 40,
      quirks: 5,
      facialFeatures: 5,
    });
  });
});

describe('the English prompts', () => {
  let prompts: Record<PromptUse, string>;
  beforeAll(() => {
    prompts = everyPrompt('en');
  });

  it('name the five ending types', () => {
    for (const ending of [
      'Heroic Victory',
      'Pyrrhic Victory',
      'Antihero Triumph',
      'Tragic Downfall',
      'Bittersweet Resolution',
    ]) {
      expect(prompts.recap).toContain(ending);
    }
  });

  it('are written in English', () => {
    for (const use of USES) expect(prompts[use]).not.toMatch(HANGUL);
  });
});

describe('the Korean prompts', () => {
  let prompts: Record<PromptUse, string>;
  beforeAll(() => {
    prompts = everyPrompt('kr');
  });

  it('are written in Korean and ask for Korean text', () => {
    expect(promptsFor('kr').systemPrompt).toMatch(HANGUL);
    expect(promptsFor('kr').systemPrompt).toContain('한국어');
    for (const use of USES) expect(prompts[use]).toMatch(HANGUL);
    for (const use of USES.filter((u) => u !== 'genderFromName')) {
      expect(prompts[use]).toContain('한국어');
    }
  });

  it('name the five ending types in Korean', () => {
    for (const ending of [
      '영웅적 승리',
      '피로스의 승리',
      '안티히어로의 승리',
      '비극적 몰락',
      '씁쓸한 결말',
    ]) {
      expect(prompts.recap).toContain(ending);
    }
  });

  it('say the rolled outcome in Korean as well', () => {
    const prompt = promptsFor('kr').nextSegment(turnInput('kr', 10, 'failure'));
    expect(prompt).toContain('실패');
  });
});

describe('storyContext', () => {
  const summaries = Array.from({ length: 40 }, (_, i) => `Summary ${i + 1}. What followed.`);
  const cost = (text: string) => estimateTokens(text) + 2;

  it('is oldest first: the newest whole while they take 70% of the budget, then gists', () => {
    const context = storyContext(summaries, 100);
    const whole = context.filter((entry) => !entry.shortened);
    const gists = context.filter((entry) => entry.shortened);
    expect(whole.map((entry) => entry.text)).toEqual(summaries.slice(40 - whole.length));
    expect(whole.reduce((sum, entry) => sum + cost(entry.text), 0)).toBeLessThanOrEqual(70);
    expect(gists.length).toBeGreaterThan(0);
    // The gists come before the whole ones, each the first sentence of its summary.
    expect(context.slice(0, gists.length)).toEqual(gists);
    const first = 40 - context.length + 1;
    expect(gists[0]).toEqual({ text: `Summary ${first}.`, shortened: true });
    expect(context.reduce((sum, entry) => sum + cost(entry.text), 0)).toBeLessThanOrEqual(100);
  });

  it(`carries at most ${WHOLE_SUMMARIES} whole, however large the budget`, () => {
    const context = storyContext(summaries, 10_000);
    expect(context.filter((entry) => !entry.shortened)).toHaveLength(WHOLE_SUMMARIES);
    expect(context).toHaveLength(40);
  });

  it('keeps a short story whole, and nothing at all without a budget', () => {
    const short = storyContext(summaries.slice(0, 3));
    expect(short.map((entry) => entry.text)).toEqual(summaries.slice(0, 3));
    expect(storyContext([])).toEqual([]);
    expect(storyContext(summaries, 0)).toEqual([]);
  });

  it('is what the prompts carry, within its budget by estimate', () => {
    const input = turnInput('en', 40);
    const prompt = promptsFor('en').nextSegment(input);
    expect(prompt).toContain(`- ${input.summaries.at(-1)}\n`);
    const lines = prompt.split('\n').filter((line) => line.startsWith('- '));
    expect(lines.length).toBeLessThan(40);
    const spent = lines.reduce((sum, line) => sum + cost(line.slice(2)), 0);
    expect(spent).toBeLessThanOrEqual(STORY_CONTEXT_TOKEN_BUDGET);
  });

  it('a smaller budget (after a 413) carries less', () => {
    const input = { ...turnInput('en', 40), summaries };
    const full = promptsFor('en').nextSegment(input);
    const trimmed = promptsFor('en').nextSegment({ ...input, contextBudget: 60 });
    const lines = (text: string) => text.split('\n').filter((line) => line.startsWith('- '));
    expect(lines(trimmed).length).toBeLessThan(lines(full).length / 2);
    expect(estimateTokens(trimmed)).toBeLessThan(estimateTokens(full));
    expect(trimmed).toContain('- Summary 40. What followed.\n');
  });
});

describe('summaryGist', () => {
  it('is the first sentence, in English and in Korean', () => {
    expect(summaryGist('Aria crossed the river. The acolyte saw her.')).toBe(
      'Aria crossed the river.',
    );
    expect(summaryGist('  Did Aria lie? Nobody knew.  ')).toBe('Did Aria lie?');
    expect(summaryGist('"Run!" she cried. They ran.')).toBe('"Run!" she cried.');
    expect(summaryGist(MATERIAL.kr.summaries[0]!)).toBe(
      '서윤은 마지막 은화로 뱃사공을 매수해 해 질 녘 검은 강을 건넜고, 물에 잠긴 예배당에서 교단의 장부를 찾아냈다.',
    );
  });

  it(`keeps at most ${GIST_MAX_WORDS} words, cut with an ellipsis`, () => {
    const gist = summaryGist(MATERIAL.en.summaries[0]!);
    expect(gist).toBe(
      `${MATERIAL.en.summaries[0]!.split(' ').slice(0, GIST_MAX_WORDS).join(' ')}...`,
    );
    expect(summaryGist('no full stop at all')).toBe('no full stop at all');
    expect(summaryGist('')).toBe('');
  });
});

/**
 * DESIGN.md, "Free tiers first": a turn is one prompt (the summary rides in its reply), it
 * does not grow with the story (turn 100 within 20% of turn 10), and it stays under 2,200
 * tokens of gpt-oss's tokenizer (o200k, gpt-tokenizer) at turn 200, counted as Groq counts a
 * chat request: each message and its framing.
 */
describe.each(LANGUAGES)('the %s turn prompt does not grow with the story', (language) => {
  type TurnUse = 'nextSegment' | 'conclusionCheck';
  const realTokens = (use: TurnUse, turn: number) => {
    const prompts = promptsFor(language);
    return (
      countTokens(prompts.systemPrompt) + countTokens(prompts[use](turnInput(language, turn))) + 11
    );
  };

  it.each(['nextSegment', 'conclusionCheck'] as const)(
    '%s: turn 100 within 20% of turn 10, and under 2,200 tokens at turn 200',
    (use) => {
      const [at10, at100, at200] = [10, 100, 200].map((turn) => realTokens(use, turn)) as [
        number,
        number,
        number,
      ];
      console.log(`${language} ${use}: ${at10} -> ${at100} -> ${at200} tokens (o200k)`);
      expect(Math.abs(at100 - at10) / at10).toBeLessThanOrEqual(0.2);
      expect(at200).toBeLessThan(2200);
    },
  );

  it.each(['nextSegment', 'conclusionCheck'] as const)(
    '%s: the estimate that trims the context is never under the real count',
    (use) => {
      const prompts = promptsFor(language);
      for (const turn of [1, 10, 100, 200]) {
        const user = prompts[use](turnInput(language, turn));
        const estimate = estimateTokens(prompts.systemPrompt) + estimateTokens(user);
        expect(estimate).toBeGreaterThanOrEqual(countTokens(prompts.systemPrompt + user));
        expect(estimate).toBeLessThanOrEqual(PROMPT_TOKEN_BUDGET);
      }
    },
  );
});
