import { useEffect, type ReactNode } from 'react';
import { useAppDispatch, useAppSelector } from '../../shared/hooks';
import { selectLanguage } from '../settings';
import { selectGameStage } from './turn/gameSelectors';
import { useLanguageWords } from './languageWords';
import { gameActions, type GameStage } from './gameSlice';
import { ApiKeyView } from './views/ApiKeyView';
import type { GameResult } from './gameModel';
import type { PictureSlot } from './views/StoryLog';
import { EndingView } from './views/EndingView';
import { GenreView } from './views/GenreView';
import { LoadOrCreateView } from './views/LoadOrCreateView';
import { LoadingView } from './views/LoadingView';
import { NameView } from './views/NameView';
import { PlayingView } from './views/PlayingView';
import { PortraitView } from './views/PortraitView';

/**
 * What other features put into the game's views. The game knows neither the saved stories nor
 * the leaderboard; the app passes their parts in (src/app/GameRoute.tsx), and without them the
 * views stand alone.
 */
export interface GameSlots {
  /** Load-or-create: the saved-stories list. */
  savedStories?: ReactNode;
  /** Load-or-create: Start New Game (which may first offer an unfinished story). */
  startNewGame?: ReactNode;
  /** Playing: the save button. */
  saveGame?: ReactNode;
  /** Ending: Save Adventure Results, for the game's result. */
  saveResult?: (result: GameResult) => ReactNode;
  /** Ending: a note under Save Adventure Results. */
  resultNote?: ReactNode;
  /** Ending: Publish, for the story just finished. */
  publishStory?: ReactNode;
  /** Naming and playing: whether this story is illustrated (issue 41), where it can be. */
  illustrate?: ReactNode;
  /** Playing and ending: the picture of a paragraph of the story, or of its ending. */
  pictureAt?: PictureSlot;
}

/** SPEC.md section 2: /game shows one view, chosen by the game's stage. */
const VIEWS: Record<GameStage, (slots: GameSlots) => React.JSX.Element | null> = {
  apiKeyInput: ApiKeyView,
  loadOrCreate: LoadOrCreateView,
  genreSelection: GenreView,
  characterImageSelection: PortraitView,
  characterSelection: NameView,
  loading: LoadingView,
  playing: PlayingView,
  endingScreen: EndingView,
};

export function GamePage(slots: GameSlots) {
  const stage = useAppSelector(selectGameStage);
  const dispatch = useAppDispatch();
  // Leaving the game stops any wait for the model (DESIGN.md: waits are cancellable).
  useEffect(() => () => void dispatch(gameActions.waitCancelled()), [dispatch]);
  // The genre and name screens' words, fetched as the game opens rather than when they show.
  useLanguageWords(useAppSelector(selectLanguage));
  const View = VIEWS[stage];
  return (
    <div className={`game game--${stage}`}>
      <View {...slots} />
    </div>
  );
}
