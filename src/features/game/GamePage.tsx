import { useEffect } from 'react';
import { useDispatch, useSelector } from 'react-redux';
import { gameActions, type GameStage, type GameState } from './gameSlice';
import { ApiKeyView } from './views/ApiKeyView';
import { EndingView } from './views/EndingView';
import { GenreView } from './views/GenreView';
import { LoadOrCreateView } from './views/LoadOrCreateView';
import { LoadingView } from './views/LoadingView';
import { NameView } from './views/NameView';
import { PlayingView } from './views/PlayingView';
import { PortraitView } from './views/PortraitView';

/** SPEC.md section 2: /game shows one view, chosen by the game's stage. */
const VIEWS: Record<GameStage, () => React.JSX.Element | null> = {
  apiKeyInput: ApiKeyView,
  loadOrCreate: LoadOrCreateView,
  genreSelection: GenreView,
  characterImageSelection: PortraitView,
  characterSelection: NameView,
  loading: LoadingView,
  playing: PlayingView,
  endingScreen: EndingView,
};

export function GamePage() {
  const stage = useSelector((state: { game: GameState }) => state.game.stage);
  const dispatch = useDispatch();
  // Leaving the game stops any wait for the model (DESIGN.md: waits are cancellable).
  useEffect(() => () => void dispatch(gameActions.waitCancelled()), [dispatch]);
  const View = VIEWS[stage];
  return (
    <div className={`game game--${stage}`}>
      <View />
    </div>
  );
}
