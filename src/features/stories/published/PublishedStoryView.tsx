import { useEffect, useId, type ReactNode } from 'react';
import { FormattedDate, FormattedMessage, useIntl } from 'react-intl';
import { storyTitle } from '../../../../common/publishedStory';
import { portraitSrc } from '../../game';
import { StoryChoice, StoryParagraph } from '../../game/sharedViews';
import { ENDING_TURN } from '../pictures/storyPicture';
import { PublishedEnding } from './PublishedEnding';
import { PlayLink } from './PlayLink';
import { PublishedPictureView } from './PublishedPicture';
import {
  useGetPublishedPicturesQuery,
  type PublishedEntry,
  type PublishedStory,
} from './publishedStoryApi';

/**
 * A published story as a reader meets it: the character and who wrote it, the paragraphs and
 * the choices with their outcomes, each picture under the paragraph it shows (the opening's
 * under the first, a moment's under its turn's, the ending's in the ending), then the ending.
 * Inside the story's own language: `lang`
 * says so to the browser (fonts, hyphens, screen readers). Every text from the story is React
 * text, never HTML.
 */
export function PublishedStoryView({ story }: { story: PublishedStory }) {
  const intl = useIntl();
  const headingId = useId();
  const title = storyTitle(story.characterName, story.genre);
  const siteName = intl.formatMessage({ id: 'app.title' });
  const publishedAt = new Date(story.publishedAt);
  const { data: pictures = [] } = useGetPublishedPicturesQuery(story.id);
  const pictureOf = (turn: number) => pictures.find((picture) => picture.turn === turn);
  const ending = pictureOf(ENDING_TURN);
  // A paragraph's turn is its place among the paragraphs (the opening is turn 0).
  const turns = paragraphTurns(story.entries);

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
        {story.entries.map((entry, index) => {
          const picture = entry.kind === 'paragraph' ? pictureOf(turns[index]!) : undefined;
          // The story no longer changes: a position is a stable key.
          return (
            <EntryLine
              key={index}
              entry={entry}
              picture={picture && <PublishedPictureView storyId={story.id} picture={picture} />}
            />
          );
        })}
      </div>

      <PublishedEnding
        endingType={story.endingType}
        recap={story.recap}
        score={story.score}
        turnCount={story.turnCount}
        language={story.language}
        picture={ending && <PublishedPictureView storyId={story.id} picture={ending} />}
      />

      <footer className="published-story__footer">
        <PlayLink />
      </footer>
    </article>
  );
}

/** Each entry's paragraph turn: its place among the paragraphs (-1 for a choice). */
function paragraphTurns(entries: readonly PublishedEntry[]): number[] {
  let paragraphs = 0;
  return entries.map((entry) => (entry.kind === 'paragraph' ? paragraphs++ : -1));
}

/**
 * A paragraph with its picture if it has one, or the player's choice and its outcome, as the
 * game's story log shows them.
 */
function EntryLine({ entry, picture }: { entry: PublishedEntry; picture?: ReactNode }) {
  if (entry.kind === 'paragraph') {
    return (
      <>
        <StoryParagraph text={entry.text} />
        {picture}
      </>
    );
  }
  return (
    <StoryChoice
      text={entry.text}
      outcome={entry.outcome}
      chooser={<FormattedMessage id="published.chose" />}
    />
  );
}
