/**
 * Prints one plain closing line as the very last line of a test run (after
 * Jest's own summary, which is written later than reporters run):
 * `N passed, N failed`, plus the suites that failed without a failing test
 * (a suite that could not run, an error in a hook such as `afterAll`). Jest
 * sets `success` only after reporters have run, so the line is built from
 * the counts and each suite's own failure. `exitCode` is the process's as it
 * exits: code outside any test can set it (Jest does, for a module imported
 * after its test file ended), and the run then fails with every test passed.
 */
export function summaryLine(results, exitCode = 0) {
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
  if (exitCode && !results.numFailedTests && !broken.length)
    parts.push(
      `but exit code ${exitCode} was set outside the tests (see the errors above, such as an import after a test file ended)`,
    );
  return parts.join(", ");
}

export default class SummaryReporter {
  onRunComplete(_contexts, results) {
    // Jest sets its own exit code in an exit handler added after this one: what is seen here was set by others.
    process.once("exit", () => process.stderr.write(`\n${summaryLine(results, process.exitCode)}\n`));
  }
}
