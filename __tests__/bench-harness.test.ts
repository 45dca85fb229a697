/**
 * The benchmark's harness (scripts/bench-child.ts) runs what Pi runs: the
 * built extension loaded through Pi's loader, the session started (its
 * handlers reading and changing the active tools, as Pi's runner allows),
 * then a tool call drawn to its first frame. `npm run bench` is not run by
 * the tests, so this is what keeps its rows from breaking unseen.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "@jest/globals";
import type { PiScope, Task } from "../scripts/bench-child.js";
import { PROJECT_ROOT } from "./e2e/pi-home.js";
import { tempAgentDir } from "./helpers/temp.js";

const entry = JSON.parse(readFileSync(join(PROJECT_ROOT, "package.json"), "utf8")).pi.extensions[0] as string;

function run(task: Task, node = process.execPath): { wall: number; cpu: number } {
  const dir = mkdtempSync(join(tempAgentDir(), "bench-"));
  const file = join(dir, "task.json");
  writeFileSync(file, JSON.stringify(task));
  const env: NodeJS.ProcessEnv = { ...process.env, PI_CODING_AGENT_DIR: join(dir, "agent"), TMPDIR: dir };
  delete env.NODE_OPTIONS;
  const out = execFileSync(node, ["--import", "tsx", join(PROJECT_ROOT, "scripts", "bench-child.ts"), file], {
    cwd: PROJECT_ROOT,
    env,
    encoding: "utf8",
  });
  return JSON.parse(out.trim().split("\n").pop()!);
}

const question = {
  questions: [{ prompt: "Which database?", options: [{ label: "PostgreSQL" }, { label: "SQLite" }] }],
};
const hosts: Array<[PiScope, string]> = [
  ["@earendil-works", process.execPath],
  ["@mariozechner", process.env.FORMCHART_SYSTEM_NODE || process.execPath],
];

describe("the benchmark's harness", () => {
  it.each(hosts)(
    "opens a first form after session_start on %s",
    (pi, node) => {
      const side = { path: join(PROJECT_ROOT, entry), tool: "question" };
      const timing = run({ kind: "first-form", root: PROJECT_ROOT, pi, side, args: question, warm: true }, node);
      expect(timing.wall).toBeGreaterThan(0);
    },
    60_000,
  );

  /** `n` questions of `m` options, with values for the example (which requires them). */
  const form = (n: number, m: number, values: boolean) => ({
    questions: Array.from({ length: n }, (_, i) => ({
      id: `q${i + 1}`,
      label: `Q${i + 1}`,
      prompt: `Question ${i + 1}?`,
      options: Array.from({ length: m }, (_, j) => ({
        ...(values ? { value: `v${j}` } : {}),
        label: `Option ${j + 1}`,
      })),
    })),
  });
  const example = join(
    PROJECT_ROOT,
    "node_modules/@earendil-works/pi-coding-agent/examples/extensions/questionnaire.ts",
  );

  it.each([
    [1, 3],
    [4, 5],
  ])(
    "the mixed script at %i×%i closes neither form, and allocation per key is measured on both",
    (n, m) => {
      const sides = [
        { side: { path: join(PROJECT_ROOT, entry), tool: "question" }, args: form(n, m, false) },
        { side: { path: example, tool: "questionnaire" }, args: form(n, m, true) },
      ];
      for (const { side, args } of sides) {
        const root = PROJECT_ROOT;
        // A script that closed a form makes the run throw; two passes over it at least.
        const row = { kind: "alloc" as const, args, width: 80, warmup: 60, samples: 60 };
        const bytes = run({ kind: "forms", root, pi: "@earendil-works", side, row }) as unknown as number;
        expect(bytes).toBeGreaterThan(0);
      }
    },
    120_000,
  );
});
