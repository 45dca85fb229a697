/**
 * npm run bench: pi-formchart against Pi's own example extension
 * (examples/extensions/questionnaire.ts of the installed Pi, loaded from
 * node_modules, never copied), both measured the way Pi runs them and in the
 * same run, on two hosts: Pi 1.6 (`@earendil-works/pi-coding-agent`, on a
 * Node it accepts: the main column, where the targets are checked) and Pi
 * 0.73.1 (`@mariozechner/pi-coding-agent`, each side against 0.73.1's own
 * example, on the machine's own Node when that is older than 22, as its users
 * run it).
 *
 * Every timed figure comes from child processes running plain Node
 * (scripts/bench-child.ts, transpiled, no TypeScript hooks) that load both
 * extensions with the host's own extension loader, as `pi` does:
 *
 * - load through Pi's loader, its file cache warm, and cold (jiti's cache
 *   redirected to an empty directory for each sample): a fresh process per
 *   sample, the two sides alternating; median, spread (min–max), CPU time;
 * - first form: tool call (prepareArguments, Pi's argument check, execute)
 *   to the first frame, a fresh process per sample; after the session
 *   started (as in Pi), and right after the load;
 * - keystroke → frame: `handleInput` + `render(width)` at widths 80 and 120,
 *   each side in processes of its own, equal warm-up and sample counts, the
 *   order alternating; median and p99 of the wall time and of the CPU time of
 *   each key; the mixed script moves, selects, types and goes between tabs,
 *   the same work on both sides (scripts/bench-child.ts, `mixedScript`), and
 *   ↑/↓ alone; bytes allocated per key of the mixed script;
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
 * What the model sees is measured, not estimated: the real `pi` of each host
 * in print mode against the scripted model server of the end-to-end tests;
 * the first request's tool declarations and system message, in characters
 * (scripts/bench-footprint.ts).
 *
 * Targets are checked here and printed beside the table (`✓` / `✗`); no test
 * times anything. `--quick` takes fewer samples (for trying things, not for
 * the table in docs/performance.md); `--forms` runs only the rows of open
 * forms, `--footprint` only what the model sees, `--load` only the load rows,
 * `--keys` only ↑/↓, the mixed script, the first keys on a fresh form,
 * repeated opens and the bytes allocated per key, `--review` only the review
 * pages of the largest forms the tools accept (scripts/bench-review.ts), `--web`
 * only the browser tab's key → frame and start → first frame (scripts/bench-web.ts).
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
import { generatePaths } from "../renderers/inspect/paths.js";
import {
  type FormRow,
  type KeyStats,
  type PiScope,
  type Samples,
  type Side,
  stats,
  type Task,
  type Timing,
} from "./bench-child.js";
import { footprint, printFootprint } from "./bench-footprint.js";
import { patternFigures, printPatternFigures } from "./bench-patterns.js";
import { printReviewFigures } from "./bench-review.js";
import { printWebFigures } from "./bench-web.js";

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..");
const pkg = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { pi: { extensions: string[] } };
/** What Pi loads of this package: the `pi.extensions` entry of package.json. */
const OURS: Side = { path: join(ROOT, pkg.pi.extensions[0]), tool: "question" };
const SOURCES: Side = { path: join(ROOT, "tools", "index.ts"), tool: "question" };

const quick = process.argv.includes("--quick");
/** Only the open-form rows (keystrokes, heap, open time): for trying changes to the engine. */
const formsOnly = process.argv.includes("--forms");
/** Only what the model sees. */
const footprintOnly = process.argv.includes("--footprint");
/** Only the load rows: for trying changes to what Pi loads at start. */
const loadOnly = process.argv.includes("--load");
/** Only the rows of what one key costs beside the mixed script (↑/↓, first keys, repeated opens). */
const keysOnly = process.argv.includes("--keys");

/** The major and minor version of the Node at `node`. */
function nodeVersion(node: string): string {
  const run = spawnSync(node, ["-p", "process.versions.node"], { encoding: "utf8" });
  if (run.status !== 0) throw new Error(`${node} does not run: ${run.stderr}`);
  return run.stdout.trim();
}

interface Host {
  /** "Pi 1.6.0" */
  name: string;
  scope: PiScope;
  /** The installed Pi package. */
  dir: string;
  /** The Node its children run on. */
  node: string;
  nodeVersion: string;
  /** Its CLI, from the package's own `bin` field. */
  cli: string;
  /** Its own examples/extensions/questionnaire.ts. */
  theirs: Side;
  /** Its own examples/extensions/question.ts. */
  question: Side;
}

function host(scope: PiScope, node: string): Host {
  const dir = join(ROOT, "node_modules", scope, "pi-coding-agent");
  const manifest = JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) as {
    version: string;
    bin: string | Record<string, string>;
  };
  const bin = typeof manifest.bin === "string" ? manifest.bin : manifest.bin.pi;
  const examples = join(dir, "examples", "extensions");
  return {
    name: `Pi ${manifest.version}`,
    scope,
    dir,
    node,
    nodeVersion: nodeVersion(node),
    cli: join(dir, bin),
    theirs: { path: join(examples, "questionnaire.ts"), tool: "questionnaire" },
    question: { path: join(examples, "question.ts"), tool: "question" },
  };
}

/** Pi 0.73.1 on the machine's own Node when that is older than 22 (scripts/with-node.sh names it), as its users run it. */
function oldNode(): string {
  const system = process.env.FORMCHART_SYSTEM_NODE;
  if (system && existsSync(system) && Number(nodeVersion(system).split(".")[0]) < 22) return system;
  return process.execPath;
}
/** The main column: Pi 1.6, where the targets are checked. */
const NEW = host("@earendil-works", process.execPath);
/** The second column: Pi 0.73.1, the last release under the old names. */
const OLD = host("@mariozechner", oldNode());
const HOSTS = [NEW, OLD];

const N = {
  loadWarm: quick ? 7 : 21,
  loadCold: quick ? 3 : 11,
  loadSources: quick ? 3 : 7,
  firstForm: quick ? 3 : 11,
  keys: quick ? 200 : 1000,
  // Until V8 has optimized what a key runs: steady state, as after the first minute of a session.
  keysWarmup: quick ? 200 : 2000,
  keysWarmupLong: quick ? 50 : 300,
  firstKeys: quick ? 10 : 40,
  opens: quick ? 50 : 300,
  keyCostRounds: quick ? 2 : 6,
  heapRounds: quick ? 1 : 3,
  closedWarmup: quick ? 300 : 1000,
  closedEvery: quick ? 300 : 1000,
  open: quick ? 5 : 15,
};

if (process.argv.includes("--patterns")) {
  printPatternFigures(quick);
  process.exit(0);
}

if (process.argv.includes("--review")) {
  await printReviewFigures();
  process.exit(0);
}

if (process.argv.includes("--web")) {
  await printWebFigures(quick);
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
/** The warm runs' temporary directories (one per host), where jiti keeps its file cache (os.tmpdir()/jiti). */
const warmTmp = (h: Host) => join(WORK, `tmp-warm-${h.scope.slice(1)}`);
for (const h of HOSTS) mkdirSync(warmTmp(h), { recursive: true });

const TASK = join(WORK, "task.json");

/** A task without the host's part, which `child` fills in (each kind of task on its own). */
type Work = Without<Task, "root" | "pi">;
type Without<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;

function child<T>(h: Host, work: Work, tmpdir = warmTmp(h)): T {
  const env: NodeJS.ProcessEnv = { ...process.env, PI_CODING_AGENT_DIR: AGENT_DIR, TMPDIR: tmpdir };
  delete env.NODE_OPTIONS;
  const task = { ...work, root: ROOT, pi: h.scope } as Task;
  writeFileSync(TASK, JSON.stringify(task));
  const run = spawnSync(h.node, ["--expose-gc", CHILD, TASK], {
    cwd: ROOT,
    env,
    encoding: "utf8",
    maxBuffer: 64 * 1024 * 1024,
  });
  if (run.status !== 0)
    throw new Error(`benchmark child failed (${h.name}, ${task.kind}): ${run.error?.message ?? ""}\n${run.stderr}`);
  return JSON.parse(run.stdout.trim().split("\n").pop() ?? "null") as T;
}

/** A cold sample: jiti's cache in a fresh empty directory, checked to have been used. */
function childCold<T>(h: Host, work: Work): T {
  const tmp = mkdtempSync(join(WORK, "tmp-cold-"));
  try {
    const out = child<T>(h, work, tmp);
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

/** pi-formchart and the host's example, alternating. */
function pair(h: Host, run: (side: Side) => Timing, rounds: number, warmup: number, label: string) {
  const got = alternate(
    [
      ["ours", () => run(OURS)],
      ["theirs", () => run(h.theirs)],
    ],
    rounds,
    warmup,
    `${label} (${h.name})`,
  );
  return { ours: got.get("ours")!, theirs: got.get("theirs")! };
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
// The table: one row per measure, a cell per host.

interface Cell {
  ours: string;
  oursCpu: string;
  theirs: string;
  theirsCpu: string;
  ratio: string;
}
interface Row {
  measure: string;
  /** Pi 1.6, then Pi 0.73.1; a row measured on one host only has no cell for the other. */
  cells: Map<Host, Cell>;
  /** Checked on the main host. */
  target: string;
}
const rows: Row[] = [];
const ms = (n: number | undefined, digits = 1) => (n === undefined ? "—" : `${n.toFixed(digits)} ms`);
const kib = (n: number) => `${(n / 1024).toFixed(1)} KiB`;
const spread = (xs: number[], digits = 1) =>
  `${ms(median(xs), digits)} (${Math.min(...xs).toFixed(digits)}–${Math.max(...xs).toFixed(digits)})`;
const ratioOf = (a: number, b: number | undefined) => (b ? (a / b).toFixed(2) : "—");
const check = (ok: boolean, what: string) => `${ok ? "✓" : "✗"} ${what}`;

function seriesCell(a: Series, b: Series | undefined): Cell {
  return {
    ours: spread(a.wall),
    oursCpu: ms(median(a.cpu)),
    theirs: b ? spread(b.wall) : "—",
    theirsCpu: b ? ms(median(b.cpu)) : "—",
    ratio: b ? ratioOf(median(a.wall), median(b.wall)) : "—",
  };
}

/** A key's p99 under `ms` (a series' median at most); median and p99 at most `ratio` times the example's. */
type Limits = { ms?: number; ratio?: number };
/** No key over 1 ms p99 at any size the tools accept; at the headline sizes, ↑/↓ and the mixed script ≤ 1× the example. */
const ANY_KEY: Limits = { ms: 1 };
const HEADLINE_KEY: Limits = { ms: 1, ratio: 1 };

/** A row of timings on each host, its median on the main host against `limits`. */
function seriesRow(measure: string, got: Map<Host, { ours: Series; theirs?: Series }>, limits: Limits = {}) {
  const cells = new Map<Host, Cell>();
  for (const [h, { ours, theirs }] of got) cells.set(h, seriesCell(ours, theirs));
  const { ours, theirs } = got.get(NEW)!;
  const { ms: under, ratio } = limits;
  const targets = [under !== undefined && check(median(ours.wall) <= under, `≤ ${under} ms`)];
  if (ratio !== undefined && theirs)
    targets.push(check(median(ours.wall) <= ratio * median(theirs.wall), `≤ ${ratio}×`));
  rows.push({ measure, cells, target: targets.filter(Boolean).join(", ") });
}

function keyRows(name: string, got: Map<Host, { ours: KeyStats; theirs?: KeyStats }>, limits: Limits = {}) {
  const d = 3;
  for (const which of ["median", "p99"] as const) {
    const pick = (k: KeyStats | undefined) => (which === "median" ? k?.p50 : k?.p99);
    const pickCpu = (k: KeyStats | undefined) => (which === "median" ? k?.cpuP50 : k?.cpuP99);
    const cells = new Map<Host, Cell>();
    for (const [h, { ours, theirs }] of got)
      cells.set(h, {
        ours: ms(pick(ours), d),
        oursCpu: ms(pickCpu(ours), d),
        theirs: ms(pick(theirs), d),
        theirsCpu: ms(pickCpu(theirs), d),
        ratio: ratioOf(pick(ours)!, pick(theirs)),
      });
    const main = got.get(NEW);
    const targets: string[] = [];
    if (main && which === "p99" && limits.ms !== undefined)
      targets.push(check(main.ours.p99 < limits.ms, `< ${limits.ms} ms`));
    if (main?.theirs && limits.ratio !== undefined)
      targets.push(check(pick(main.ours)! <= pick(main.theirs)! * limits.ratio, `≤ ${limits.ratio}×`));
    rows.push({ measure: `keystroke→frame ${which}, ${name}`, cells, target: targets.join(", ") });
  }
}

const started = new Date();
const loadBefore = loadavg();

if (!formsOnly && !footprintOnly && !keysOnly) {
  // 1. Load through Pi's loader.
  const warm = new Map(
    HOSTS.map((h) => [
      h,
      pair(h, (side) => child<Timing>(h, { kind: "load", side }), N.loadWarm, 3, "load, cache warm"),
    ]),
  );
  seriesRow("load through Pi's loader, cache warm", warm, { ratio: 1.5 });
  const cold = new Map(
    HOSTS.map((h) => [
      h,
      pair(h, (side) => childCold<Timing>(h, { kind: "load", side }), N.loadCold, 1, "load, cache cold"),
    ]),
  );
  seriesRow("load through Pi's loader, cache cold", cold, { ratio: 1 });
  const sources = alternate(
    [["ours", () => child<Timing>(NEW, { kind: "load", side: SOURCES })]],
    N.loadSources,
    1,
    `load from the sources (${NEW.name})`,
  );
  seriesRow(
    "load of tools/index.ts (the sources), cache warm",
    new Map([[NEW, { ours: sources.get("ours")!, theirs: warm.get(NEW)!.theirs }]]),
  );

  // 2. First form: after the session started (the engine warms in the background), and right after the load.
  if (!loadOnly) firstForms();
}

function firstForms(): void {
  const firstFormSizes: Array<[string, number, number]> = [
    ["1×3", 1, 3],
    ["4×5", 4, 5],
    ["12×20", 12, 20],
    ["1×1,000", 1, 1000],
  ];
  const firstForm = (name: string, n: number, m: number, warm: boolean) => {
    const args = both(n, m);
    return new Map(
      HOSTS.map((h) => [
        h,
        pair(
          h,
          (side) => child<Timing>(h, { kind: "first-form", side, args: side === OURS ? args.ours : args.theirs, warm }),
          N.firstForm,
          1,
          `first form ${name}${warm ? "" : " right after load"}`,
        ),
      ]),
    );
  };
  for (const [name, n, m] of firstFormSizes)
    seriesRow(`first form after session_start (call → first frame), ${name}`, firstForm(name, n, m, true), {
      ratio: 1,
    });
  seriesRow("first form right after the load (no session_start), 1×3", firstForm("1×3", 1, 3, false));
}

// 3. Open forms: keystrokes, heap, open time. Each side in processes of its own (the
// example's garbage is not collected on pi-formchart's time, nor the other way round),
// the order alternating from round to round.
const formsChild = <T>(h: Host, side: Side, row: FormRow) => child<T>(h, { kind: "forms", side, row });

/** Keystrokes on one host: `rounds` processes per side, each with the same warm-up and its share of the samples. */
function keystrokes(
  h: Host,
  name: string,
  args: { ours: unknown; theirs?: unknown },
  width: number,
  typed?: number,
  warmup = N.keysWarmup,
  script?: "updown",
) {
  const rounds = 2;
  const per = (a: unknown): FormRow => ({
    kind: "keys",
    args: a,
    width,
    warmup,
    samples: Math.ceil(N.keys / rounds),
    typed,
    script,
  });
  const sides: Array<[Side, unknown]> =
    args.theirs === undefined
      ? [[OURS, args.ours]]
      : [
          [OURS, args.ours],
          [h.theirs, args.theirs],
        ];
  const got = new Map<Side, Samples>(sides.map(([side]) => [side, { wall: [], cpu: [] }]));
  for (let r = 0; r < rounds; r++) {
    process.stderr.write(`\r… keystrokes ${name} (${h.name}) ${r + 1}/${rounds}   `);
    for (const [side, a] of r % 2 ? [...sides].reverse() : sides) {
      const s = formsChild<Samples>(h, side, per(a));
      got.get(side)!.wall.push(...s.wall);
      got.get(side)!.cpu.push(...s.cpu);
    }
  }
  process.stderr.write("\n");
  const ours = got.get(OURS)!;
  const theirs = got.get(h.theirs);
  return { ours: stats(ours.wall, ours.cpu), theirs: theirs && stats(theirs.wall, theirs.cpu) };
}

if (keysOnly) keyCostRows();
else if (!footprintOnly && !loadOnly) {
  // The headline sizes at both widths, on both hosts; the same keys on both sides.
  const keySizes: Array<[string, number, number, number?]> = [
    ["1×3", 1, 3],
    ["4×5", 4, 5],
    ["12×20", 12, 20],
    // The example takes tens of milliseconds a key here: a shorter warm-up, the same for both.
    ["1×1,000", 1, 1000, N.keysWarmupLong],
  ];
  for (const width of [80, 120])
    for (const [name, n, m, warmup] of keySizes) {
      const args = both(n, m);
      const got = new Map(
        HOSTS.map((h) => [h, keystrokes(h, `${name}, ${width} wide`, args, width, undefined, warmup)]),
      );
      keyRows(`${name}, ${width} wide`, got, warmup ? ANY_KEY : HEADLINE_KEY);
    }
  // Further shapes, on the main host at 120 columns.
  const extraKeys: Array<[string, { ours: unknown; theirs?: unknown }, number?]> = [
    ["4×5, CJK and emoji", both(4, 5, "cjk")],
    ["12×20, CJK and emoji", both(12, 20, "cjk")],
    ["4×5, a 1 MB typed answer", both(4, 5), 1_000_000],
    ["1×10,000", { ours: questions(1, 10_000, "ascii", false) }],
    ["50×10", { ours: questions(50, 10, "ascii", false) }],
  ];
  for (const [name, args, typed] of extraKeys) {
    const got = keystrokes(NEW, `${name}, 120 wide`, args, 120, typed);
    keyRows(`${name}, 120 wide`, new Map([[NEW, got]]), ANY_KEY);
  }

  keyCostRows();

  /** `forms` forms of one spec, or each with questions of its own (`distinct`). */
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
    const cells = new Map<Host, Cell>();
    let target = "";
    for (const h of HOSTS) {
      const heap = pair(
        h,
        (side) => ({ wall: formsChild<number>(h, side, { kind: "heap", args: argsOf(side !== OURS) }), cpu: 0 }),
        N.heapRounds,
        0,
        `heap ${name}`,
      );
      const a = median(heap.ours.wall);
      const b = median(heap.theirs.wall);
      cells.set(h, { ours: kib(a), oursCpu: "", theirs: kib(b), theirsCpu: "", ratio: ratioOf(a, b) });
      if (h === NEW && name === "4×5") target = check(a <= b, "≤ 1×");
    }
    rows.push({ measure: `heap retained per open form, ${name}`, cells, target });
  }

  {
    // A long session: forms opened, answered and closed one after another, each with texts of its own.
    const closed = pair(
      NEW,
      (side) => ({
        wall: formsChild<number>(NEW, side, {
          kind: "closed",
          args: questions(4, 5, "ascii", side !== OURS),
          warmup: N.closedWarmup,
          checkpoints: 10,
          every: N.closedEvery,
        }),
        cpu: 0,
      }),
      1,
      0,
      "heap per closed form",
    );
    const a = median(closed.ours.wall);
    const b = median(closed.theirs.wall);
    rows.push({
      measure: "heap growth per closed form, 4×5, each form different",
      cells: new Map([
        [NEW, { ours: `${a.toFixed(0)} B`, oursCpu: "", theirs: `${b.toFixed(0)} B`, theirsCpu: "", ratio: "—" }],
      ]),
      target: "",
    });
  }

  {
    process.stderr.write("… the tool's own open time\n");
    const s = formsChild<Samples>(NEW, OURS, {
      kind: "open",
      args: questions(1, 10_000, "ascii", false),
      warmup: 3,
      samples: N.open,
    });
    const open = stats(s.wall, s.cpu);
    rows.push({
      measure: "the tool's own open time (execute → first frame), 1×10,000",
      cells: new Map([
        [
          NEW,
          {
            ours: `${ms(open.p50)} (p99 ${ms(open.p99)})`,
            oursCpu: ms(open.cpuP50),
            theirs: "—",
            theirsCpu: "—",
            ratio: "—",
          },
        ],
      ]),
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
      paths += generatePaths(
        loaded.form.spec,
        createFormMachine(loaded.form.spec) as unknown as AnyStateMachine,
      ).length;
    }
    rows.push({
      measure: `path generation, ${exampleNames().length} examples (${paths} paths)`,
      cells: new Map([
        [NEW, { ours: ms(performance.now() - t, 0), oursCpu: "", theirs: "—", theirsCpu: "", ratio: "—" }],
      ]),
      target: "",
    });
  }
}

/**
 * What one key costs beside the mixed script: ↑/↓ alone, the first keys on a
 * fresh form, and opening the same form again and again (execute → first
 * frame), each against the example, interleaved as above.
 */
function keyCostRows(): void {
  // One process's samples as one timing: its medians (each side in processes of its own, alternating).
  const medians = (s: Samples): Timing => ({ wall: median(s.wall), cpu: median(s.cpu) });
  const sizes: Array<[string, number, number]> = [
    ["1×3", 1, 3],
    ["4×5", 4, 5],
    ["12×20", 12, 20],
  ];
  for (const width of [80, 120])
    for (const [name, n, m] of sizes) {
      const got = new Map([
        [NEW, keystrokes(NEW, `↑/↓ ${name}, ${width} wide`, both(n, m), width, undefined, undefined, "updown")],
      ]);
      keyRows(`↑/↓ only, ${name}, ${width} wide`, got, HEADLINE_KEY);
    }
  for (const [name, n, m] of sizes.slice(0, 2)) {
    const args = both(n, m);
    const got = pair(
      NEW,
      (side) =>
        medians(
          formsChild<Samples>(NEW, side, {
            kind: "first-keys",
            args: side === OURS ? args.ours : args.theirs,
            width: 120,
            keys: 5,
            warmup: 0,
            samples: N.firstKeys,
          }),
        ),
      N.keyCostRounds,
      0,
      `first 5 keys ${name}`,
    );
    seriesRow(`first 5 keys on a fresh form (keys + frames), ${name}, 120 wide`, new Map([[NEW, got]]), { ratio: 1 });
  }
  // Every open after the first, at each size: what a form's shape determines is made once and shared.
  for (const [name, n, m] of sizes) {
    const opens = pair(
      NEW,
      (side) =>
        medians(
          formsChild<Samples>(NEW, side, {
            kind: "open",
            args: side === OURS ? both(n, m).ours : both(n, m).theirs,
            warmup: 20,
            samples: N.opens,
          }),
        ),
      N.keyCostRounds,
      0,
      `repeated opens ${name}`,
    );
    seriesRow(`repeated opens (execute → first frame), ${name}`, new Map([[NEW, opens]]), { ratio: 1 });
  }
  // The full run has the mixed script's rows with the keystrokes above; --keys prints them here.
  if (keysOnly) mixedRows(sizes);
  allocationRows(sizes);
}

/** The mixed script (moves, selects, types, goes between tabs; the same work on both sides) at each size and width. */
function mixedRows(sizes: Array<[string, number, number]>): void {
  for (const width of [80, 120])
    for (const [name, n, m] of sizes) {
      const got = new Map([[NEW, keystrokes(NEW, `mixed ${name}, ${width} wide`, both(n, m), width)]]);
      keyRows(`mixed script, ${name}, ${width} wide`, got, HEADLINE_KEY);
    }
}

/** Bytes allocated per key of the mixed script, each side in processes of its own, alternating. */
function allocationRows(sizes: Array<[string, number, number]>): void {
  for (const [name, n, m] of sizes) {
    const args = both(n, m);
    const got = pair(
      NEW,
      (side) => ({
        wall: formsChild<number>(NEW, side, {
          kind: "alloc",
          args: side === OURS ? args.ours : args.theirs,
          width: 120,
          warmup: N.keysWarmup,
          samples: N.keys,
        }),
        cpu: 0,
      }),
      N.keyCostRounds,
      0,
      `allocation per key ${name}`,
    );
    const a = median(got.ours.wall);
    const b = median(got.theirs.wall);
    rows.push({
      measure: `allocation per key (mixed script), ${name}, 120 wide`,
      cells: new Map([[NEW, { ours: kib(a), oursCpu: "", theirs: kib(b), theirsCpu: "", ratio: ratioOf(a, b) }]]),
      target: "",
    });
  }
}

// 5. The worst patterns and a 10 kB paste (the sources, in this process; Pi 1.6's packages).
if (!footprintOnly && !loadOnly && !keysOnly)
  for (const f of patternFigures(quick)) {
    rows.push({
      measure: `pattern: ${f.measure}`,
      cells: new Map([
        [
          NEW,
          {
            ours: `${ms(f.median)} (p90 ${f.p90.toFixed(1)}, max ${f.max.toFixed(1)})`,
            oursCpu: `${ms(f.cpuMedian)} (max ${f.cpuMax.toFixed(1)})`,
            theirs: "—",
            theirsCpu: "",
            ratio: "—",
          },
        ],
      ]),
      target: check(f.ok, "CPU < 50 ms"),
    });
  }

// 6. What the model sees: the first request of the real `pi` of each host.
const seen = formsOnly || loadOnly || keysOnly ? undefined : await footprint(ROOT, HOSTS, WORK);

/** A Markdown table, columns padded to the widest cell (by code points). */
function table(head: string[], body: string[][]): string[] {
  const widths = head.map((_, i) => Math.max(...[head, ...body].map((r) => [...(r[i] ?? "")].length)));
  const line = (r: string[]) => `| ${r.map((c, i) => c.padEnd(widths[i] + c.length - [...c].length)).join(" | ")} |`;
  return [line(head), `| ${widths.map((w) => "-".repeat(w)).join(" | ")} |`, ...body.map(line)];
}

const cpu = cpus();
console.log(
  `Machine: ${cpu[0]?.model.trim() ?? "?"} × ${cpu.length}, ${(totalmem() / 2 ** 30).toFixed(0)} GiB, ` +
    HOSTS.map((h) => `${h.name} on Node v${h.nodeVersion}`).join(", ") +
    `, ${started.toISOString().slice(0, 10)}`,
);
console.log(
  `Load average (1 min) at start ${loadBefore[0].toFixed(2)}, at end ${loadavg()[0].toFixed(2)}${quick ? "; --quick: few samples" : ""}`,
);
if (rows.length) {
  const empty: Cell = { ours: "—", oursCpu: "", theirs: "—", theirsCpu: "", ratio: "—" };
  const body = rows.map((r) => {
    const a = r.cells.get(NEW) ?? empty;
    const b = r.cells.get(OLD) ?? empty;
    return [r.measure, a.ours, a.oursCpu, a.theirs, a.theirsCpu, a.ratio, r.target, b.ours, b.theirs, b.ratio];
  });
  const head = [
    "measure",
    `pi-formchart, ${NEW.name}`,
    "CPU",
    `questionnaire.ts, ${NEW.name}`,
    "CPU",
    "ours/theirs",
    "target",
    `pi-formchart, ${OLD.name}`,
    `questionnaire.ts, ${OLD.name}`,
    "ours/theirs",
  ];
  for (const l of table(head, body)) console.log(l);
}
if (seen) {
  console.log("");
  for (const l of printFootprint(seen, NEW, OLD, table)) console.log(l);
}
rmSync(WORK, { recursive: true, force: true });
process.exit(0);
