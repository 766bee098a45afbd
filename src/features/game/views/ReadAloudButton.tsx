import { useIntl } from 'react-intl';
import type { ParagraphReader } from './readAloud';
import './readAloud.css';

interface ReadAloudButtonProps {
  /** The paragraph's key in the story log (paragraphsIn), which `speaking` is told by. */
  paragraphKey: string;
  text: string;
  /** Whether this paragraph is the one being read: the reader's speakingKey is its key. */
  speaking: boolean;
  reader: ParagraphReader;
}

/**
 * One paragraph's 'Read aloud' button: pressed while the paragraph is read, and
 * pressing it again stops. Its name stays 'Read aloud' whatever its state, as a toggle's
 * should (aria-pressed says the state); the tooltip says what a press will do. Nothing when
 * the browser cannot read the interface language.
 */
export function ReadAloudButton({ paragraphKey, text, speaking, reader }: ReadAloudButtonProps) {
  const intl = useIntl();
  if (!reader.available) return null;
  return (
    <button
      type="button"
      className="read-aloud-button"
      aria-pressed={speaking}
      title={intl.formatMessage({ id: speaking ? 'game.readAloud.stop' : 'game.readAloud.read' })}
      onClick={() => (speaking ? reader.stop() : reader.speak(paragraphKey, text))}
    >
      <SpeakerIcon speaking={speaking} />
      <span className="visually-hidden">{intl.formatMessage({ id: 'game.readAloud.read' })}</span>
    </button>
  );
}

/** A speaker with sound waves; with a stop square instead while it reads. */
function SpeakerIcon({ speaking }: { speaking: boolean }) {
  return (
    <svg viewBox="0 0 24 24" width="1em" height="1em" aria-hidden="true" focusable="false">
      <path d="M3 9h4l5-4v14l-5-4H3z" fill="currentColor" />
      {speaking ? (
        <rect x="15.5" y="8.5" width="7" height="7" rx="1" fill="currentColor" />
      ) : (
        <path
          d="M15.5 9a4 4 0 0 1 0 6M18 6.5a7.5 7.5 0 0 1 0 11"
          fill="none"
          stroke="currentColor"
          strokeWidth="2"
          strokeLinecap="round"
        />
      )}
    </svg>
  );
}
