/**
 * Diagrams of a form's statechart: Mermaid, DOT, or SVG rendered offline by
 * Graphviz compiled to WebAssembly (@viz-js/viz, loaded on first use in a
 * thread of its own).
 */

import { createRequire } from "node:module";
import { Worker } from "node:worker_threads";
import { type DiagramFormat, describeMachine, toDot, toMermaid } from "../machines/diagram.js";
import { createFormMachine } from "../machines/form.js";
import type { FormSpec } from "../machines/spec.js";

export { DIAGRAM_FORMATS, type DiagramFormat } from "../machines/diagram.js";

export function formDiagram(spec: FormSpec) {
  // Name each question state by its tab label, or its id when the label is only the default `Q1`.
  const labels: Record<string, string> = {};
  spec.questions.forEach((q, i) => {
    const name = q.label !== `Q${i + 1}` ? q.label : q.id !== `q${i + 1}` ? q.id : undefined;
    if (name) labels[`q${i + 1}`] = name;
  });
  return describeMachine(createFormMachine(spec) as never, {
    labels,
    details: visibilityNotes(spec),
    delays: {
      ...(spec.waitMs !== undefined && spec.waitMs > 0 ? { cooldown: spec.waitMs } : {}),
      ...(spec.timeoutMs !== undefined && spec.timeoutMs > 0 ? { answerTimeout: spec.timeoutMs } : {}),
    },
  });
}

/** `shown when size gte 4 and …`, `never shown`, per conditional question state. */
function visibilityNotes(spec: FormSpec): Record<string, string> {
  const notes: Record<string, string> = {};
  spec.questions.forEach((q, i) => {
    const v = q.visibility;
    if (v.kind === "never") notes[`q${i + 1}`] = "never shown";
    if (v.kind === "when") {
      const parts = v.conditions.map((c) =>
        [c.field, c.operator, Array.isArray(c.value) ? c.value.join(", ") : c.value]
          .filter((x) => x !== undefined)
          .join(" "),
      );
      notes[`q${i + 1}`] = `shown when ${parts.join(" and ")}`;
    }
  });
  return notes;
}

export async function renderDiagram(spec: FormSpec, format: DiagramFormat): Promise<string> {
  const diagram = formDiagram(spec);
  if (format === "mermaid") return toMermaid(diagram);
  const dot = toDot(diagram);
  return format === "dot" ? dot : dotToSvg(dot);
}

/**
 * Graphviz DOT to SVG, offline, laid out in a thread of its own: Graphviz
 * is synchronous WebAssembly, and a large layout would otherwise hold the
 * event loop of the process (Pi's, during `/formchart review`) until it is
 * done. Where no thread can be started, it runs here.
 */
export function dotToSvg(dot: string): Promise<string> {
  return layoutThread()
    .catch(() => undefined)
    .then((thread) => (thread ? thread.layout(dot) : layoutHere(dot)));
}

type Viz = { renderString(dot: string, options: { format: string }): string };
let viz: Promise<Viz> | undefined;

function layoutHere(dot: string): Promise<string> {
  viz ??= import("@viz-js/viz").then((m) => m.instance());
  return viz.then((v) => v.renderString(dot, { format: "svg" }));
}

/**
 * The thread's program: it loads Graphviz once and answers each layout (or
 * the error Graphviz raised) by its number. Plain CommonJS, given the path
 * of @viz-js/viz: it needs nothing of this project, however it was loaded.
 */
const LAYOUT_PROGRAM = `
const { parentPort, workerData } = require("node:worker_threads");
const ready = require(workerData.viz).instance();
parentPort.on("message", ({ id, dot }) => {
  ready
    .then((viz) => parentPort.postMessage({ id, svg: viz.renderString(dot, { format: "svg" }) }))
    .catch((error) => parentPort.postMessage({ id, error: error instanceof Error ? error.message : String(error) }));
});
`;

/** A thread idle this long is stopped (what it holds, Graphviz's memory, goes with it). */
const IDLE_MS = 10_000;

interface Pending {
  resolve(svg: string): void;
  reject(error: Error): void;
}

class LayoutThread {
  private readonly worker: Worker;
  private readonly pending = new Map<number, Pending>();
  private next = 0;
  private idle?: ReturnType<typeof setTimeout>;

  constructor(
    vizPath: string,
    private readonly onGone: () => void,
  ) {
    this.worker = new Worker(LAYOUT_PROGRAM, { eval: true, workerData: { viz: vizPath } });
    // The thread never keeps the process alive: a command-line run ends when its work does.
    this.worker.unref();
    this.worker.on("message", ({ id, svg, error }: { id: number; svg?: string; error?: string }) => {
      const waiting = this.pending.get(id);
      this.pending.delete(id);
      if (error !== undefined) waiting?.reject(new Error(error));
      else waiting?.resolve(svg ?? "");
      this.restartIdleClock();
    });
    this.worker.on("error", (error) => this.end(error));
    this.worker.on("exit", (code) => this.end(new Error(`the layout thread stopped (exit code ${code})`)));
  }

  layout(dot: string): Promise<string> {
    const id = this.next++;
    clearTimeout(this.idle);
    return new Promise<string>((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.worker.postMessage({ id, dot });
    });
  }

  private restartIdleClock(): void {
    clearTimeout(this.idle);
    if (this.pending.size > 0) return;
    this.idle = setTimeout(() => void this.worker.terminate(), IDLE_MS);
    this.idle.unref();
  }

  private end(error: Error): void {
    clearTimeout(this.idle);
    this.onGone();
    for (const waiting of this.pending.values()) waiting.reject(error);
    this.pending.clear();
  }
}

let thread: Promise<LayoutThread> | undefined;

function layoutThread(): Promise<LayoutThread> {
  thread ??= Promise.resolve().then(() => {
    const vizPath = createRequire(import.meta.url).resolve("@viz-js/viz");
    const started = new LayoutThread(vizPath, () => {
      thread = undefined;
    });
    return started;
  });
  return thread;
}

/** The space between pictures set side by side, in points. */
const GAP = 18;

/** A picture's size in points and what is inside its `<svg>` element. */
function svgParts(svg: string): { width: number; height: number; inner: string } {
  const open = /<svg\b[^>]*>/.exec(svg);
  const close = svg.lastIndexOf("</svg>");
  if (!open || close < 0) throw new Error("Graphviz drew no picture");
  const tag = open[0];
  const size = (name: string) => Number(new RegExp(`\\b${name}="([0-9.]+)pt"`).exec(tag)?.[1] ?? Number.NaN);
  const [width, height] = [size("width"), size("height")];
  if (!(width >= 0 && height >= 0)) throw new Error("Graphviz drew a picture of no size");
  return { width, height, inner: svg.slice(open.index + tag.length, close) };
}

/**
 * Pictures laid out one by one set in rows, in their order, as one SVG
 * picture (named `id`): the rows about 1.6 times as wide as the whole is
 * high, so it reads in a panel as one chart does. Each keeps its own
 * drawing; their graph groups are renamed `id-1`, `id-2` … so that no id
 * repeats.
 */
export function composeSvg(svgs: readonly string[], id: string): string {
  const pictures = svgs.map(svgParts);
  const area = pictures.reduce((sum, p) => sum + (p.width + GAP) * (p.height + GAP), 0);
  const rowWidth = Math.max(...pictures.map((p) => p.width), Math.sqrt(area * 1.6));
  const placed: string[] = [];
  let [x, y, rowHeight, width] = [0, 0, 0, 0];
  pictures.forEach((p, i) => {
    if (x > 0 && x + p.width > rowWidth) {
      [x, y, rowHeight] = [0, y + rowHeight + GAP, 0];
    }
    const inner = p.inner.replace(/<g id="graph0"/, `<g id="${id}-${i + 1}"`);
    placed.push(`<g transform="translate(${x} ${y})">${inner}</g>`);
    width = Math.max(width, x + p.width);
    rowHeight = Math.max(rowHeight, p.height);
    x += p.width + GAP;
  });
  const height = y + rowHeight;
  return `<svg width="${width}pt" height="${height}pt" viewBox="0.00 0.00 ${width} ${height}" xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink">
<g id="${id}" class="graph">
<rect fill="white" x="0" y="0" width="${width}" height="${height}"/>
${placed.join("\n")}
</g>
</svg>`;
}
