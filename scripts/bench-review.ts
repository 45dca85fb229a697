/**
 * The benchmark's review rows: the review page and the page of a change of
 * the largest forms the tools accept (`npm run bench -- --review` prints only
 * them), built on the sources in this process, each form once:
 *
 * - 50 `question` questions (its limit), 20 `ask_rich_questions` questions
 *   and 4 `question_branch` questions whose conditions use every operator;
 *   each page's change adds an option, or moves a condition's boundary;
 * - the routes: how many, and how long the search took;
 * - the page and the change's page: wall time, the CPU time of the whole
 *   process (the Graphviz thread and the garbage collector included) and of
 *   its main thread alone, against the target of 15 s;
 * - the longest stretch of the main thread's own work while the page is
 *   built (what a key pressed in Pi would wait for), against 100 ms.
 *
 * On a machine others share, the wall time carries their load; the CPU
 * times are what the work itself cost.
 */
import { loadavg } from "node:os";
import { createFormMachine } from "../machines/form.js";
import type { FormSpec } from "../machines/spec.js";
import { generatePaths } from "../renderers/inspect/paths.js";
import { formDiff, formDiffPage } from "../renderers/review/diff.js";
import { reviewPage } from "../renderers/review/page.js";
import type { ReviewForm } from "../renderers/review/types.js";
import { prepareFormFile } from "../tools/engine/catalog.js";
import { branchingArguments, questionArguments, richArguments } from "./limit-forms.js";

/** How long a page may take to build (the tools' largest forms included). */
const PAGE_SECONDS = 15;
/** How long the main thread may work without giving the event loop a turn. */
const HOLD_MS = 100;

type Arguments = Record<string, unknown>;

function form(tool: string, args: Arguments, name: string): ReviewForm {
  const prepared = prepareFormFile({ tool, arguments: args });
  if (!prepared.ok) throw new Error(prepared.message);
  return { ...prepared.form, name, tool };
}

export const REVIEW_FORMS: Array<{ name: string; before: ReviewForm; after: ReviewForm }> = [
  {
    name: "50 question questions",
    before: form("question", questionArguments(50), "fifty"),
    after: form("question", questionArguments(50, true), "fifty, an option added"),
  },
  {
    name: "20 ask_rich_questions questions",
    before: form("ask_rich_questions", richArguments(20), "rich"),
    after: form("ask_rich_questions", richArguments(20, true), "rich, an option added"),
  },
  {
    name: "4 question_branch questions, every operator",
    before: form("question_branch", branchingArguments(2), "branching"),
    after: form("question_branch", branchingArguments(3), "branching, Kind from Size 3"),
  },
];

interface Timed<T> {
  value: T;
  wall: number;
  /** The whole process, its threads included. */
  cpu: number;
  /** The main thread alone. */
  mainCpu: number;
}

/** The main thread's CPU time (Node 22's `process.threadCpuUsage`, which the benchmark's Node has). */
const threadCpu = () => {
  const used = (process as unknown as { threadCpuUsage(): { user: number; system: number } }).threadCpuUsage();
  return (used.user + used.system) / 1000;
};
const processCpu = () => {
  const used = process.cpuUsage();
  return (used.user + used.system) / 1000;
};

async function timed<T>(work: () => Promise<T>): Promise<Timed<T>> {
  const [wall, cpu, main] = [performance.now(), processCpu(), threadCpu()];
  const value = await work();
  return { value, wall: performance.now() - wall, cpu: processCpu() - cpu, mainCpu: threadCpu() - main };
}

/** The longest stretch of the main thread's own work between two turns of the event loop while `work` runs. */
async function longestHold<T>(work: () => Promise<T>): Promise<{ value: T; hold: number }> {
  let hold = 0;
  let running = true;
  let last = threadCpu();
  const look = () => {
    const now = threadCpu();
    hold = Math.max(hold, now - last);
    last = now;
    if (running) setTimeout(look, 2);
  };
  setTimeout(look, 2);
  try {
    return { value: await work(), hold };
  } finally {
    running = false;
    hold = Math.max(hold, threadCpu() - last);
  }
}

export interface ReviewFigures {
  name: string;
  routes: number;
  search: number;
  page: Timed<number>;
  hold: number;
  diff: Timed<number>;
}

export async function reviewFigures(): Promise<ReviewFigures[]> {
  const out: ReviewFigures[] = [];
  for (const { name, before, after } of REVIEW_FORMS) {
    const spec: FormSpec = before.spec;
    const search = await timed(async () => generatePaths(spec, createFormMachine(spec) as never).length);
    let hold = 0;
    const page = await timed(async () => {
      const built = await longestHold(() => reviewPage(before));
      hold = built.hold;
      return built.value.length;
    });
    const diff = await timed(async () => formDiffPage(await formDiff(before, after)).length);
    out.push({ name, routes: search.value, search: search.wall, page, hold, diff });
  }
  return out;
}

export async function printReviewFigures(): Promise<void> {
  const load = loadavg()[0];
  const figures = await reviewFigures();
  const s = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
  const mark = (ok: boolean) => (ok ? "✓" : "✗");
  console.log(`Load average (1 min) at start ${load.toFixed(2)}, at end ${loadavg()[0].toFixed(2)}`);
  console.log(
    "| form | routes (search) | page: wall, CPU (main thread) | longest hold | change's page: wall, CPU (main thread) | target |",
  );
  console.log("| --- | --- | --- | --- | --- | --- |");
  for (const f of figures) {
    const ok = f.page.wall <= PAGE_SECONDS * 1000 && f.diff.wall <= PAGE_SECONDS * 1000;
    console.log(
      `| ${f.name} | ${f.routes} (${s(f.search)}) | ${s(f.page.wall)}, ${s(f.page.cpu)} (${s(f.page.mainCpu)}) | ${Math.round(f.hold)} ms ${mark(f.hold <= HOLD_MS)} | ${s(f.diff.wall)}, ${s(f.diff.cpu)} (${s(f.diff.mainCpu)}) | ≤ ${PAGE_SECONDS} s ${mark(ok)} |`,
    );
  }
}
