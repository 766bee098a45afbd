import { useEffect, useId } from 'react';
import { FormattedDate, FormattedMessage, useIntl } from 'react-intl';
import { storyTitle } from '../../../../common/publishedStory';
import { portraitSrc } from '../../game';
import { StoryChoice, StoryParagraph } from '../../game/sharedViews';
import { PublishedEnding } from './PublishedEnding';
import { PlayLink } from './PlayLink';
import type { PublishedEntry, PublishedStory } from './publishedStoryApi';

/**
 * A published story as a reader meets it: the character and who wrote it, the paragraphs and
 * the choices with their outcomes, then the ending. Inside the story's own language: `lang`
 * says so to the browser (fonts, hyphens, screen readers). Every text from the story is React
 * text, never HTML.
 */
export function PublishedStoryView({ story }: { story: PublishedStory }) {
  const intl = useIntl();
  const headingId = useId();
  const title = storyTitle(story.characterName, story.genre);
  const siteName = intl.formatMessage({ id: 'app.title' });
  const publishedAt = new Date(story.publishedAt);

  // The tab and the history say which story this is, as the server's page title did.
  useEffect(() => {
    const before = document.title;
    document.title = `${title} · ${siteName}`;
    return () => {
      document.title = before;
    };
  }, [title, siteName]);

  return (
    <article className="published-story" lang={intl.locale} aria-labelledby={headingId}>
      <header className="published-story__header">
        <img
          className="published-story__portrait"
          src={portraitSrc(story.portrait)}
          alt={intl.formatMessage(
            { id: 'game.character.portraitAlt' },
            { name: story.characterName },
          )}
          width={256}
          height={256}
        />
        <h1 id={headingId} className="published-story__title">
          {title}
        </h1>
        <p className="published-story__byline">
          <span>
            <FormattedMessage
              id="published.byline"
              values={{
                author: <span className="published-story__author">{story.author}</span>,
              }}
            />
          </span>
          {!Number.isNaN(publishedAt.getTime()) && (
            <time dateTime={story.publishedAt}>
              <FormattedDate value={publishedAt} year="numeric" month="long" day="numeric" />
            </time>
          )}
        </p>
      </header>

      <div className="published-story__log">
        {story.entries.map((entry, index) => (
          // The story no longer changes: a position is a stable key.
          <EntryLine key={index} entry={entry} />
        ))}
      </div>

      <PublishedEnding
        endingType={story.endingType}
        recap={story.recap}
        score={story.score}
        turnCount={story.turnCount}
        language={story.language}
      />

      <footer className="published-story__footer">
        <PlayLink />
      </footer>
    </article>
  );
}

/** A paragraph, or the player's choice and its outcome, as the game's story log shows them. */
function EntryLine({ entry }: { entry: PublishedEntry }) {
  if (entry.kind === 'paragraph') return <StoryParagraph text={entry.text} />;
  return (
    <StoryChoice
      text={entry.text}
      outcome={entry.outcome}
      chooser={<FormattedMessage id="published.chose" />}
    />
  );
}
