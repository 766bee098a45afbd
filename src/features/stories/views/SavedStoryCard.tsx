import { useEffect, useId, useRef, useState } from 'react';
import { FormattedMessage, useIntl, type IntlShape } from 'react-intl';
import { storyPreview } from '../../../engine/text';
import { useAppDispatch } from '../../../shared/hooks';
import { portraitNumber, portraitSrc } from '../../game';
import type { ListedStory } from '../browserPlace';
import { PublishButton } from '../cloud/views/PublishButton';
import { storiesActions } from '../storiesSlice';
import type { StoryMarkdownLabels } from '../storyExport';
import { loadStoryFiles } from '../storyFiles';
import { downloadText, storyFileName } from './download';
import { SAVED_TIME_FORMAT, storyTitle, storyTurns } from './storyFacts';

/** SPEC.md section 2, view 2: one saved story, with Load, Delete (confirmed) and export. */
export function SavedStoryCard({ story }: { story: ListedStory }) {
  const intl = useIntl();
  const dispatch = useAppDispatch();
  const titleId = useId();
  const [confirming, setConfirming] = useState(false);
  const keepRef = useRef<HTMLButtonElement>(null);
  const deleteRef = useRef<HTMLButtonElement>(null);
  const wasConfirming = useRef(false);
  const name = story.chosenCharacter;
  // A story kept from another tab's line is marked, so two cards of one hero can be told apart.
  const title = storyTitle(intl, story);

  // Focus follows the question: onto 'Keep it' when asked, back to Delete when kept.
  useEffect(() => {
    if (confirming) keepRef.current?.focus();
    else if (wasConfirming.current) deleteRef.current?.focus();
    wasConfirming.current = confirming;
  }, [confirming]);

  const turns = storyTurns(story);

  async function exportAs(format: 'markdown' | 'json') {
    const { storyToJson, storyToMarkdown } = await loadStoryFiles();
    if (format === 'json') {
      downloadText(storyFileName(name, story.id, 'json'), storyToJson(story), 'application/json');
    } else {
      const markdown = storyToMarkdown(story, markdownLabels(intl));
      downloadText(storyFileName(name, story.id, 'md'), markdown, 'text/markdown');
    }
  }

  return (
    <article className="story-card" aria-labelledby={titleId}>
      <img
        className="story-card__portrait"
        // Only one of the game's own portraits, whatever an imported file says.
        src={portraitSrc(portraitNumber(story.characterImage) ?? 1)}
        alt={intl.formatMessage({ id: 'stories.card.portraitAlt' }, { name })}
        width={96}
        height={96}
        loading="lazy"
      />
      <div className="story-card__body">
        <h3 id={titleId} className="story-card__name">
          {title}
        </h3>
        <p className="story-card__meta">
          <span>
            <FormattedMessage id="stories.card.id" values={{ id: story.id }} />
          </span>
          <span>
            <FormattedMessage
              id="stories.card.saved"
              values={{
                time: intl.formatDate(story.lastSaved, SAVED_TIME_FORMAT),
              }}
            />
          </span>
          {story.cloud && story.cloud.revision > 0 && (
            <span className="cloud-badge">
              <FormattedMessage id="stories.cloud.kept" />
            </span>
          )}
          <span>
            {story.isFinal ? (
              <FormattedMessage id="stories.card.finished" values={{ ending: story.endingType }} />
            ) : (
              <FormattedMessage id="stories.card.turn" values={{ turns }} />
            )}
          </span>
        </p>
        <p className="story-card__preview">{storyPreview(story.previousParagraph)}</p>
        {confirming ? (
          <div className="story-card__confirm" role="group" aria-labelledby={`${titleId}-confirm`}>
            <p id={`${titleId}-confirm`}>
              <FormattedMessage id="stories.card.confirmDelete" values={{ name: title }} />
            </p>
            <div className="story-card__actions">
              <button
                type="button"
                className="button danger"
                onClick={() => dispatch(storiesActions.deleteConfirmed(story.id))}
              >
                <FormattedMessage id="stories.card.confirmYes" />
              </button>
              <button type="button" ref={keepRef} onClick={() => setConfirming(false)}>
                <FormattedMessage id="stories.card.confirmNo" />
              </button>
            </div>
          </div>
        ) : (
          <div className="story-card__actions">
            <button
              type="button"
              className="button primary"
              aria-label={intl.formatMessage({ id: 'stories.card.loadLabel' }, { name: title })}
              onClick={() => dispatch(storiesActions.loadRequested(story.id))}
            >
              <FormattedMessage id="stories.card.load" />
            </button>
            <button
              type="button"
              ref={deleteRef}
              aria-label={intl.formatMessage({ id: 'stories.card.deleteLabel' }, { name: title })}
              onClick={() => setConfirming(true)}
            >
              <FormattedMessage id="stories.card.delete" />
            </button>
            {story.problem ? (
              // A damaged story is said so, and never exported shortened.
              <p className="story-card__problem" role="note">
                <FormattedMessage id="stories.reason.damaged" />
              </p>
            ) : (
              <>
                <button
                  type="button"
                  className="story-card__export"
                  aria-label={intl.formatMessage(
                    { id: 'stories.card.exportMarkdownLabel' },
                    { name: title },
                  )}
                  onClick={() => exportAs('markdown')}
                >
                  <FormattedMessage id="stories.card.exportMarkdown" />
                </button>
                <button
                  type="button"
                  className="story-card__export"
                  aria-label={intl.formatMessage(
                    { id: 'stories.card.exportJsonLabel' },
                    { name: title },
                  )}
                  onClick={() => exportAs('json')}
                >
                  <FormattedMessage id="stories.card.exportJson" />
                </button>
              </>
            )}
            {story.isFinal && story.cloud && (
              <PublishButton target={{ cloudId: story.cloud.id, localId: story.id }} name={name} />
            )}
          </div>
        )}
      </div>
    </article>
  );
}

/** The Markdown export's words, in the player's language. */
function markdownLabels(intl: IntlShape): StoryMarkdownLabels {
  const say = (id: string) => intl.formatMessage({ id: `stories.markdown.${id}` });
  return {
    genre: say('genre'),
    choice: say('choice'),
    outcomes: { success: say('success'), partial: say('partial'), failure: say('failure') },
    recap: say('recap'),
    endingType: say('endingType'),
    overallScore: say('overallScore'),
    bigMoment: say('bigMoment'),
    frequentActivity: say('frequentActivity'),
    characterTraitHighlight: say('characterTraitHighlight'),
    themeExploration: say('themeExploration'),
    edited: say('edited'),
    memory: say('memory'),
    note: say('note'),
  };
}
