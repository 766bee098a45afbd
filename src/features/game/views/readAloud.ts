import { useCallback, useEffect, useRef, useState, useSyncExternalStore } from 'react';
import type { Language } from '../../../engine/types';

/**
 * Reading the story aloud with the browser's own speech synthesis: no server of ours
 * hears the story. A browser without speech synthesis (or jsdom) simply has no read-aloud
 * controls.
 */

/** The BCP-47 language of each interface language: 'kr' is the product's name for Korean. */
const SPEECH_LANGUAGE: Record<Language, string> = { en: 'en', kr: 'ko' };

/** What the story log needs to read its paragraphs aloud (useReadAloud). */
export interface ReadAloud {
  /** False with no speech synthesis, or no voice for the language: show no controls then. */
  available: boolean;
  /** The paragraph being read, by the key it was spoken with; null when nothing is. */
  speakingKey: string | null;
  /**
   * Reads `text` aloud in place of anything being read. The same function until the language
   * changes, so a memoized paragraph can be handed it.
   */
  speak(key: string, text: string): void;
  /** Stops reading. The same function for the visit. */
  stop(): void;
}

/**
 * What one paragraph's button needs: no `speakingKey`, so a memoized paragraph is handed the
 * same object until the reader's availability or language changes, not at every reading.
 */
export type ParagraphReader = Pick<ReadAloud, 'available' | 'speak' | 'stop'>;

/** The page's speech synthesis, if the browser has one. */
function pageSpeech(): SpeechSynthesis | null {
  if (typeof window === 'undefined') return null;
  const { speechSynthesis } = window;
  if (!speechSynthesis || typeof window.SpeechSynthesisUtterance !== 'function') return null;
  return speechSynthesis;
}

/** A voice's language as BCP-47, lower-cased: some platforms write 'ko_KR'. */
const voiceLanguage = (voice: SpeechSynthesisVoice) => voice.lang.replace(/_/g, '-').toLowerCase();

/**
 * The voice to read a language with, or null when the browser has none. A voice on the device
 * comes first: it works offline, keeps the story on the device, and is not cut off partway
 * through a long paragraph as some browsers' network voices are; then the browser's default.
 */
export function voiceFor(
  voices: readonly SpeechSynthesisVoice[],
  language: Language,
): SpeechSynthesisVoice | null {
  const wanted = SPEECH_LANGUAGE[language];
  const speaksIt = voices.filter((voice) => {
    const lang = voiceLanguage(voice);
    return lang === wanted || lang.startsWith(`${wanted}-`);
  });
  const rank = (voice: SpeechSynthesisVoice) =>
    (voice.localService ? 2 : 0) + (voice.default ? 1 : 0);
  return speaksIt.reduce<SpeechSynthesisVoice | null>(
    (best, voice) => (best === null || rank(voice) > rank(best) ? voice : best),
    null,
  );
}

/**
 * The speech synthesis of the page for the interface language: whether it can read, which
 * paragraph it is reading, and speak and stop. The browser's voices may arrive after the page
 * (Chrome lists none at first), so the list is read at once and again on each voiceschanged.
 * A change of language, or leaving the screen, stops the reading.
 */
export function useReadAloud(language: Language): ReadAloud {
  const speech = pageSpeech();
  const subscribe = useCallback(
    (voicesChanged: () => void) => {
      if (typeof speech?.addEventListener !== 'function') return () => {};
      speech.addEventListener('voiceschanged', voicesChanged);
      return () => speech.removeEventListener('voiceschanged', voicesChanged);
    },
    [speech],
  );
  // The voice's URI, not the voice: a browser may hand out new voice objects on each call.
  const voiceUri = () => (speech && voiceFor(speech.getVoices(), language)?.voiceURI) ?? null;
  const available = useSyncExternalStore(subscribe, voiceUri, voiceUri) !== null;

  const [speakingKey, setSpeakingKey] = useState<string | null>(null);
  // The utterance being read: kept so that it is not collected before it ends (Chrome then
  // never sends its end), and so that the end of one it replaced changes nothing.
  const reading = useRef<SpeechSynthesisUtterance | null>(null);

  const stop = useCallback(() => {
    if (!speech) return;
    reading.current = null;
    speech.cancel();
    setSpeakingKey(null);
  }, [speech]);

  const speak = useCallback(
    (key: string, text: string) => {
      const voice = speech && voiceFor(speech.getVoices(), language);
      if (!speech || !voice) return;
      speech.cancel();
      const utterance = new window.SpeechSynthesisUtterance(text);
      utterance.voice = voice;
      utterance.lang = voice.lang.replace(/_/g, '-');
      const ended = () => {
        if (reading.current !== utterance) return;
        reading.current = null;
        setSpeakingKey(null);
      };
      utterance.addEventListener('end', ended);
      utterance.addEventListener('error', ended);
      reading.current = utterance;
      setSpeakingKey(key);
      speech.speak(utterance);
    },
    [speech, language],
  );

  // A new language, leaving the screen, or leaving the page (Chrome reads on past a reload).
  useEffect(() => {
    window.addEventListener('pagehide', stop);
    return () => {
      window.removeEventListener('pagehide', stop);
      if (reading.current) stop();
    };
  }, [language, stop]);

  return { available, speakingKey, speak, stop };
}
