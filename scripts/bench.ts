/**
 * npm run bench: pi-formchart's `question` form against Pi's own example
 * (examples/extensions/questionnaire.ts from the installed
 * @mariozechner/pi-coding-agent, imported from node_modules), both opened
 * through the same `ctx.ui.custom` factory shape and driven by the same keys.
 *
 * Prints keystroke-to-frame time (handleInput + render at 120 columns,
 * median and p99) per form size, heap retained per open form, the import
 * time of each extension entry, and the time to generate the path tests.
 * Run with --expose-gc (the npm script does).
 */
import { execFileSync } from "node:child_process";
import { cpus, totalmem } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { getKeybindings } from "@mariozechner/pi-tui";
import type { AnyStateMachine } from "xstate";
import { exampleNames, loadFormFile } from "../bin/form-file.js";
import { createFormMachine } from "../machines/form.js";
import { generatePaths } from "../machines/paths.js";

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..");
const THEIRS = join(
  ROOT,
  "node_modules",
  "@mariozechner",
  "pi-coding-agent",
  "examples",
  "extensions",
  "questionnaire.ts",
);
const WIDTH = 120;

type Component = { render(width: number): string[]; handleInput(data: string): void; invalidate(): void };
type Factory = (tui: unknown, theme: unknown, kb: unknown, done: (r: unknown) => void) => Component;

const theme = {
  fg: (_c: string, t: string) => `\x1b[36m${t}\x1b[39m`,
  bg: (_c: string, t: string) => `\x1b[7m${t}\x1b[27m`,
  bold: (t: string) => `\x1b[1m${t}\x1b[22m`,
};
const tui = { requestRender() {}, terminal: { rows: 40, columns: WIDTH } };

/** Register an extension with a fake Pi, call its tool, and hand back the component its form opens. */
async function openWith(extension: (pi: unknown) => void, tool: string, args: unknown): Promise<Component> {
  let registered: { execute: (...a: unknown[]) => Promise<unknown> } | undefined;
  const pi = {
    registerTool: (t: { name: string }) => {
      if (t.name === tool) registered = t as never;
    },
    registerCommand() {},
    on() {},
    events: { emit() {}, on() {} },
    appendEntry() {},
    getSessionName: () => undefined,
    setSessionName() {},
  };
  extension(pi);
  return new Promise((resolve) => {
    const ctx = {
      hasUI: true,
      sessionManager: { getBranch: () => [] },
      ui: {
        custom: (factory: Factory) =>
          new Promise(() => {
            const c = factory(tui, theme, getKeybindings(), () => {});
            (c as { focused?: boolean }).focused = true;
            resolve(c);
          }),
        notify() {},
      },
    };
    void registered!.execute("bench", args, undefined, undefined, ctx);
  });
}

function questions(n: number, m: number, withValue: boolean) {
  return {
    questions: Array.from({ length: n }, (_, i) => ({
      id: `q${i + 1}`,
      label: `Question ${i + 1}`,
      prompt: `Question number ${i + 1}: which of these options fits best for the part of the system we are discussing?`,
      options: Array.from({ length: m }, (_, j) => ({
        ...(withValue ? { value: `v${j}` } : {}),
        label: `Option ${j + 1} — 日本語 ✨`,
        description: `Explains option ${j + 1} in a sentence`,
      })),
    })),
  };
}

const KEYS = ["\x1b[B", "\x1b[B", "\x1b[B", "\x1b[A", "\t", "\x1b[B", "\x1b[A", "\x1b[Z", "\x1b[B"];

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))];
}

function keystrokes(c: Component, warmup: number, runs: number): { median: number; p99: number } {
  c.render(WIDTH);
  for (let i = 0; i < warmup; i++) {
    c.handleInput(KEYS[i % KEYS.length]);
    c.render(WIDTH);
  }
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t = performance.now();
    c.handleInput(KEYS[i % KEYS.length]);
    c.render(WIDTH);
    times.push(performance.now() - t);
  }
  times.sort((a, b) => a - b);
  return { median: percentile(times, 0.5), p99: percentile(times, 0.99) };
}

const gc = (globalThis as { gc?: () => void }).gc;

async function retainedPerForm(open: () => Promise<Component>, count: number): Promise<number | undefined> {
  if (!gc) return undefined;
  gc();
  const before = process.memoryUsage().heapUsed;
  const kept: Component[] = [];
  for (let i = 0; i < count; i++) {
    const c = await open();
    c.render(WIDTH);
    kept.push(c);
  }
  gc();
  const after = process.memoryUsage().heapUsed;
  return kept.length ? (after - before) / kept.length : undefined;
}

function importTime(entry: string): number {
  const script = `const h = await import(${JSON.stringify(pathToFileURL(join(ROOT, "node_modules/@mariozechner/pi-coding-agent/dist/index.js")).href)});
const t = performance.now(); await import(${JSON.stringify(pathToFileURL(entry).href)}); console.log(performance.now() - t);`;
  const runs = [1, 2, 3].map(() =>
    Number(
      execFileSync(process.execPath, ["--import", "tsx", "--input-type=module", "-e", script], {
        cwd: ROOT,
        encoding: "utf8",
      }).trim(),
    ),
  );
  return runs.sort((a, b) => a - b)[1];
}

const fmt = (n: number | undefined, unit: string, digits = 3) =>
  n === undefined ? "—" : `${n.toFixed(digits)} ${unit}`;
const ratio = (a: number | undefined, b: number | undefined) =>
  a === undefined || b === undefined || b === 0 ? "—" : (a / b).toFixed(2);

const ours = (await import("../tools/index.js")).createFormchart({
  agentDir: join(ROOT, "node_modules", ".cache", "formchart-bench"),
}) as (pi: unknown) => void;
const theirs = (await import(pathToFileURL(THEIRS).href)).default as (pi: unknown) => void;

const rows: string[][] = [];
// [size, questions, options, keystrokes timed for ours, for theirs (their frame at 10,000 options takes seconds)]
const sizes: Array<[string, number, number, number, number]> = [
  ["1×3", 1, 3, 4000, 2000],
  ["4×5", 4, 5, 4000, 2000],
  ["12×20", 12, 20, 2000, 500],
  ["1×1,000", 1, 1000, 1000, 60],
  ["1×10,000", 1, 10000, 1000, 12],
];
for (const [name, n, m, runs, theirRuns] of sizes) {
  console.error(`… keystrokes ${name}`);
  const a = keystrokes(await openWith(ours, "question", questions(n, m, false)), runs, runs);
  const b = keystrokes(
    await openWith(theirs, "questionnaire", questions(n, m, true)),
    Math.ceil(theirRuns / 4),
    theirRuns,
  );
  rows.push([`keystroke→frame median, ${name}`, fmt(a.median, "ms"), fmt(b.median, "ms"), ratio(a.median, b.median)]);
  rows.push([`keystroke→frame p99, ${name}`, fmt(a.p99, "ms"), fmt(b.p99, "ms"), ratio(a.p99, b.p99)]);
}
console.error("… heap");
const heapOurs = await retainedPerForm(() => openWith(ours, "question", questions(4, 5, false)), 200);
const heapTheirs = await retainedPerForm(() => openWith(theirs, "questionnaire", questions(4, 5, true)), 200);
rows.push([
  "heap retained per open 4×5 form",
  fmt(heapOurs && heapOurs / 1024, "KiB", 1),
  fmt(heapTheirs && heapTheirs / 1024, "KiB", 1),
  ratio(heapOurs, heapTheirs),
]);
console.error("… import");
const importOurs = importTime(join(ROOT, "tools", "index.ts"));
const importTheirs = importTime(THEIRS);
rows.push([
  "import of the extension entry (Pi loaded)",
  fmt(importOurs, "ms", 1),
  fmt(importTheirs, "ms", 1),
  ratio(importOurs, importTheirs),
]);
const started = performance.now();
let paths = 0;
for (const name of exampleNames()) {
  const loaded = loadFormFile(name);
  if (!loaded.ok) throw new Error(loaded.message);
  paths += generatePaths(loaded.form.spec, createFormMachine(loaded.form.spec) as unknown as AnyStateMachine).length;
}
rows.push([
  `path generation, ${exampleNames().length} examples (${paths} paths)`,
  fmt(performance.now() - started, "ms", 0),
  "—",
  "—",
]);

const head = ["measure", "pi-formchart", "Pi questionnaire.ts", "ours/theirs"];
const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
const line = (cells: string[]) => `| ${cells.map((c, i) => c.padEnd(widths[i])).join(" | ")} |`;
console.log(
  `Machine: ${cpus()[0]?.model ?? "?"} × ${cpus().length}, ${(totalmem() / 2 ** 30).toFixed(0)} GiB, Node ${process.version}, width ${WIDTH}`,
);
console.log(line(head));
console.log(line(widths.map((w) => "-".repeat(w))));
for (const r of rows) console.log(line(r));
process.exit(0);
