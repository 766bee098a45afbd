import { useEffect, useRef, useState } from 'react';
import { FormattedMessage } from 'react-intl';
import { shallowEqual } from 'react-redux';
import { useAppDispatch, useAppSelector } from '../../../shared/hooks';
import { onDemand } from '../../../shared/onDemand';
import {
  FREE_TEXT_MAX_CHARS,
  MAX_REWRITES_PER_TURN,
  PARAGRAPH_MAX_CHARS,
  PARAGRAPH_MIN_CHARS,
} from '../gameModel';
import { gameActions, type GameState } from '../gameSlice';
import { canEdit, canRewrite, latestChoice } from '../turn/turnRules';
import { focusWasLost } from './focus';
import './storyHand.css';

/**
 * The editor comes with the first Edit pressed: most turns are never edited, and it was 0.3 KB
 * of a whole game's JavaScript over the wire (npm run bench bundle). The story's panels that
 * edit their entries load it with their own code.
 */
const TextEditor = onDemand(() =>
  import(/* webpackChunkName: "text-editor" */ './TextEditor').then((m) => m.TextEditor),
);

/** What the tools need of the game: changes once a turn, never while a paragraph streams. */
function selectTurnTools({ game }: { game: GameState }) {
  const { story } = game;
  const latest = story.storyLog.at(-1);
  const choice = latestChoice(story);
  const editable = canEdit(game);
  return {
    /** An editor stays open only for the entry it opened on: a new one closes it. */
    logLength: story.storyLog.length,
    stopped: game.turn.phase === 'stopped',
    rewritable: canRewrite(game),
    rewritesLeft: MAX_REWRITES_PER_TURN - story.turnRewrites,
    paragraph: editable && latest?.kind === 'paragraph' ? latest.text : null,
    // Only the player's own words are theirs to edit, and only this turn's.
    action: editable && story.lastChoice?.freeText && choice ? choice.text : null,
  };
}

type Editing = 'paragraph' | 'action' | null;

/**
 * The player's hand on the story, under the latest paragraph: Write it again, with the rewrites
 * left this turn, and Edit for the paragraph and for the player's typed action. After a Stop,
 * the turn waits here to be written again.
 */
export function TurnTools() {
  const dispatch = useAppDispatch();
  const tools = useAppSelector(selectTurnTools, shallowEqual);
  const [opened, setOpened] = useState<{ what: Editing; at: number }>({ what: null, at: 0 });
  const editing = opened.at === tools.logLength ? opened.what : null;
  const setEditing = (what: Editing) => setOpened({ what, at: tools.logLength });
  const rewrite = () => dispatch(gameActions.rewriteRequested());
  // After a Stop the Stop button is gone: focus goes to the way on.
  const rewriteButton = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (tools.stopped && focusWasLost()) rewriteButton.current?.focus();
  }, [tools.stopped]);
  // Keyboard players come back to the button that opened the editor.
  const reopened = useRef<Editing>(null);
  const paragraphButton = useRef<HTMLButtonElement>(null);
  const actionButton = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (editing !== null || reopened.current === null) return;
    (reopened.current === 'paragraph' ? paragraphButton : actionButton).current?.focus();
    reopened.current = null;
  });
  const edit = (what: Exclude<Editing, null>) => {
    reopened.current = what;
    setEditing(what);
  };

  if (editing === 'paragraph' && tools.paragraph !== null) {
    return (
      <TextEditor
        labelId="game.hand.editParagraphLabel"
        text={tools.paragraph}
        minLength={PARAGRAPH_MIN_CHARS}
        maxLength={PARAGRAPH_MAX_CHARS}
        rows={8}
        onSave={(text) => dispatch(gameActions.paragraphEdited(text))}
        onClose={() => setEditing(null)}
      />
    );
  }
  if (editing === 'action' && tools.action !== null) {
    return (
      <TextEditor
        labelId="game.hand.editActionLabel"
        text={tools.action}
        maxLength={FREE_TEXT_MAX_CHARS}
        rows={2}
        onSave={(text) => dispatch(gameActions.choiceEdited(text))}
        onClose={() => setEditing(null)}
      />
    );
  }

  const rewriteAction = tools.rewritable && (
    <button
      type="button"
      className="button turn-tools__rewrite"
      ref={rewriteButton}
      onClick={rewrite}
    >
      <FormattedMessage id="game.hand.rewrite" />{' '}
      <span className="turn-tools__left">
        <FormattedMessage id="game.hand.rewritesLeft" values={{ count: tools.rewritesLeft }} />
      </span>
    </button>
  );

  const editAction = tools.action !== null && (
    <button type="button" className="button" ref={actionButton} onClick={() => edit('action')}>
      <FormattedMessage id="game.hand.editAction" />
    </button>
  );

  if (tools.stopped) {
    return (
      <div className="turn-stopped" role="status">
        <p className="turn-stopped__text">
          <FormattedMessage id="game.hand.stopped" />
        </p>
        <div className="turn-tools__row">
          {rewriteAction}
          {editAction}
        </div>
      </div>
    );
  }
  if (tools.paragraph === null) return null;
  return (
    <div className="turn-tools">
      <div className="turn-tools__row">
        {rewriteAction}
        <button
          type="button"
          className="button"
          ref={paragraphButton}
          onClick={() => edit('paragraph')}
        >
          <FormattedMessage id="game.hand.editParagraph" />
        </button>
        {editAction}
      </div>
      {!tools.rewritable && tools.rewritesLeft === 0 && (
        <p className="turn-tools__note">
          <FormattedMessage id="game.hand.noRewritesLeft" values={{ max: MAX_REWRITES_PER_TURN }} />
        </p>
      )}
    </div>
  );
}
