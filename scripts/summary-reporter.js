/**
 * Prints one plain closing line as the very last line of a test run (after
 * Jest's own summary, which is written later than reporters run):
 * `N passed, N failed`, plus the suites that failed without a failing test
 * (a suite that could not run, an error in a hook such as `afterAll`). Jest
 * sets `success` only after reporters have run, so the line is built from
 * the counts and each suite's own failure.
 */
export function summaryLine(results) {
  const skipped = results.numPendingTests + results.numTodoTests;
  const parts = [`${results.numPassedTests} passed`, `${results.numFailedTests} failed`];
  if (skipped) parts.push(`${skipped} skipped`);
  const broken = results.testResults.filter((r) => r.testExecError || (r.failureMessage && r.numFailingTests === 0));
  if (broken.length) {
    const names = broken.map((r) => r.testFilePath.split(/[\\/]__tests__[\\/]/).pop());
    parts.push(
      `${broken.length} suite${broken.length === 1 ? "" : "s"} failed to run or in a hook (${names.join(", ")})`,
    );
  }
  return parts.join(", ");
}

export default class SummaryReporter {
  onRunComplete(_contexts, results) {
    const line = summaryLine(results);
    process.once("exit", () => process.stderr.write(`\n${line}\n`));
  }
}
