import { readPlan, type ExplainedJson } from '../../scripts/bench/queryPlan';

const INDEX = 'game_results_score_idx';

describe('readPlan', () => {
  it('sees a top-20 read straight off the index', () => {
    const explained: ExplainedJson = [
      {
        Plan: {
          'Node Type': 'Limit',
          Plans: [{ 'Node Type': 'Index Scan', 'Index Name': INDEX }],
        },
        'Execution Time': 0.05,
      },
    ];
    expect(readPlan(explained, INDEX)).toEqual({
      usesIndex: true,
      shape: `Limit → Index Scan on ${INDEX}`,
      executionMs: 0.05,
    });
  });

  it('does not count a sort over a full scan, or another index', () => {
    const sorted: ExplainedJson = [
      {
        Plan: {
          'Node Type': 'Limit',
          Plans: [
            {
              'Node Type': 'Sort',
              Plans: [{ 'Node Type': 'Seq Scan' }],
            },
          ],
        },
      },
    ];
    expect(readPlan(sorted, INDEX)).toMatchObject({
      usesIndex: false,
      shape: 'Limit → Sort → Seq Scan',
    });
    const other: ExplainedJson = [
      { Plan: { 'Node Type': 'Index Scan', 'Index Name': 'game_results_pkey' } },
    ];
    expect(readPlan(other, INDEX).usesIndex).toBe(false);
  });

  it('does not count the index when its rows are sorted again', () => {
    const resorted: ExplainedJson = [
      {
        Plan: {
          'Node Type': 'Incremental Sort',
          Plans: [{ 'Node Type': 'Index Scan', 'Index Name': INDEX }],
        },
      },
    ];
    expect(readPlan(resorted, INDEX).usesIndex).toBe(false);
  });
});
