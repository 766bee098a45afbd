import { useEffect, useMemo, useRef, type ReactNode } from 'react';
import { FormattedMessage } from 'react-intl';
import { shallowEqual } from 'react-redux';
import { useAppDispatch, useAppSelector } from '../../../shared/hooks';
import { selectAutoRead, selectLanguage } from '../../settings';
import {
  gameActions,
  selectGame,
  selectIsWriting,
  type GameState,
  type StoryEntry,
} from '../gameSlice';
import { canChoose } from '../turn/gameSelectors';
import { canStop } from '../turn/turnRules';
import { AutoReadToggle } from './AutoReadToggle';
import { CharacterPanel } from './CharacterPanel';
import { focusWasLost } from './focus';
import { ChoiceForm } from './ChoiceForm';
import { LoadingOverlay } from './LoadingOverlay';
import { Lorebook } from './Lorebook';
import { OPTION_KEYS, OptionList } from './OptionList';
import { useReadAloud } from './readAloud';
import { StoryLog, latestParagraphIn, type PictureSlot } from './StoryLog';
import { StoryMemory } from './StoryMemory';
import { StorySheet } from './StorySheet';
import { TurnError } from './TurnError';
import { TurnTools } from './TurnTools';
import { paragraphsIn, useAutoRead } from './useAutoRead';
import './play.css';

export interface PlayingViewProps {
  /**
   * The save button (SPEC.md section 4, Saving: 'A manual save button also exists'). Saving is
   * the stories feature's: it passes its button in, and without one none is shown.
   */
  saveGame?: ReactNode;
  /** Whether this story is illustrated (issue 41): the pictures feature's choice. */
  illustrate?: ReactNode;
  /** The pictures under the story's paragraphs (issue 41). */
  pictureAt?: PictureSlot;
}

/**
 * What the screen shows, all but the paragraph being written (the story log's own): so a
 * streamed frame, which changes only that paragraph, renders nothing here. Arrays are the
 * store's own, so an unchanged log or option list is the same reference.
 */
function selectPlayingScreen(state: { game: GameState }) {
  const game = selectGame(state);
  const { story, turn } = game;
  const writing = turn.phase === 'writing' || turn.phase === 'concluding' ? turn : null;
  return {
    storyLog: story.storyLog,
    options: story.options,
    isLoading: writing !== null,
    isFinal: story.isFinal,
    thinking: writing?.thinking ?? false,
    writing: selectIsWriting(state),
    wait: writing?.wait ?? null,
    failed: turn.phase === 'failed',
    problem: turn.phase === 'failed' ? turn.problem : null,
    turnCount: story.turnCount,
    chosenGenre: story.chosenGenre,
    chosenCharacter: story.chosenCharacter,
    chosenImage: story.chosenImage,
    characterTraits: story.characterTraits,
    characterBio: story.characterBio,
    // After a failed turn, Try again is the way on (not a new choice).
    choosing: canChoose(game),
    stoppable: canStop(game),
  };
}

/** SPEC.md section 2, view 7: the story, the choices, and the character beside them. */
export function PlayingView({ saveGame, illustrate, pictureAt }: PlayingViewProps = {}) {
  const dispatch = useAppDispatch();
  const game = useAppSelector(selectPlayingScreen, shallowEqual);
  const { options, isLoading, isFinal, storyLog, choosing } = game;
  const showOptions = choosing && options.length > 0;

  const logRef = useRef<HTMLDivElement>(null);
  const firstOptionRef = useRef<HTMLButtonElement>(null);

  // Read aloud: one reader for the screen; a new paragraph is read when asked to.
  const { available, speakingKey, speak, stop } = useReadAloud(useAppSelector(selectLanguage));
  const reader = useMemo(() => ({ available, speak, stop }), [available, speak, stop]);
  const paragraphs = useMemo(() => paragraphsIn(storyLog), [storyLog]);
  useAutoRead(paragraphs, useAppSelector(selectAutoRead), reader);
  // A paragraph written again or edited while it is read: the reading of the old one stops.
  const reading = useRef<{ key: string; entry: StoryEntry | undefined } | null>(null);
  useEffect(() => {
    if (speakingKey === null) {
      reading.current = null;
      return;
    }
    const entry = storyLog[Number(speakingKey)];
    if (reading.current?.key !== speakingKey) reading.current = { key: speakingKey, entry };
    else if (reading.current.entry !== entry) stop();
  }, [speakingKey, storyLog, stop]);

  // Number keys pick an option, unless the player is typing.
  useEffect(() => {
    if (!showOptions) return;
    function pickByNumber(event: KeyboardEvent) {
      if (event.defaultPrevented || event.repeat) return;
      if (event.altKey || event.ctrlKey || event.metaKey) return;
      if (isTextField(event.target)) return;
      const index = Number(event.key) - 1;
      if (!Number.isInteger(index) || index < 0 || index >= Math.min(OPTION_KEYS, options.length)) {
        return;
      }
      event.preventDefault();
      dispatch(gameActions.choiceMade({ index }));
    }
    document.addEventListener('keydown', pickByNumber);
    return () => document.removeEventListener('keydown', pickByNumber);
  }, [dispatch, showOptions, options.length]);

  // After each turn: the new paragraph is scrolled to the top, and focus, if the chosen
  // option took it away, lands on the first new option (the paragraph itself is announced by
  // the log). A player typing in the free-text field keeps their place.
  useEffect(() => {
    if (!showOptions) return;
    latestParagraphIn(logRef.current)?.scrollIntoView?.({
      block: 'start',
      behavior: prefersReducedMotion() ? 'auto' : 'smooth',
    });
    if (focusWasLost()) firstOptionRef.current?.focus({ preventScroll: true });
  }, [showOptions, storyLog.length]);

  return (
    <div className="play">
      <CharacterPanel
        name={game.chosenCharacter}
        image={game.chosenImage}
        traits={game.characterTraits}
        bio={game.characterBio}
      />
      <section className="play-story">
        <header className="play-header">
          <p className="play-header__line">
            <FormattedMessage id="game.play.genre" values={{ genre: game.chosenGenre }} />
          </p>
          <p className="play-header__line">
            <FormattedMessage id="game.play.turns" values={{ turns: game.turnCount }} />
          </p>
          <AutoReadToggle available={available} />
          {saveGame}
        </header>
        <StoryLog
          entries={storyLog}
          logRef={logRef}
          reader={reader}
          speakingKey={speakingKey}
          pictureAt={pictureAt}
        />
        {/* Right under the text being written; it floats at the foot of the screen. */}
        <LoadingOverlay
          loading={isLoading}
          final={isFinal}
          thinking={game.thinking}
          writing={game.writing}
          wait={game.wait}
          onCancel={() => dispatch(gameActions.waitCancelled())}
          onStop={game.stoppable ? () => dispatch(gameActions.writingStopped()) : undefined}
        />
        <TurnTools />
        {game.failed && (
          <TurnError
            detail={game.problem}
            onRetry={() => dispatch(gameActions.turnRetryRequested())}
          />
        )}
        {showOptions && (
          <OptionList
            options={options}
            firstOptionRef={firstOptionRef}
            onChoose={(index) => dispatch(gameActions.choiceMade({ index }))}
          />
        )}
        {!isFinal && (
          <ChoiceForm
            enabled={choosing}
            onSubmit={(text) => dispatch(gameActions.choiceMade({ text }))}
          />
        )}
        {illustrate}
        <StoryMemory />
        <StorySheet />
        <Lorebook />
      </section>
    </div>
  );
}

function isTextField(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  if (target.isContentEditable) return true;
  if (target instanceof HTMLTextAreaElement || target instanceof HTMLSelectElement) return true;
  if (!(target instanceof HTMLInputElement)) return false;
  return !['button', 'checkbox', 'radio', 'submit', 'reset', 'range'].includes(target.type);
}

function prefersReducedMotion(): boolean {
  return window.matchMedia?.('(prefers-reduced-motion: reduce)').matches ?? false;
}
