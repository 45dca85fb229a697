/** The closing line of a test run never says "0 failed" for a run that failed. */
import { describe, expect, it } from "@jest/globals";
// @ts-expect-error a plain JavaScript module without type declarations
import { summaryLine } from "../scripts/summary-reporter.js";

const suite = (name: string, extra: object = {}) => ({
  testFilePath: `/repo/__tests__/${name}`,
  numFailingTests: 0,
  failureMessage: null,
  ...extra,
});
const run = (extra: object) => ({
  numPassedTests: 3,
  numFailedTests: 0,
  numPendingTests: 0,
  numTodoTests: 0,
  success: true,
  testResults: [suite("a.test.ts")],
  ...extra,
});

describe("the summary line", () => {
  it("counts passed and failed tests", () => {
    expect(summaryLine(run({}))).toBe("3 passed, 0 failed");
    expect(summaryLine(run({ numFailedTests: 2, success: false }))).toBe("3 passed, 2 failed");
  });

  it("names a suite that could not run", () => {
    const crashed = suite("b.test.ts", { testExecError: { message: "Cannot find module" }, failureMessage: "x" });
    expect(summaryLine(run({ success: false, testResults: [suite("a.test.ts"), crashed] }))).toBe(
      "3 passed, 0 failed, 1 suite failed to run or in a hook (b.test.ts)",
    );
  });

  it("names a suite whose hook failed although its tests passed", () => {
    const hook = suite("c.test.ts", { failureMessage: "afterAll threw" });
    expect(summaryLine(run({ success: false, testResults: [hook] }))).toContain(
      "1 suite failed to run or in a hook (c.test.ts)",
    );
  });

  it("says when the process exits with an error code although every test passed", () => {
    expect(summaryLine(run({}), 1)).toBe(
      "3 passed, 0 failed, but exit code 1 was set outside the tests (see the errors above, such as an import after a test file ended)",
    );
    expect(summaryLine(run({ numFailedTests: 1, success: false }), 1)).toBe("3 passed, 1 failed");
  });
});
