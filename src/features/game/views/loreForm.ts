/**
 * A lorebook entry as the player writes it in the panel's form: its fields as typed (the
 * keywords as one comma-separated line), kept by the closed panel's shell so that closing the
 * panel loses nothing, and read into an entry when saved.
 */
import { keywordsOf, type LoreEntry } from '../../../engine/lorebook';
import type { LoreDraft } from '../lorebook/lorebookReducers';

export interface LoreForm {
  /** The entry being changed, or null for a new one. */
  id: string | null;
  name: string;
  keywords: string;
  text: string;
  always: boolean;
}

export const newLoreForm: LoreForm = { id: null, name: '', keywords: '', text: '', always: false };

export const loreFormOf = (entry: LoreEntry): LoreForm => ({
  id: entry.id,
  name: entry.name,
  keywords: entry.keywords.join(', '),
  text: entry.text,
  always: entry.always,
});

/** What the form is missing, if it cannot be saved yet. */
export type LoreFormProblem = 'needsName' | 'needsText';

/** The entry the form holds, or what it is missing. With no keywords, the name is the keyword. */
export function loreDraftOf(form: LoreForm): LoreDraft | LoreFormProblem {
  const name = form.name.trim();
  if (name === '') return 'needsName';
  if (form.text.trim() === '') return 'needsText';
  const keywords = keywordsOf(form.keywords);
  return {
    name,
    keywords: keywords.length > 0 ? keywords : keywordsOf([name]),
    text: form.text.trim(),
    always: form.always,
  };
}
