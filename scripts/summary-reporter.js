/**
 * Prints one plain closing line, `N passed, N failed`, as the very last line
 * of a test run (after Jest's own summary, which is written later than reporters run).
 */
export default class SummaryReporter {
  onRunComplete(_contexts, results) {
    const skipped = results.numPendingTests + results.numTodoTests;
    const line = `${results.numPassedTests} passed, ${results.numFailedTests} failed${skipped ? `, ${skipped} skipped` : ""}`;
    process.once("exit", () => process.stderr.write(`\n${line}\n`));
  }
}
