/**
 * The figures before the game was made fast over a real network and flat at turn 100, kept so
 * that docs/BENCHMARKS.md shows each of those budgets before and after. Each is the figure as it
 * was measured, and where: the measurement on main before the work began, or this
 * bench on the code of that time (commit 6b057b2, the app as it was before the streamed-turn
 * work; the bench itself already no longer polled the page, see streamedTurn.ts).
 */
export interface BeforeFigure {
  budget: string;
  before: string;
  measuredWhere: string;
}

export const BEFORE_ISSUE_21: BeforeFigure[] = [
  {
    budget: '1. JavaScript and CSS of a whole game over the wire',
    before: '669 KB received (no compression)',
    measuredWhere: 'the issue, on main before it',
  },
  {
    budget: '3. First story words after a choice',
    before: '32 ms after the story text’s first token, 132 ms after the reply’s',
    measuredWhere: 'this bench on 6b057b2, this machine',
  },
  {
    budget: '3. First story words after the click',
    before: '445 ms; 1594 ms before issue 18 (the turn waited for the previous summary)',
    measuredWhere: 'this bench on 6b057b2; the issue',
  },
  {
    budget: '10. Main-thread work per streamed turn at turn 100',
    before: '3099 ms (turn 10: 2768 ms), 134 React commits per turn',
    measuredWhere: 'this bench on 6b057b2, this machine',
  },
  {
    budget:
      "10. A streamed update at turn 100, from its action to its words (the issue's render plus commit)",
    before:
      '3.35 ms, React rendering and committing the paragraph each time (not measured earlier)',
    measuredWhere: 'this bench on f7523f1, this machine',
  },
  {
    budget: '10. Main-thread work per streamed turn, turn 100 against turn 10',
    before: '1.12x here; 1.82x in the issue (3130 ms against 1721 ms)',
    measuredWhere: 'this bench on 6b057b2; the issue',
  },
];
