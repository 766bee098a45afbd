/**
 * The story changes of one whole turn as the auto-save page plays it (outcome rolled, scenario
 * picked, segment received, options offered, summary stored, score): shared by the page and
 * the benchmark, which sends bursts of whole turns.
 */
export const CHANGES_PER_TURN = 6;
