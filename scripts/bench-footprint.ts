/**
 * What the model sees, for `npm run bench` (scripts/bench.ts): the context
 * an extension adds to every request, measured from a captured request, not
 * estimated.
 *
 * For each host, the real `pi` (the CLI of the installed package, on the
 * host's Node) starts in print mode (`-p 'hi' --no-session`, stdin from
 * /dev/null, an empty working directory, an agent directory of its own)
 * against the scripted model of the end-to-end tests (scripts/fake-model.ts)
 * with an empty script: it records every request body and answers "Done.".
 * Of the first request: the characters of each tool
 * declaration (`JSON.stringify` of each entry of `tools`) and of the system
 * message. Pi with nothing loaded gives the baseline (its built-in tools and
 * system prompt); every other row is what one `-e` adds to it: Pi's own
 * examples/extensions/question.ts and questionnaire.ts, and this package
 * under each of its tool sets (`{"toolSet": …}` in
 * `<agentDir>/pi-formchart/settings.json`).
 */
import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync } from "node:fs";
import { join } from "node:path";
import { DEFAULT_TOOL_SET, TOOL_SETS } from "../tools/tool-sets.js";
import { type RecordedRequest, startFakeModel, writePiHome } from "./fake-model.js";

/**
 * The most each named set may add to a request on Pi 1.x, in characters (the
 * tool declarations and the system prompt lines together): half or less of
 * what the sets cost before their declarations were cut down, and for the
 * default set about 1.6 times Pi's questionnaire example (1,258). Checked by
 * the benchmark beside each set's row, and by the end-to-end test of what the
 * model sees on every host.
 */
export const FOOTPRINT_TARGETS: Readonly<Record<string, number>> = { compact: 2000, qwizard: 4700, all: 7000 };

/** What a footprint run needs of a host. */
export interface FootprintHost {
  name: string;
  node: string;
  cli: string;
  theirs: { path: string };
  question: { path: string };
}

/** The named tool sets of this package and the default one. */
export function toolSets(): { names: string[]; fallback: string } {
  return { names: Object.keys(TOOL_SETS), fallback: DEFAULT_TOOL_SET };
}

/** The first request's tool declarations and system message, in characters. */
export interface Seen {
  tools: Array<{ name: string; chars: number }>;
  system: number;
}

export interface FootprintRow {
  label: string;
  /** The tool set of this package's rows. */
  toolSet?: string;
  /** Pi with nothing loaded. */
  baseline?: boolean;
  /** Pi's questionnaire.ts: what the ratios are against. */
  reference?: boolean;
  /** The tool set in effect when the settings name none. */
  fallback?: boolean;
  seen: Map<string, Seen>;
}

const chars = (s: string) => [...s].length;

function textOf(content: unknown): string {
  if (typeof content === "string") return content;
  if (Array.isArray(content))
    return content.map((part) => (typeof part === "string" ? part : ((part as { text?: string }).text ?? ""))).join("");
  return "";
}

/** What a request carries, in characters: each tool declaration, and the system message. */
export function seenOf(request: RecordedRequest): Seen {
  const tools = (request.tools ?? []).map((t) => ({
    name: (t as { function?: { name?: string }; name?: string }).function?.name ?? (t as { name?: string }).name ?? "?",
    chars: chars(JSON.stringify(t)),
  }));
  const system = request.messages
    .filter((m) => m.role === "system" || m.role === "developer")
    .map((m) => textOf(m.content))
    .join("");
  return { tools, system: chars(system) };
}

/** Start the host's `pi -p 'hi'` with `extension` loaded (if any) and return its first request to the model. */
async function firstRequest(h: FootprintHost, work: string, extension?: string, toolSet?: string): Promise<Seen> {
  const model = await startFakeModel([]);
  try {
    const agentDir = mkdtempSync(join(work, "pi-home-"));
    const home = writePiHome(
      agentDir,
      model.baseUrl,
      // Print mode has no UI: the setting keeps the tools declared, as a session with one declares them.
      { "pi-formchart/settings.json": JSON.stringify({ ...(toolSet ? { toolSet } : {}), declareWithoutUI: true }) },
    );
    // An empty working directory: no project files (AGENTS.md, .pi/) of the checkout in the prompt.
    const cwd = mkdtempSync(join(work, "cwd-"));
    const env: NodeJS.ProcessEnv = { ...process.env, ...home };
    delete env.NODE_OPTIONS;
    const args = [h.cli, "--no-session", ...(extension ? ["-e", extension] : []), "-p", "hi"];
    const pi = spawn(h.node, args, { cwd, env, stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    pi.stdout.on("data", (d: Buffer) => {
      output += d.toString();
    });
    pi.stderr.on("data", (d: Buffer) => {
      output += d.toString();
    });
    const code = await new Promise<number | null>((resolve) => {
      const timer = setTimeout(() => pi.kill("SIGKILL"), 60_000);
      pi.on("close", (c) => {
        clearTimeout(timer);
        resolve(c);
      });
    });
    const request = model.requests[0];
    if (!request)
      throw new Error(`${h.name} ${args.slice(1).join(" ")} sent no request (exit ${code}):\n${output.slice(0, 2000)}`);
    return seenOf(request);
  } finally {
    await model.close();
  }
}

/** Every row on every host, one `pi` start each (the sizes do not vary from run to run). */
export async function footprint(root: string, hosts: FootprintHost[], work: string): Promise<FootprintRow[]> {
  const dir = join(work, "footprint");
  mkdirSync(dir, { recursive: true });
  const { names, fallback } = toolSets();
  const rows: FootprintRow[] = [
    { label: "Pi with nothing loaded (its built-in tools)", baseline: true, seen: new Map() },
    { label: "-e examples/extensions/question.ts", seen: new Map() },
    { label: "-e examples/extensions/questionnaire.ts", reference: true, seen: new Map() },
    ...names.map((toolSet) => ({
      label: `-e pi-formchart, tool set ${toolSet}`,
      toolSet,
      fallback: toolSet === fallback,
      seen: new Map(),
    })),
  ];
  for (const h of hosts)
    for (const row of rows) {
      process.stderr.write(`\r… what the model sees (${h.name}): ${row.label}                    `);
      const extension = row.baseline ? undefined : row.toolSet ? root : row.reference ? h.theirs.path : h.question.path;
      row.seen.set(h.name, await firstRequest(h, dir, extension, row.toolSet));
    }
  process.stderr.write("\n");
  return rows;
}

const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
const num = (n: number) => n.toLocaleString("en-US");

/** The footprint table (both hosts side by side) and the per-tool sizes of the `all` set. */
export function printFootprint(
  rows: FootprintRow[],
  main: FootprintHost,
  second: FootprintHost,
  table: (head: string[], body: string[][]) => string[],
): string[] {
  const baseline = rows.find((r) => r.baseline)!;
  const reference = rows.find((r) => r.reference)!;
  const added = (row: FootprintRow, h: FootprintHost) => {
    const base = baseline.seen.get(h.name)!;
    const seen = row.seen.get(h.name)!;
    const tools = sum(seen.tools.map((t) => t.chars)) - sum(base.tools.map((t) => t.chars));
    const system = seen.system - base.system;
    return { tools, system, total: tools + system };
  };
  const cells = (row: FootprintRow, h: FootprintHost): string[] => {
    const seen = row.seen.get(h.name);
    if (!seen) return ["—", "—", "—", "—"];
    if (row.baseline) {
      const tools = sum(seen.tools.map((t) => t.chars));
      return [
        `${num(tools)} (${seen.tools.length} tools)`,
        `${num(seen.system)} in all`,
        num(tools + seen.system),
        "—",
      ];
    }
    const a = added(row, h);
    const ref = added(reference, h).total;
    return [num(a.tools), num(a.system), num(a.total), ref ? (a.total / ref).toFixed(2) : "—"];
  };
  const body = rows.map((row) => {
    const limit = row.toolSet === undefined ? undefined : FOOTPRINT_TARGETS[row.toolSet];
    let target = "";
    if (limit !== undefined) {
      const total = added(row, main).total;
      const ratio = (limit / added(reference, main).total).toFixed(2);
      target = `${total <= limit ? "✓" : "✗"} ≤ ${num(limit)} (${ratio}×)${row.fallback ? ", the default" : ""}`;
    }
    return [row.label, ...cells(row, main), target, ...cells(row, second)];
  });
  const head = [
    "what the model sees (first request, characters)",
    `tool declarations, ${main.name}`,
    "system prompt added",
    "total",
    "to questionnaire.ts",
    "target",
    `tool declarations, ${second.name}`,
    "system prompt added",
    "total",
    "to questionnaire.ts",
  ];
  const out = table(head, body);
  const all = rows.find((r) => r.toolSet === "all");
  if (all) {
    const builtIn = (h: FootprintHost) => new Set(baseline.seen.get(h.name)!.tools.map((t) => t.name));
    const sizes = (h: FootprintHost) =>
      new Map(
        all.seen
          .get(h.name)!
          .tools.filter((t) => !builtIn(h).has(t.name))
          .map((t) => [t.name, t.chars]),
      );
    const a = sizes(main);
    const b = sizes(second);
    const names = [...new Set([...a.keys(), ...b.keys()])];
    out.push(
      "",
      ...table(
        ["tool set all: each declaration (characters)", main.name, second.name],
        names.map((n) => [n, a.has(n) ? num(a.get(n)!) : "—", b.has(n) ? num(b.get(n)!) : "—"]),
      ),
    );
  }
  return out;
}
