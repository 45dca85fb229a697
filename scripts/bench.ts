/**
 * npm run bench: pi-formchart against Pi's own example extension
 * (examples/extensions/questionnaire.ts of the installed
 * @earendil-works/pi-coding-agent, loaded from node_modules, never copied),
 * both measured the way Pi runs them and in the same run.
 *
 * Every figure but the path generation comes from child processes running
 * plain Node (scripts/bench-child.ts, transpiled, no TypeScript hooks) that
 * load both extensions with Pi's own extension loader, as `pi` does:
 *
 * - load through Pi's loader, its file cache warm, and cold (jiti's cache
 *   redirected to an empty directory for each sample): a fresh process per
 *   sample, the two sides alternating; median, spread (min–max), CPU time;
 * - first form: tool call (prepareArguments, Pi's argument check, execute)
 *   to the first frame, a fresh process per sample; after the session
 *   started (as in Pi), and right after the load;
 * - keystroke → frame: `handleInput` + `render(120)`, both forms open in one
 *   process, equal warm-up and sample counts, alternating blocks; median and
 *   p99 of the wall time and of the CPU time of each key;
 * - heap retained per open form: forms of one spec opened and kept, after
 *   `gc()`; and forms each with questions of their own;
 * - the tool's own open time at 10,000 options, and keystrokes at 10,000
 *   options and 50 questions (pi-formchart only: the example takes seconds
 *   per key there).
 *
 * - the worst patterns a model may write, with a 10 kB default and a 10 kB
 *   paste: the argument check and keystroke → frame (the sources, in this
 *   process; scripts/bench-patterns.ts). `--patterns` runs only this row.
 *
 * Targets are checked here and printed beside the table (`✓` / `✗`); no test
 * times anything. `--quick` takes fewer samples (for trying things, not for
 * the table in docs/performance.md).
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { cpus, loadavg, totalmem } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { transformSync } from "esbuild";
import type { AnyStateMachine } from "xstate";
import { exampleNames, loadFormFile } from "../bin/form-file.js";
import { createFormMachine } from "../machines/form.js";
import { generatePaths } from "../machines/paths.js";
import { type FormRow, type KeyStats, type Samples, type Side, stats, type Task, type Timing } from "./bench-child.js";
import { patternFigures, printPatternFigures } from "./bench-patterns.js";

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..");
const PI_PACKAGE = join(ROOT, "node_modules", "@mariozechner", "pi-coding-agent");
const THEIRS_PATH = join(PI_PACKAGE, "examples", "extensions", "questionnaire.ts");
const pkg = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { pi: { extensions: string[] } };
/** What Pi loads of this package: the `pi.extensions` entry of package.json. */
const OURS: Side = { path: join(ROOT, pkg.pi.extensions[0]), tool: "question" };
const SOURCES: Side = { path: join(ROOT, "tools", "index.ts"), tool: "question" };
const THEIRS: Side = { path: THEIRS_PATH, tool: "questionnaire" };

const quick = process.argv.includes("--quick");
/** Only the open-form rows (keystrokes, heap, open time): for trying changes to the engine. */
const formsOnly = process.argv.includes("--forms");
const N = {
  loadWarm: quick ? 7 : 21,
  loadCold: quick ? 3 : 11,
  loadSources: quick ? 3 : 7,
  firstForm: quick ? 3 : 11,
  keys: quick ? 200 : 1000,
  // Until V8 has optimized what a key runs: steady state, as after the first minute of a session.
  keysWarmup: quick ? 200 : 2000,
  keysWarmupLong: quick ? 50 : 300,
  heapRounds: quick ? 1 : 3,
  closedWarmup: quick ? 300 : 1000,
  closedEvery: quick ? 300 : 1000,
  open: quick ? 5 : 15,
};

if (process.argv.includes("--patterns")) {
  printPatternFigures(quick);
  process.exit(0);
}

const WORK = join(ROOT, "node_modules", ".cache", "pi-formchart-bench");
rmSync(WORK, { recursive: true, force: true });
mkdirSync(WORK, { recursive: true });
const CHILD = join(WORK, "child.mjs");
writeFileSync(
  CHILD,
  transformSync(readFileSync(join(ROOT, "scripts", "bench-child.ts"), "utf8"), { loader: "ts", format: "esm" }).code,
);
/** Pi's settings directory for the children: Pi's defaults, nothing of the person running the benchmark. */
const AGENT_DIR = join(WORK, "agent");
/** The warm runs' temporary directory, where jiti keeps its file cache (os.tmpdir()/jiti). */
const WARM_TMP = join(WORK, "tmp-warm");
mkdirSync(WARM_TMP, { recursive: true });

const TASK = join(WORK, "task.json");

function child<T>(task: Task, tmpdir = WARM_TMP): T {
  const env: NodeJS.ProcessEnv = { ...process.env, PI_CODING_AGENT_DIR: AGENT_DIR, TMPDIR: tmpdir };
  delete env.NODE_OPTIONS;
  writeFileSync(TASK, JSON.stringify(task));
  const run = spawnSync(process.execPath, ["--expose-gc", CHILD, TASK], {
    cwd: ROOT,
    env,
    encoding: "utf8",
    maxBuffer: 64 * 1024 * 1024,
  });
  if (run.status !== 0)
    throw new Error(`benchmark child failed (${task.kind}): ${run.error?.message ?? ""}\n${run.stderr}`);
  return JSON.parse(run.stdout.trim().split("\n").pop() ?? "null") as T;
}

/** A cold sample: jiti's cache in a fresh empty directory, checked to have been used. */
function childCold<T>(task: Task): T {
  const tmp = mkdtempSync(join(WORK, "tmp-cold-"));
  try {
    const out = child<T>(task, tmp);
    const cache = join(tmp, "jiti");
    if (!existsSync(cache) || readdirSync(cache).length === 0)
      throw new Error(`jiti kept no cache in ${cache}: the cold runs would not be cold`);
    return out;
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}

interface Series {
  wall: number[];
  cpu: number[];
}
const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

/** Both sides, alternating which goes first in each round; `warmup` rounds are run and dropped. */
function alternate(
  sides: Array<[string, () => Timing]>,
  rounds: number,
  warmup: number,
  label: string,
): Map<string, Series> {
  const out = new Map(sides.map(([name]) => [name, { wall: [] as number[], cpu: [] as number[] }]));
  for (let r = 0; r < warmup + rounds; r++) {
    process.stderr.write(`\r… ${label} ${r + 1}/${warmup + rounds}   `);
    const order = r % 2 ? [...sides].reverse() : sides;
    for (const [name, run] of order) {
      const t = run();
      if (r >= warmup) {
        out.get(name)!.wall.push(t.wall);
        out.get(name)!.cpu.push(t.cpu);
      }
    }
  }
  process.stderr.write("\n");
  return out;
}

// ---------------------------------------------------------------------------
// Arguments: the same form for both, in each tool's own shape.

type Style = "ascii" | "cjk";
function labels(style: Style, j: number) {
  return style === "ascii"
    ? { label: `Option ${j + 1}`, description: `Explains option ${j + 1} in a sentence` }
    : { label: `選択肢 ${j + 1} — 日本語 ✨`, description: `説明 ${j + 1}: 絵文字 🚀 と 漢字` };
}
function questions(n: number, m: number, style: Style, theirs: boolean, form = 0) {
  return {
    questions: Array.from({ length: n }, (_, i) => ({
      id: `q${i + 1}`,
      label: `Question ${i + 1}`,
      prompt: `Question number ${i + 1} of form ${form}: which of these options fits best for the part of the system we are discussing?`,
      options: Array.from({ length: m }, (_, j) => ({ ...(theirs ? { value: `v${j}` } : {}), ...labels(style, j) })),
    })),
  };
}
const both = (n: number, m: number, style: Style = "ascii") => ({
  ours: questions(n, m, style, false),
  theirs: questions(n, m, style, true),
});

// ---------------------------------------------------------------------------
// The table.

interface Row {
  measure: string;
  ours: string;
  oursCpu: string;
  theirs: string;
  theirsCpu: string;
  ratio: string;
  target: string;
}
const rows: Row[] = [];
const ms = (n: number | undefined, digits = 1) => (n === undefined ? "—" : `${n.toFixed(digits)} ms`);
const kib = (n: number) => `${(n / 1024).toFixed(1)} KiB`;
const spread = (xs: number[], digits = 1) =>
  `${ms(median(xs), digits)} (${Math.min(...xs).toFixed(digits)}–${Math.max(...xs).toFixed(digits)})`;
const ratioOf = (a: number, b: number | undefined) => (b ? (a / b).toFixed(2) : "—");
const check = (ok: boolean, what: string) => `${ok ? "✓" : "✗"} ${what}`;

function seriesRow(measure: string, a: Series, b: Series | undefined, limit?: number) {
  const r = b ? median(a.wall) / median(b.wall) : undefined;
  rows.push({
    measure,
    ours: spread(a.wall),
    oursCpu: ms(median(a.cpu)),
    theirs: b ? spread(b.wall) : "—",
    theirsCpu: b ? ms(median(b.cpu)) : "—",
    ratio: b ? ratioOf(median(a.wall), median(b.wall)) : "—",
    target: limit === undefined || r === undefined ? "" : check(r <= limit, `≤ ${limit}×`),
  });
}

function keyRows(name: string, a: KeyStats, b: KeyStats | undefined, p99Limit?: { ms?: number; ratio?: number }) {
  const d = 3;
  rows.push({
    measure: `keystroke→frame median, ${name}`,
    ours: ms(a.p50, d),
    oursCpu: ms(a.cpuP50, d),
    theirs: ms(b?.p50, d),
    theirsCpu: ms(b?.cpuP50, d),
    ratio: ratioOf(a.p50, b?.p50),
    target: "",
  });
  const targets: string[] = [];
  if (p99Limit?.ms !== undefined) targets.push(check(a.p99 < p99Limit.ms, `< ${p99Limit.ms} ms`));
  if (p99Limit?.ratio !== undefined && b) targets.push(check(a.p99 <= b.p99 * p99Limit.ratio, `≤ ${p99Limit.ratio}×`));
  rows.push({
    measure: `keystroke→frame p99, ${name}`,
    ours: ms(a.p99, d),
    oursCpu: ms(a.cpuP99, d),
    theirs: ms(b?.p99, d),
    theirsCpu: ms(b?.cpuP99, d),
    ratio: ratioOf(a.p99, b?.p99),
    target: targets.join(", "),
  });
}

const started = new Date();
const loadBefore = loadavg();

if (!formsOnly) {
  // 1. Load through Pi's loader.
  const load = (side: Side) => () => child<Timing>({ kind: "load", root: ROOT, side });
  const loadCold = (side: Side) => () => childCold<Timing>({ kind: "load", root: ROOT, side });
  const warm = alternate(
    [
      ["ours", load(OURS)],
      ["theirs", load(THEIRS)],
    ],
    N.loadWarm,
    3,
    "load, cache warm",
  );
  seriesRow("load through Pi's loader, cache warm", warm.get("ours")!, warm.get("theirs")!, 2);
  const cold = alternate(
    [
      ["ours", loadCold(OURS)],
      ["theirs", loadCold(THEIRS)],
    ],
    N.loadCold,
    1,
    "load, cache cold",
  );
  seriesRow("load through Pi's loader, cache cold", cold.get("ours")!, cold.get("theirs")!, 1.5);
  const sources = alternate([["ours", load(SOURCES)]], N.loadSources, 1, "load from the sources");
  seriesRow("load of tools/index.ts (the sources), cache warm", sources.get("ours")!, warm.get("theirs")!);

  // 2. First form.
  const firstFormSizes: Array<[string, number, number]> = [
    ["1×3", 1, 3],
    ["4×5", 4, 5],
    ["12×20", 12, 20],
    ["1×1,000", 1, 1000],
  ];
  for (const [name, n, m] of firstFormSizes) {
    const args = both(n, m);
    const first = alternate(
      [
        ["ours", () => child<Timing>({ kind: "first-form", root: ROOT, side: OURS, args: args.ours, warm: true })],
        [
          "theirs",
          () => child<Timing>({ kind: "first-form", root: ROOT, side: THEIRS, args: args.theirs, warm: true }),
        ],
      ],
      N.firstForm,
      1,
      `first form ${name}`,
    );
    seriesRow(`first form (call → first frame), ${name}`, first.get("ours")!, first.get("theirs")!, 2);
  }
  {
    const args = both(1, 3);
    const first = alternate(
      [
        ["ours", () => child<Timing>({ kind: "first-form", root: ROOT, side: OURS, args: args.ours, warm: false })],
        [
          "theirs",
          () => child<Timing>({ kind: "first-form", root: ROOT, side: THEIRS, args: args.theirs, warm: false }),
        ],
      ],
      N.firstForm,
      1,
      "first form right after load",
    );
    seriesRow("first form right after the load (no session start), 1×3", first.get("ours")!, first.get("theirs")!);
  }
}

// 3. Open forms: keystrokes, heap, open time. Each side in processes of its own (the
// example's garbage is not collected on pi-formchart's time, nor the other way round),
// the order alternating from round to round.
const formsChild = <T>(side: Side, row: FormRow) => child<T>({ kind: "forms", root: ROOT, side, row });

/** Keystrokes: `rounds` processes per side, each with the same warm-up and its share of the samples. */
function keystrokes(name: string, args: { ours: unknown; theirs?: unknown }, typed?: number, warmup = N.keysWarmup) {
  const rounds = 2;
  const per = (a: unknown): FormRow => ({
    kind: "keys",
    args: a,
    warmup,
    samples: Math.ceil(N.keys / rounds),
    typed,
  });
  const sides: Array<[Side, unknown]> =
    args.theirs === undefined
      ? [[OURS, args.ours]]
      : [
          [OURS, args.ours],
          [THEIRS, args.theirs],
        ];
  const got = new Map<Side, Samples>(sides.map(([side]) => [side, { wall: [], cpu: [] }]));
  for (let r = 0; r < rounds; r++) {
    process.stderr.write(`\r… keystrokes ${name} ${r + 1}/${rounds}   `);
    for (const [side, a] of r % 2 ? [...sides].reverse() : sides) {
      const s = formsChild<Samples>(side, per(a));
      got.get(side)!.wall.push(...s.wall);
      got.get(side)!.cpu.push(...s.cpu);
    }
  }
  process.stderr.write("\n");
  const ours = got.get(OURS)!;
  const theirs = got.get(THEIRS);
  return { ours: stats(ours.wall, ours.cpu), theirs: theirs && stats(theirs.wall, theirs.cpu) };
}

const keyCases: Array<[string, { ours: unknown; theirs?: unknown }, number?, number?]> = [
  ["1×3", both(1, 3)],
  ["4×5", both(4, 5)],
  ["12×20", both(12, 20)],
  // The example takes ~50 ms a key here: a shorter warm-up, the same for both.
  ["1×1,000", both(1, 1000), undefined, N.keysWarmupLong],
  ["4×5, CJK and emoji", both(4, 5, "cjk")],
  ["12×20, CJK and emoji", both(12, 20, "cjk")],
  ["4×5, a 1 MB typed answer", both(4, 5), 1_000_000],
  ["1×10,000", { ours: questions(1, 10_000, "ascii", false) }],
  ["50×10", { ours: questions(50, 10, "ascii", false) }],
];
for (const [name, args, typed, warmup] of keyCases) {
  const { ours, theirs } = keystrokes(name, args, typed, warmup);
  keyRows(name, ours, theirs, !theirs ? { ms: 1 } : name === "4×5" ? { ms: 1, ratio: 1 } : undefined);
}

/** `forms` forms of one spec (what the issue measures), or each with questions of its own (`distinct`). */
const heapCases: Array<[string, number, number, number, boolean]> = [
  ["1×3", 1, 3, 200, false],
  ["4×5", 4, 5, 200, false],
  ["12×20", 12, 20, 50, false],
  ["1×1,000", 1, 1000, 20, false],
  ["4×5, each form different", 4, 5, 100, true],
];
for (const [name, n, m, forms, distinct] of heapCases) {
  const argsOf = (theirs: boolean) =>
    Array.from({ length: forms }, (_, k) => questions(n, m, "ascii", theirs, distinct ? k : 0));
  const heap = alternate(
    [
      ["ours", () => ({ wall: formsChild<number>(OURS, { kind: "heap", args: argsOf(false) }), cpu: 0 })],
      ["theirs", () => ({ wall: formsChild<number>(THEIRS, { kind: "heap", args: argsOf(true) }), cpu: 0 })],
    ],
    N.heapRounds,
    0,
    `heap ${name}`,
  );
  const a = median(heap.get("ours")!.wall);
  const b = median(heap.get("theirs")!.wall);
  rows.push({
    measure: `heap retained per open form, ${name}`,
    ours: kib(a),
    oursCpu: "",
    theirs: kib(b),
    theirsCpu: "",
    ratio: ratioOf(a, b),
    target: name === "4×5" ? check(a <= b, "≤ 1×") : "",
  });
}

{
  // A long session: forms opened, answered and closed one after another, each with texts of its own.
  const closedForms = (side: Side, theirs: boolean) => () => ({
    wall: formsChild<number>(side, {
      kind: "closed",
      args: questions(4, 5, "ascii", theirs),
      warmup: N.closedWarmup,
      checkpoints: 10,
      every: N.closedEvery,
    }),
    cpu: 0,
  });
  const closed = alternate(
    [
      ["ours", closedForms(OURS, false)],
      ["theirs", closedForms(THEIRS, true)],
    ],
    1,
    0,
    "heap per closed form",
  );
  const a = median(closed.get("ours")!.wall);
  const b = median(closed.get("theirs")!.wall);
  rows.push({
    measure: "heap growth per closed form, 4×5, each form different",
    ours: `${a.toFixed(0)} B`,
    oursCpu: "",
    theirs: `${b.toFixed(0)} B`,
    theirsCpu: "",
    ratio: "—",
    target: "",
  });
}

{
  process.stderr.write("… the tool's own open time\n");
  const s = formsChild<Samples>(OURS, {
    kind: "open",
    args: questions(1, 10_000, "ascii", false),
    warmup: 3,
    samples: N.open,
  });
  const open = stats(s.wall, s.cpu);
  rows.push({
    measure: "the tool's own open time (execute → first frame), 1×10,000",
    ours: `${ms(open.p50)} (p99 ${ms(open.p99)})`,
    oursCpu: ms(open.cpuP50),
    theirs: "—",
    theirsCpu: "—",
    ratio: "—",
    target: check(open.p50 < 20, "< 20 ms"),
  });
}

// 4. Path generation (the sources, in this process).
{
  const t = performance.now();
  let paths = 0;
  for (const name of exampleNames()) {
    const loaded = loadFormFile(name);
    if (!loaded.ok) throw new Error(loaded.message);
    paths += generatePaths(loaded.form.spec, createFormMachine(loaded.form.spec) as unknown as AnyStateMachine).length;
  }
  rows.push({
    measure: `path generation, ${exampleNames().length} examples (${paths} paths)`,
    ours: ms(performance.now() - t, 0),
    oursCpu: "",
    theirs: "—",
    theirsCpu: "",
    ratio: "—",
    target: "",
  });
}

// 5. The worst patterns and a 10 kB paste (the sources, in this process).
for (const f of patternFigures(quick)) {
  rows.push({
    measure: `pattern: ${f.measure}`,
    ours: `${ms(f.median)} (p90 ${f.p90.toFixed(1)}, max ${f.max.toFixed(1)})`,
    oursCpu: `${ms(f.cpuMedian)} (max ${f.cpuMax.toFixed(1)})`,
    theirs: "—",
    theirsCpu: "",
    ratio: "—",
    target: check(f.ok, "CPU < 50 ms"),
  });
}

const head: Row = {
  measure: "measure",
  ours: "pi-formchart",
  oursCpu: "CPU",
  theirs: "Pi questionnaire.ts",
  theirsCpu: "CPU",
  ratio: "ours/theirs",
  target: "target",
};
const keysOf = Object.keys(head) as Array<keyof Row>;
const widths = keysOf.map((k) => Math.max(...[head, ...rows].map((r) => [...r[k]].length)));
const line = (r: Row) =>
  `| ${keysOf.map((k, i) => r[k].padEnd(widths[i] + r[k].length - [...r[k]].length)).join(" | ")} |`;
const cpu = cpus();
console.log(
  `Machine: ${cpu[0]?.model.trim() ?? "?"} × ${cpu.length}, ${(totalmem() / 2 ** 30).toFixed(0)} GiB, Node ${process.version}, ` +
    `Pi ${JSON.parse(readFileSync(join(PI_PACKAGE, "package.json"), "utf8")).version}, ${started.toISOString().slice(0, 10)}`,
);
console.log(
  `Load average (1 min) at start ${loadBefore[0].toFixed(2)}, at end ${loadavg()[0].toFixed(2)}${quick ? "; --quick: few samples" : ""}`,
);
console.log(line(head));
console.log(`| ${widths.map((w) => "-".repeat(w)).join(" | ")} |`);
for (const r of rows) console.log(line(r));
rmSync(WORK, { recursive: true, force: true });
process.exit(0);
