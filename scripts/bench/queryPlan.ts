/** What EXPLAIN (FORMAT JSON) says about a query: whether it reads an index, and its shape. */

export interface PlanNode {
  'Node Type': string;
  'Index Name'?: string;
  Plans?: PlanNode[];
}

/** The one-element array EXPLAIN (ANALYZE, FORMAT JSON) returns. */
export type ExplainedJson = [{ Plan: PlanNode; 'Execution Time'?: number }];

export interface Plan {
  /** Some node scans `index`, and no node sorts (the index gives the order). */
  usesIndex: boolean;
  /** The nodes, outermost first: "Limit → Index Scan on leaderboard_entries_score_idx". */
  shape: string;
  executionMs: number;
}

export function readPlan([explained]: ExplainedJson, index: string): Plan {
  const nodes: PlanNode[] = [];
  const walk = (node: PlanNode) => {
    nodes.push(node);
    node.Plans?.forEach(walk);
  };
  walk(explained.Plan);
  return {
    usesIndex:
      nodes.some((node) => node['Index Name'] === index) &&
      !nodes.some((node) => node['Node Type'].includes('Sort')),
    shape: nodes
      .map((node) => node['Node Type'] + (node['Index Name'] ? ` on ${node['Index Name']}` : ''))
      .join(' → '),
    executionMs: explained['Execution Time'] ?? Number.NaN,
  };
}
