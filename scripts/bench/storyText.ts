/**
 * Text that reads like what a model writes for Taleweaver, at the lengths the prompts ask for
 * (SPEC.md section 5), so that a prompt built from it tokenizes like a real one: random
 * dictionary words would cost a tokenizer far more tokens than prose does. English scenes are
 * second person, present tense (prompts/en.ts); Korean scenes third person (prompts/kr.ts);
 * summaries third person, past tense, in both.
 */
import type { Language, Rng } from '../../src/engine/types';

interface Bank {
  scene: readonly string[];
  summary: readonly string[];
  option: readonly string[];
  bio: readonly string[];
}

const EN: Bank = {
  scene: [
    'Rain hammers the slate roofs of the harbour town as you press your back against the cold wall of the customs house.',
    'Somewhere below, a bell tolls twice, and the smugglers you followed from the market stop to listen.',
    'The lantern in your hand gutters, throwing long shadows across the carved faces on the archway.',
    'You taste salt and iron on the wind, the smell of a storm that has not yet decided where to break.',
    'Your fingers find the torn map in your coat, its inked roads running off the edge of the known world.',
    'A figure in a grey cloak steps out of the alley, one hand raised, the other hidden beneath the fabric.',
    'The old bridge groans under your weight, and far beneath it the river churns white around the broken pylons.',
    'Torchlight flickers in the window of the watchtower, though the garrison was said to have left a year ago.',
    'The merchant counts your coins twice, smiles without warmth, and slides a brass key across the counter.',
    'Every instinct tells you to run, but the child in the doorway is staring at you with wide, pleading eyes.',
    'Your companion mutters a curse and draws her blade as the doors of the chapel swing open on their own.',
    'The forest falls silent all at once, as if every bird has been told a secret it dares not repeat.',
    'Cold water seeps into your boots while you wade along the flooded tunnel, counting the iron rungs overhead.',
    'A letter sealed with black wax waits on your pillow, and the handwriting on it is unmistakably your own.',
    'The crowd in the square parts for the magistrate, whose eyes settle on you with unsettling recognition.',
    'You remember the warning the ferryman gave you, and for the first time you wonder whether he was lying.',
    'The stairs spiral down into darkness, each step worn smooth by centuries of careful, frightened feet.',
    'Embers drift from the burning granary, and the villagers look to you as though you could stop the fire.',
    'Somewhere behind the tapestry a mechanism clicks, and a breath of stale air brushes against your face.',
    'The stranger laughs, a dry sound like pages turning, and tells you the price has already been paid.',
    'Your horse shies at the edge of the ravine, refusing to go further no matter how gently you urge it.',
    'The ink on the contract is still wet, and the name written at the bottom is not the one you agreed to.',
    'Moonlight spills across the courtyard, silvering the statues of the seven kings who once ruled this valley.',
    'A distant horn answers the first, closer now, and the ground beneath you trembles with approaching hooves.',
  ],
  summary: [
    '{name} slipped past the harbour guards and found the smugglers meeting in the old customs house.',
    'A cloaked stranger offered {name} a brass key in exchange for a favour yet to be named.',
    '{name} crossed the failing bridge and reached the abandoned watchtower, where a light still burned.',
    'The merchant cheated {name}, but the stolen map revealed a road beyond the northern mountains.',
    '{name} chose to save the child rather than chase the thief, and lost the trail in the rain.',
    'Inside the chapel, {name} learned that the magistrate had sold the valley to a foreign power.',
    'A letter in {name}\u2019s own handwriting warned of a betrayal still to come.',
    '{name} and the swordswoman fought off the hounds but were forced to abandon their supplies.',
    'The ferryman\u2019s warning proved true when the tunnel flooded behind {name}.',
    '{name} set fire to the granary to hide the escape, angering the villagers who had helped.',
    'The stranger revealed that the debt of {name}\u2019s family would be collected at the winter solstice.',
    '{name} refused the bribe and made an enemy of the most powerful guild in the city.',
  ],
  option: [
    'Slip into the crowd and follow the magistrate to see where she goes after dark.',
    'Confront the stranger directly and demand to know who sent the letter to your room.',
    'Bargain with the merchant, offering the map in exchange for safe passage north.',
    'Climb the crumbling wall of the watchtower and look for another way inside.',
    'Stay with the frightened villagers and help them carry water to the burning granary.',
    'Burn the contract before anyone else can read the name written at its bottom.',
    'Follow the sound of the horn into the forest, keeping low and out of sight.',
    'Wake your companion and tell her everything you have hidden since the harbour.',
  ],
  bio: [
    '{name} grew up in the shadow of a lighthouse, the child of a keeper who vanished at sea.',
    'Trained as a cartographer, {name} maps roads that others swear do not exist.',
    '{name} is driven by a promise made to a dying friend and haunted by a debt that was never repaid.',
    'Quick with a joke and slow to trust, {name} hides a stolen seal that could topple a throne.',
    'Those who travel with {name} learn to admire the courage and fear the temper.',
  ],
};

const KR: Bank = {
  scene: [
    '항구 마을의 지붕 위로 빗줄기가 거세게 쏟아지고, {name}은 세관 건물의 차가운 벽에 등을 붙였다.',
    '멀리서 종이 두 번 울리자 시장에서부터 뒤쫓아 온 밀수꾼들이 걸음을 멈추고 귀를 기울였다.',
    '손에 든 등불이 흔들리며 아치에 새겨진 얼굴들 위로 길고 일그러진 그림자를 드리웠다.',
    '바람에 소금과 쇠 냄새가 섞여 있었다. 아직 어디서 터질지 정하지 못한 폭풍의 냄새였다.',
    '{name}은 외투 안에서 찢어진 지도를 꺼냈다. 잉크로 그린 길들이 알려진 세상의 끝을 넘어 이어져 있었다.',
    '회색 망토를 두른 사람이 골목에서 걸어 나왔다. 한 손은 들고 있었지만 다른 손은 천 아래 숨겨져 있었다.',
    '낡은 다리가 발밑에서 신음했고, 한참 아래에서는 부서진 교각을 감싼 강물이 하얗게 소용돌이쳤다.',
    '일 년 전에 수비대가 떠났다던 망루의 창문에서 횃불이 깜박이고 있었다.',
    '상인은 동전을 두 번 세더니 차가운 미소를 지으며 놋쇠 열쇠를 계산대 너머로 밀어 주었다.',
    '당장 도망치라고 온몸이 외쳤지만, 문간에 선 아이가 애원하는 눈빛으로 {name}을 바라보고 있었다.',
    '동료가 낮게 욕을 내뱉으며 칼을 뽑았다. 예배당의 문이 저절로 열리고 있었다.',
    '숲이 한순간에 조용해졌다. 마치 모든 새가 입에 담아서는 안 될 비밀을 들은 것 같았다.',
    '물에 잠긴 터널을 헤치고 나아가는 동안 차가운 물이 장화 속으로 스며들었다.',
    '검은 밀랍으로 봉한 편지가 베개 위에 놓여 있었고, 겉봉의 글씨는 틀림없이 {name} 자신의 것이었다.',
    '광장의 군중이 치안관에게 길을 비켜 주었고, 그녀의 시선이 불안할 만큼 익숙하다는 듯 {name}에게 머물렀다.',
    '나룻배 사공의 경고가 떠올랐다. {name}은 처음으로 그가 거짓말을 했을지도 모른다고 생각했다.',
    '나선 계단은 어둠 속으로 이어졌고, 계단 하나하나가 수백 년 동안 조심스러운 발걸음에 닳아 매끄러웠다.',
    '불타는 곡물 창고에서 불씨가 날아올랐고, 마을 사람들은 {name}이 불을 끌 수 있기라도 한 듯 바라보았다.',
    '태피스트리 뒤에서 무언가 딸깍 소리를 냈고, 오래된 공기가 얼굴을 스치고 지나갔다.',
    '낯선 이는 책장을 넘기는 듯한 메마른 웃음을 흘리며 값은 이미 치러졌다고 말했다.',
  ],
  summary: [
    '{name}은 항구의 경비를 피해 옛 세관 건물에서 밀수꾼들의 모임을 찾아냈다.',
    '망토를 두른 낯선 이가 아직 정해지지 않은 부탁의 대가로 {name}에게 놋쇠 열쇠를 건넸다.',
    '{name}은 무너져 가는 다리를 건너 아직 불이 켜진 버려진 망루에 도착했다.',
    '상인은 {name}을 속였지만 훔친 지도는 북쪽 산맥 너머의 길을 보여 주었다.',
    '{name}은 도둑을 쫓는 대신 아이를 구했고 빗속에서 흔적을 놓쳤다.',
    '예배당 안에서 {name}은 치안관이 골짜기를 외세에 팔아넘겼다는 사실을 알게 되었다.',
    '{name} 자신의 글씨로 쓰인 편지가 다가올 배신을 경고했다.',
    '{name}과 여검사는 사냥개들을 물리쳤지만 보급품을 버려야 했다.',
    '터널이 물에 잠기면서 나룻배 사공의 경고가 사실로 드러났다.',
    '{name}은 탈출을 숨기려고 곡물 창고에 불을 질러 도와준 마을 사람들의 분노를 샀다.',
  ],
  option: [
    '군중 속으로 섞여 들어가 해가 진 뒤 치안관이 어디로 가는지 뒤쫓는다.',
    '낯선 이에게 곧장 다가가 방에 편지를 보낸 사람이 누구인지 따져 묻는다.',
    '북쪽으로 가는 안전한 길을 얻기 위해 상인에게 지도를 내밀고 흥정한다.',
    '무너져 가는 망루 벽을 타고 올라가 안으로 들어갈 다른 길을 찾는다.',
    '겁에 질린 마을 사람들 곁에 남아 불타는 창고로 물을 나르는 것을 돕는다.',
    '다른 누구도 읽기 전에 계약서 아래에 적힌 이름과 함께 계약서를 불태운다.',
  ],
  bio: [
    '{name}은 등대의 그늘 아래에서 자랐고, 아버지는 바다에서 사라진 등대지기였다.',
    '지도 제작자로 훈련받은 {name}은 남들이 존재하지 않는다고 맹세하는 길을 지도에 그린다.',
    '{name}은 죽어 가는 친구와의 약속에 이끌리고, 끝내 갚지 못한 빚에 시달린다.',
    '농담은 빠르지만 믿음은 더딘 {name}은 왕좌를 무너뜨릴 수 있는 훔친 인장을 숨기고 있다.',
  ],
};

const BANKS: Readonly<Record<Language, Bank>> = { en: EN, kr: KR };

export type TextKind = keyof Bank;

const wordCount = (text: string) => text.split(/\s+/).filter(Boolean).length;

/**
 * Sentences of `kind` picked at random, in the story's language, until the text has at least
 * `minWords` words; sentences that would take it past `maxWords` are skipped. Names the hero.
 */
export function storyText(
  kind: TextKind,
  {
    language,
    name,
    minWords,
    maxWords,
  }: { language: Language; name: string; minWords: number; maxWords: number },
  rng: Rng,
): string {
  const bank = BANKS[language][kind];
  // Sentences drawn at random until the text is long enough; a draw that has left no room for
  // any sentence that fits starts again, so a long text cannot get stuck just short.
  for (let attempt = 0; attempt < 50; attempt += 1) {
    const sentences: string[] = [];
    let words = 0;
    for (let tries = 0; words < minWords && tries < 200; tries += 1) {
      const sentence = bank[Math.floor(rng() * bank.length)]!.replaceAll('{name}', name);
      const more = wordCount(sentence);
      if (words + more > maxWords) continue;
      sentences.push(sentence);
      words += more;
    }
    if (words >= minWords) return sentences.join(' ');
  }
  throw new Error(
    `No ${kind} text of ${minWords}-${maxWords} words from the ${language} sentences`,
  );
}

export { wordCount };
