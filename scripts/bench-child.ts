/**
 * One measurement of `npm run bench` (scripts/bench.ts), in a process of its
 * own. The benchmark transpiles this file and runs it with plain Node, so
 * that no TypeScript hooks are present and both extensions load exactly as
 * inside Pi: through Pi's own extension loader (jiti, its options and its
 * aliases), with Pi's packages already loaded, Pi's dark theme and Pi's
 * keybindings.
 *
 * Usage: `node child.mjs <task.json>`; prints one line of JSON.
 * It imports nothing of the project: the extensions are loaded by path, and
 * Pi's modules from the installed package the task names (Pi 1.6 under
 * `@earendil-works`, Pi 0.73.1 under `@mariozechner`), so one child serves
 * either host.
 */
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { pathToFileURL } from "node:url";

export interface Side {
  /** The extension file, as Pi would be given it. */
  path: string;
  tool: string;
}

/** Where Pi's packages are installed: `node_modules/<scope>/pi-coding-agent`, `node_modules/<scope>/pi-ai`. */
export type PiScope = "@earendil-works" | "@mariozechner";

export type Task =
  | { kind: "load"; root: string; pi: PiScope; side: Side }
  | { kind: "first-form"; root: string; pi: PiScope; side: Side; args: unknown; warm: boolean }
  | { kind: "forms"; root: string; pi: PiScope; side: Side; row: FormRow };

/** One measurement on open forms, for one side in a process of its own. */
export type FormRow =
  | {
      kind: "keys";
      args: unknown;
      /** The width every frame is drawn at. */
      width: number;
      warmup: number;
      samples: number;
      /** Before timing: type this many characters as the first question's typed answer. */
      typed?: number;
      /** The keys pressed in turn: the mixed script (default) or ↓ ↓ ↑ ↑ only. */
      script?: "mixed" | "updown";
    }
  /** Forms opened one after another, each timed for its first `keys` keys (keys + frames, summed). */
  | { kind: "first-keys"; args: unknown; width: number; keys: number; warmup: number; samples: number }
  | { kind: "heap"; args: unknown[] }
  /** Forms opened, answered and closed, each with texts of its own (`args` varied per form). */
  | { kind: "closed"; args: unknown; warmup: number; checkpoints: number; every: number }
  | { kind: "open"; args: unknown; warmup: number; samples: number }
  /** Bytes allocated per key of the mixed script (keys + frames): the median over keys no collection ran in. */
  | { kind: "alloc"; args: unknown; width: number; warmup: number; samples: number };

/** Raw samples: wall and CPU time per key or per call, in milliseconds. */
export interface Samples {
  wall: number[];
  cpu: number[];
}

/** Wall and CPU time of a stretch of work, in milliseconds. */
export interface Timing {
  wall: number;
  cpu: number;
}

export interface KeyStats {
  n: number;
  /** Wall time per key. */
  p50: number;
  p99: number;
  /** CPU time per key (the process's, all threads): what other processes on the machine cannot inflate. */
  cpuP50: number;
  cpuP99: number;
  /** Mean wall and CPU time per key. */
  wallMean: number;
  cpuMean: number;
}

export const WIDTH = 120;
const DOWN = "\x1b[B";
const UP = "\x1b[A";
const BACKSPACE = "\x7f";

/**
 * The mixed script for a form of `questions` questions of `options` options,
 * the same work on both sides and never closing either form: it moves the
 * highlight, then (with more than one question, where both go on to the next
 * tab) selects the first option and goes back between the tabs, then goes
 * down to "Type something.", opens its editor, types three letters, deletes
 * them, leaves the editor with Esc (nothing saved on either side, and the
 * editor empty again on both: pi-formchart keeps a draft when its editor
 * closes, the example empties its editor, so letters left in it would grow
 * pi-formchart's text by three a round) and goes back up. A single question
 * gets no Enter on an option (both would close) and no digits (the example
 * ignores them); a list too long to walk is only moved in.
 */
export function mixedScript(questions: number, options: number): string[] {
  const keys = [DOWN, DOWN, UP, UP];
  if (questions > 1) keys.push("\r", "\x1b[Z", "\t", "\x1b[Z");
  if (options <= 20) {
    keys.push(...Array(options).fill(DOWN), "\r", "a", "b", "c", BACKSPACE, BACKSPACE, BACKSPACE, "\x1b");
    keys.push(...Array(options).fill(UP));
  }
  return keys;
}

/** The mixed script for these tool arguments (`{ questions: [{ options }] }`). */
function scriptFor(args: unknown): string[] {
  const qs = (args as { questions: Array<{ options: unknown[] }> }).questions;
  return mixedScript(qs.length, qs[0].options.length);
}
/** ↓ ↓ ↑ ↑: the highlight only, inside the 3 options of the smallest form. */
const UP_DOWN = ["\x1b[B", "\x1b[B", "\x1b[A", "\x1b[A"];

interface Component {
  render(width: number): string[];
  handleInput?(data: string): void;
}
type Factory = (tui: unknown, theme: unknown, keybindings: unknown, done: (result: unknown) => void) => Component;
interface ToolDefinition {
  name: string;
  parameters: unknown;
  prepareArguments?(raw: unknown): unknown;
  execute(id: string, params: unknown, signal: AbortSignal, onUpdate: undefined, ctx: unknown): Promise<unknown>;
}
interface LoadedExtension {
  tools: Map<string, { definition: ToolDefinition }>;
  handlers: Map<string, Array<(event: unknown, ctx: unknown) => unknown>>;
}

const now = () => performance.now();
const cpuMs = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};

async function timedAsync<T>(work: () => Promise<T>): Promise<[T, Timing]> {
  const w = now();
  const c = cpuMs();
  const out = await work();
  return [out, { wall: now() - w, cpu: cpuMs() - c }];
}

/** Pi's modules, by file (the loader, theme and keybindings are not among its package exports). */
async function pi(root: string, scope: PiScope) {
  const dist = join(root, "node_modules", scope, "pi-coding-agent", "dist");
  const load = <T>(path: string) => import(pathToFileURL(join(dist, path)).href) as Promise<T>;
  const loader = await load<{ loadExtensions(paths: string[], cwd: string): Promise<LoadResult> }>(
    "core/extensions/loader.js",
  );
  const themes = await load<{ initTheme(name: string): void; theme: unknown }>("modes/interactive/theme/theme.js");
  const keys = await load<{ KeybindingsManager: { create(dir?: string): unknown } }>("core/keybindings.js");
  const ai = (await import(pathToFileURL(join(root, "node_modules", scope, "pi-ai", "dist", "index.js")).href)) as {
    validateToolArguments(tool: unknown, call: { name: string; arguments: unknown }): unknown;
  };
  if (scope === "@earendil-works") await hostModules(root, dist);
  return { loader, themes, keys, ai };
}

/**
 * Pi 1.x: what its extensions' imports resolve to, loaded before any
 * extension, as in `pi`. Its CLI (a bundle) hands extensions the copies it
 * runs itself, already loaded, and has jiti loaded by the first extension;
 * its unbundled loader maps the same names to these files and imports jiti
 * only when it first loads an extension. Loaded here, what a load costs is
 * the extension's own, as with Pi 0.73's loader, which imports all of them
 * statically.
 */
async function hostModules(root: string, dist: string) {
  const fromLoader = createRequire(join(dist, "core", "extensions", "loader.js"));
  const files = [
    join(dist, "index.js"),
    join(dist, "core", "extensions", "jiti-loader.js"),
    join(dist, "core", "extensions", "pi-ai-extension-view.js"),
    join(root, "node_modules", "@earendil-works", "pi-agent-core", "dist", "index.js"),
    fromLoader.resolve("@earendil-works/pi-tui"),
    fromLoader.resolve("typebox"),
    fromLoader.resolve("typebox/compile"),
    fromLoader.resolve("typebox/value"),
  ];
  for (const file of files) await import(pathToFileURL(file).href);
}
/** The action methods Pi's runner binds once a session runs (loading leaves stubs that throw). */
interface Runtime {
  getAllTools(): Array<{ name: string }>;
  getActiveTools(): string[];
  setActiveTools(names: string[]): void;
}
type LoadResult = {
  extensions: LoadedExtension[];
  errors: Array<{ path: string; error: string }>;
  runtime: Runtime;
};
type Pi = Awaited<ReturnType<typeof pi>>;

async function loadOne(p: Pi, root: string, side: Side): Promise<LoadedExtension> {
  return (await loadWithRuntime(p, root, side)).extension;
}

async function loadWithRuntime(
  p: Pi,
  root: string,
  side: Side,
): Promise<{ extension: LoadedExtension; runtime: Runtime }> {
  const result = await p.loader.loadExtensions([side.path], root);
  if (result.errors.length || !result.extensions[0])
    throw new Error(`loading ${side.path}: ${result.errors.map((e) => e.error).join("; ")}`);
  return { extension: result.extensions[0], runtime: result.runtime };
}

/**
 * Bind the tool methods as Pi's runner does when the session starts: every
 * registered tool and Pi 1.x's own `tool_search` known, the extension's
 * declared tools active. `session_start` handlers may then read and change
 * the active tools, as inside Pi.
 */
function bindTools(runtime: Runtime, extension: LoadedExtension): void {
  const registered = [...extension.tools.values()].map((t) => ({
    name: t.definition.name,
    exposure: (t.definition as { exposure?: string }).exposure,
  }));
  let active = registered.filter((t) => t.exposure !== "deferred").map((t) => t.name);
  runtime.getAllTools = () => [...registered.map(({ name }) => ({ name })), { name: "tool_search" }];
  runtime.getActiveTools = () => [...active];
  runtime.setActiveTools = (names) => {
    active = [...names];
  };
}

function tool(extension: LoadedExtension, name: string): ToolDefinition {
  const found = extension.tools.get(name)?.definition;
  if (!found) throw new Error(`no tool ${name}`);
  return found;
}

/** A stand-in for Pi's TUI: 40 rows of `WIDTH` columns (the keystroke rows set their own width). */
const tui = { requestRender() {}, terminal: { rows: 40, columns: WIDTH } };

/** Pi's keybindings: one manager for the whole process, handed to every form (as Pi's interactive mode does). */
let keybindings: unknown;

/**
 * What Pi's interactive mode gives a tool: a UI whose `custom` opens the
 * component, focused, and settles when the form calls `done`.
 */
function context(p: Pi, opened: (component: Component) => void) {
  keybindings ??= p.keys.KeybindingsManager.create();
  return {
    hasUI: true,
    // Pi 1.x: the interactive mode (its example opens no form in any other); Pi 0.73 has no `mode`.
    mode: "tui",
    cwd: process.cwd(),
    sessionManager: { getBranch: () => [] },
    ui: {
      notify() {},
      custom: (factory: Factory) =>
        new Promise((done) => {
          const component = factory(tui, p.themes.theme, keybindings, done);
          (component as { focused?: boolean }).focused = true;
          opened(component);
        }),
    },
  };
}

/** The agent run's abort signal: Pi hands every tool call of a run the same one. */
const run = new AbortController();

/** Pi's side of a tool call: `prepareArguments`, Pi's own argument check, then `execute`. */
function execute(p: Pi, definition: ToolDefinition, raw: unknown, ctx: unknown, executing?: () => void) {
  const prepared = definition.prepareArguments ? definition.prepareArguments(raw) : raw;
  const args = p.ai.validateToolArguments(definition, { name: definition.name, arguments: prepared });
  executing?.();
  return definition.execute("bench", args, run.signal, undefined, ctx);
}

/**
 * A tool call as Pi makes it (prepareArguments, Pi's own argument check,
 * execute) up to the form's first frame. Resolves with the open component.
 */
/** Forms whose tool call has returned: a script that closed its form measured no more keys of it. */
const closed = new WeakSet<Component>();

/** Throws when the form closed under the keys (the two sides would no longer do the same work). */
async function stillOpen(component: Component): Promise<void> {
  await new Promise((resolve) => setImmediate(resolve));
  if (closed.has(component)) throw new Error("the keys closed the form: the script is not the same work on both sides");
}

function call(p: Pi, definition: ToolDefinition, raw: unknown, executing?: () => void): Promise<Component> {
  return new Promise((resolve, reject) => {
    let shown: Component | undefined;
    const ctx = context(p, (component) => {
      component.render(tui.terminal.columns);
      shown = component;
      resolve(component);
    });
    execute(p, definition, raw, ctx, executing).then((result) => {
      if (shown) closed.add(shown);
      else reject(new Error(`the form did not open: ${JSON.stringify(result).slice(0, 500)}`));
    }, reject);
  });
}

const percentile = (xs: number[], q: number) => {
  const sorted = [...xs].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
};

export function stats(times: number[], cpus: number[]): KeyStats {
  const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
  return {
    n: times.length,
    p50: percentile(times, 0.5),
    p99: percentile(times, 0.99),
    cpuP50: percentile(cpus, 0.5),
    cpuP99: percentile(cpus, 0.99),
    wallMean: sum(times) / times.length,
    cpuMean: sum(cpus) / cpus.length,
  };
}

class KeyRun {
  private k = 0;
  readonly times: number[] = [];
  readonly cpus: number[] = [];
  constructor(
    readonly component: Component,
    readonly width: number,
    readonly keys: readonly string[],
  ) {}
  private press(): void {
    this.component.handleInput?.(this.keys[this.k++ % this.keys.length]);
    this.component.render(this.width);
  }
  warm(n: number): void {
    for (let i = 0; i < n; i++) this.press();
  }
  /** `n` timed keys, wall and CPU time each. */
  block(n: number): void {
    for (let i = 0; i < n; i++) {
      const c = cpuMs();
      const t = now();
      this.press();
      this.times.push(now() - t);
      this.cpus.push(cpuMs() - c);
    }
  }
}

/** Choose "Type something." on the first question and paste `chars` characters as the answer. */
function typeLong(component: Component, options: number, chars: number): void {
  const text = "lorem ipsum dolor sit amet ".repeat(Math.ceil(chars / 27)).slice(0, chars);
  for (let i = 0; i < options; i++) component.handleInput?.("\x1b[B");
  component.handleInput?.("\r");
  component.handleInput?.(`\x1b[200~${text}\x1b[201~`);
  component.handleInput?.("\r");
  component.render(tui.terminal.columns);
}

const gc = (globalThis as { gc?: () => void }).gc;

/** Heap retained per open form: forms opened and kept, after a full collection. */
async function heapPerForm(p: Pi, definition: ToolDefinition, args: unknown[]): Promise<number> {
  if (!gc) throw new Error("run with --expose-gc");
  // One form first, not counted: what loads or compiles once per process is not a form's.
  await call(p, definition, args[args.length - 1]);
  const kept: Component[] = [];
  gc();
  gc();
  const before = process.memoryUsage().heapUsed;
  for (const a of args) kept.push(await call(p, definition, a));
  gc();
  gc();
  const after = process.memoryUsage().heapUsed;
  if (kept.length !== args.length) throw new Error("lost a form");
  return (after - before) / args.length;
}

/** `template` with every string but ids and values made its own by `k`: a form with texts of its own. */
function vary(template: unknown, k: number, key = ""): unknown {
  if (typeof template === "string") return key === "id" || key === "value" ? template : `${template} ${k}`;
  if (Array.isArray(template)) return template.map((item) => vary(item, k));
  if (template && typeof template === "object")
    return Object.fromEntries(Object.entries(template).map(([name, value]) => [name, vary(value, k, name)]));
  return template;
}

/** A tool call answered with Enter on every question and on the submit tab, to its result. */
function answered(p: Pi, definition: ToolDefinition, raw: unknown, questions: number): Promise<unknown> {
  const ctx = context(p, (component) => {
    component.render(WIDTH);
    for (let i = 0; i <= questions; i++) {
      component.handleInput?.("\r");
      component.render(WIDTH);
    }
  });
  return execute(p, definition, raw, ctx);
}

/**
 * What closed forms leave behind: forms opened, answered and closed one
 * after another, each with texts of its own; after `warmup` of them, the
 * heap after a full collection every `every` forms, `checkpoints` times. The
 * least-squares slope of those points is the growth per closed form (the
 * bounded caches fill and empty in between, so single differences would swing).
 */
async function heapPerClosedForm(
  p: Pi,
  definition: ToolDefinition,
  row: Extract<FormRow, { kind: "closed" }>,
): Promise<number> {
  if (!gc) throw new Error("run with --expose-gc");
  const questions = (row.args as { questions: unknown[] }).questions.length;
  let k = 0;
  const next = () => answered(p, definition, vary(row.args, k++), questions);
  for (let i = 0; i < row.warmup; i++) await next();
  const points: Array<[number, number]> = [];
  for (let c = 0; c < row.checkpoints; c++) {
    for (let i = 0; i < row.every; i++) await next();
    gc();
    gc();
    points.push([k, process.memoryUsage().heapUsed]);
  }
  const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
  const mx = mean(points.map(([x]) => x));
  const my = mean(points.map(([, y]) => y));
  const sxy = points.reduce((s, [x, y]) => s + (x - mx) * (y - my), 0);
  const sxx = points.reduce((s, [x]) => s + (x - mx) ** 2, 0);
  return sxy / sxx;
}

async function forms(task: Extract<Task, { kind: "forms" }>): Promise<Samples | number> {
  const p = await pi(task.root, task.pi);
  p.themes.initTheme("dark");
  const definition = tool(await loadOne(p, task.root, task.side), task.side.tool);
  const row = task.row;
  if (row.kind === "heap") return heapPerForm(p, definition, row.args);
  if (row.kind === "closed") return heapPerClosedForm(p, definition, row);
  if (row.kind === "open") {
    const out: Samples = { wall: [], cpu: [] };
    for (let i = 0; i < row.warmup + row.samples; i++) {
      // From execute: Pi's own argument check before it is Pi's cost, not the tool's.
      let wall = 0;
      let cpuAt = 0;
      await call(p, definition, row.args, () => {
        wall = now();
        cpuAt = cpuMs();
      });
      if (i >= row.warmup) {
        out.wall.push(now() - wall);
        out.cpu.push(cpuMs() - cpuAt);
      }
    }
    return out;
  }
  tui.terminal.columns = row.width;
  if (row.kind === "first-keys") return firstKeys(p, definition, row);
  if (row.kind === "alloc") return allocationPerKey(await call(p, definition, row.args), row);
  const run = new KeyRun(
    await call(p, definition, row.args),
    row.width,
    row.script === "updown" ? UP_DOWN : scriptFor(row.args),
  );
  if (row.typed) {
    const options = (row.args as { questions: Array<{ options: unknown[] }> }).questions[0].options.length;
    typeLong(run.component, options, row.typed);
  }
  run.warm(row.warmup);
  run.block(row.samples);
  await stillOpen(run.component);
  return { wall: run.times, cpu: run.cpus };
}

/**
 * Bytes allocated per key: the heap's growth over one key and its frame, for
 * keys no collection ran in (the heap did not shrink), less what reading the
 * heap itself allocates (the same reading with no key between); the median.
 */
async function allocationPerKey(component: Component, row: Extract<FormRow, { kind: "alloc" }>): Promise<number> {
  const run = new KeyRun(component, row.width, scriptFor(row.args));
  run.warm(row.warmup);
  gc?.();
  const heap = () => process.memoryUsage().heapUsed;
  const grown = (press: () => void) => {
    const out: number[] = [];
    for (let i = 0; i < row.samples; i++) {
      const before = heap();
      press();
      const after = heap();
      if (after >= before) out.push(after - before);
    }
    return percentile(out, 0.5);
  };
  const reading = grown(() => {});
  const perKey = grown(() => run.warm(1));
  await stillOpen(component);
  return Math.max(0, perKey - reading);
}

/** The first keys of fresh forms: what a person's first look around a form costs, before V8 has optimized it for that form. */
async function firstKeys(
  p: Pi,
  definition: ToolDefinition,
  row: Extract<FormRow, { kind: "first-keys" }>,
): Promise<Samples> {
  const out: Samples = { wall: [], cpu: [] };
  for (let i = 0; i < row.warmup + row.samples; i++) {
    const component = await call(p, definition, row.args);
    const c = cpuMs();
    const t = now();
    new KeyRun(component, row.width, scriptFor(row.args)).warm(row.keys);
    if (i >= row.warmup) {
      out.wall.push(now() - t);
      out.cpu.push(cpuMs() - c);
    }
  }
  return out;
}

async function main(task: Task): Promise<unknown> {
  if (task.kind === "forms") return forms(task);
  const p = await pi(task.root, task.pi);
  if (task.kind === "load") {
    const [extension, timing] = await timedAsync(() => loadOne(p, task.root, task.side));
    // As inside Pi, the process goes on: what an extension left to do after loading (a cache to write) gets done.
    await new Promise((resolve) => setTimeout(resolve, 50));
    return { ...timing, tools: extension.tools.size };
  }
  p.themes.initTheme("dark");
  const { extension, runtime } = await loadWithRuntime(p, task.root, task.side);
  const definition = tool(extension, task.side.tool);
  if (task.warm) {
    bindTools(runtime, extension);
    // What Pi does next: start the session; the person or the model takes a moment before the first form.
    const ctx = context(p, () => {});
    for (const handler of extension.handlers.get("session_start") ?? []) await handler({ type: "session_start" }, ctx);
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  const [, timing] = await timedAsync(() => call(p, definition, task.args));
  return timing;
}

// Only when run as the child (the benchmark imports the types above).
if (process.argv[2]?.endsWith(".json")) {
  main(JSON.parse(readFileSync(process.argv[2], "utf8")) as Task).then(
    (result) => {
      process.stdout.write(`${JSON.stringify(result)}\n`);
      process.exit(0);
    },
    (error) => {
      process.stderr.write(`${(error as Error).stack ?? error}\n`);
      process.exit(1);
    },
  );
}
