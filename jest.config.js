/** Jest in ESM mode: pi-tui is ESM-only. Type checking is `tsc --noEmit`'s job. */
export default {
  testEnvironment: "node",
  extensionsToTreatAsEsm: [".ts"],
  transform: { "^.+\\.ts$": ["ts-jest", { useESM: true }] },
  moduleNameMapper: { "^(\\.{1,2}/.*)\\.js$": "$1" },
  testMatch: ["<rootDir>/__tests__/**/*.test.ts"],
  testTimeout: 30000,
  reporters: ["default", "<rootDir>/scripts/summary-reporter.js"],
};
