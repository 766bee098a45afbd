/**
 * The story sheet's changes that ride in a story reply (the opening, each turn, the conclusion
 * check): read as leniently as every optional field (engine/storySheet.ts), and told to the
 * store after the paragraph they belong to, so Write it again can take them back with it.
 */
import { put } from 'typed-redux-saga';
import { readSheetChanges } from '../../../engine/sheetReading';
import { gameActions } from '../gameSlice';

export function* sheetChangesOf(reply: Record<string, unknown>) {
  const changes = readSheetChanges(reply.sheetChanges);
  if (changes.length > 0) yield* put(gameActions.sheetChanged({ changes }));
}
