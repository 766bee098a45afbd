/** The interface words the browser journeys use, as a player sees them in each language. */
export type Lang = 'en' | 'kr';

/** Words on the screens the journeys press or read, in English and Korean. */
export const WORDS = {
  connect: ['Connect Wallet', '지갑 연결'],
  provider: ['Provider', '제공자'],
  baseUrl: ['Base URL', '기본 URL'],
  model: ['Model', '모델'],
  apiKey: ['API key', 'API 키'],
  submit: ['Submit', '제출'],
  invalidKey: ['Invalid API key. Please check and try again.', '유효하지 않은 API 키입니다.'],
  startNewGame: ['Start New Game', '새 게임 시작'],
  submitGenre: ['Submit Genre', '장르 제출'],
  portrait5: ['Portrait 5', '초상화 5'],
  chooseMe: ['Choose me', '이 캐릭터로 할래요'],
  random: ['Random', '무작위'],
  showDetails: ['Show Details', '세부 정보 보기'],
  hideDetails: ['Hide Details', '세부 정보 숨기기'],
  choiceLabel: ['Enter your choice', '선택을 입력하세요'],
  ending: ['Adventure Complete', '모험 완료'],
  bigMoment: ['Most Epic Moment', '가장 장엄한 순간'],
  activity: ['Signature Move', '대표 행동'],
  trait: ['Character Trait', '캐릭터 특성'],
  theme: ['Theme Song', '테마곡'],
  save: ['Save Adventure Results', '모험 결과 저장'],
  saved: ['Adventure results saved!', '모험 결과를 저장했습니다!'],
  localDeleted: ["This story's local save was deleted", '로컬 저장 데이터'],
  leaderboard: ['Leaderboard', '리더보드'],
  profile: ['Profile', '프로필'],
  totalGames: ['Total Games', '총 게임 수'],
} as const;

export type Word = keyof typeof WORDS;

/** The word in the journey's language. */
export const say = (lang: Lang, word: Word): string => WORDS[word][lang === 'en' ? 0 : 1];
