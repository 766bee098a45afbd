/**
 * Ends every run with one plain line, 'N passed, N failed' (', N skipped' when any), that CI
 * reads whatever the test runner; jest's own summary stays above it. Plain CommonJS: jest
 * loads reporters without transforming them.
 */
class SummaryReporter {
  onRunComplete(_contexts, results) {
    const skipped = results.numPendingTests + results.numTodoTests;
    const line = `${results.numPassedTests} passed, ${results.numFailedTests} failed`;
    process.stdout.write(`\n${skipped > 0 ? `${line}, ${skipped} skipped` : line}\n`);
  }
}

module.exports = SummaryReporter;
