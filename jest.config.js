/**
 * Jest in ESM mode: pi-tui is ESM-only. Type checking is `tsc --noEmit`'s job.
 *
 * One project for the unit tests, one for the unit files that build dist/ or
 * start processes (Pi, `npm run visualize`): `npm test` runs them,
 * `npm run test:quick` (the unit project only) leaves them out; one for the pages in a real browser
 * (__tests__/browser: no Pi there, so they run once), and one per Pi host for
 * the end-to-end tests (__tests__/e2e/pi-host.ts): the same files run
 * against Pi 1.6 full-screen and Pi 0.73.1, and those about the form in the
 * terminal against Pi 1.6 inline too.
 * `PI_HOSTS=pi-1.6` (a comma list) runs the end-to-end tests on fewer hosts.
 *
 * Where each end-to-end file runs, and why:
 * - on Pi 1.6 full-screen and Pi 0.73: every file. The two are different
 *   programs (pi-tui, key parsing, tool exposure, argument checks, RPC and
 *   print mode), so whatever goes through Pi can differ between them;
 * - within a file, what cannot differ runs once: the review pages in the
 *   browser (review-page, Pi 1.6 only), and what Pi 0.73 lacks is skipped
 *   there (status: program status; tools-seen: tool search, codemode);
 * - on Pi 1.6 inline too: the files listed in INLINE below.
 *
 * Workers: Jest's default on 2 cores is one, which runs every file in turn;
 * the end-to-end files mostly wait on Pi and tmux, so three keep both cores
 * busy (`npm run test:quick` sets its own).
 */
const common = {
  testEnvironment: "node",
  extensionsToTreatAsEsm: [".ts"],
  transform: { "^.+\\.ts$": ["ts-jest", { useESM: true }] },
  moduleNameMapper: { "^(\\.{1,2}/.*)\\.js$": "$1" },
};

/** Unit files that build dist/, start processes or build the largest review pages: slow, so not in the quick loop. */
const SLOW = [
  "build",
  "bench-harness",
  "diagram",
  "handwritten-forms",
  "review-diff",
  "review-overview",
  "shutdown-process",
].map((name) => `<rootDir>/__tests__/${name}.test.ts`);

const HOSTS = ["pi-1.6", "pi-1.6-regular", "pi-0.73"];

/**
 * Pi 1.6 inline (`--tui-mode regular`) differs from its full-screen mode in
 * how a form lives in the terminal: drawn in the scrollback, the terminal
 * keeping the mouse, the screen handed to an outside editor, a line above the
 * editor. Its lane runs the files about that; what the requests carry, the
 * tools' reach, RPC and print mode are the same in both modes, and run on
 * the full-screen lane.
 */
const INLINE = ["question", "mouse", "timeout-fold", "ask-later", "previews", "outside-editor"].map(
  (name) => `<rootDir>/__tests__/e2e/${name}.e2e.test.ts`,
);
const hosts = process.env.PI_HOSTS ? process.env.PI_HOSTS.split(",").filter((h) => HOSTS.includes(h)) : HOSTS;

export default {
  testTimeout: 30000,
  maxWorkers: 3,
  // A worker holds a vm context and the modules of every file it ran: after its exit event, Node takes
  // about 0.45 s to tear that down on 2 busy cores (measured), past jest's 500 ms before it kills the
  // worker and warns of a leak. At the end of a run no timer or handle is left in a worker: it exits by itself.
  workerGracefulExitTimeout: 3000,
  reporters: ["default", "<rootDir>/scripts/summary-reporter.js"],
  projects: [
    {
      ...common,
      displayName: "unit",
      testMatch: ["<rootDir>/__tests__/**/*.test.ts"],
      // Pi's package through the modules that define what is used of it, not its index (__tests__/helpers/pi-coding-agent.ts).
      moduleNameMapper: {
        ...common.moduleNameMapper,
        "^@earendil-works/pi-coding-agent$": "<rootDir>/__tests__/helpers/pi-coding-agent.ts",
      },
      testPathIgnorePatterns: ["/node_modules/", "/__tests__/e2e/", "/__tests__/browser/", ...SLOW],
    },
    { ...common, displayName: "slow", testMatch: SLOW },
    { ...common, displayName: "browser", testMatch: ["<rootDir>/__tests__/browser/**/*.test.ts"] },
    ...hosts.map((host) => ({
      ...common,
      displayName: host,
      testMatch: host === "pi-1.6-regular" ? INLINE : ["<rootDir>/__tests__/e2e/**/*.test.ts"],
      globals: { PI_HOST: host },
    })),
  ],
};
