/**
 * Diagrams of a form's statechart: Mermaid, DOT, or SVG rendered offline by
 * Graphviz compiled to WebAssembly (@viz-js/viz, loaded on first use in a
 * thread of its own).
 */

import { createRequire } from "node:module";
import { Worker } from "node:worker_threads";
import { createFormMachine } from "../machines/form.js";
import type { FormSpec } from "../machines/spec.js";
import { type Diagram, type DiagramFormat, describeMachine, toDot, toMermaid } from "./inspect/diagram.js";

export { DIAGRAM_FORMATS, type DiagramFormat } from "./inspect/diagram.js";

export function formDiagram(spec: FormSpec) {
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

/** Past this many questions a chart is too big to read whole: it is drawn in parts, the review opens on the overview. */
export const OVERVIEW_QUESTIONS = 6;

export async function renderDiagram(spec: FormSpec, format: DiagramFormat): Promise<string> {
  const diagram = formDiagram(spec);
  if (format === "mermaid") return toMermaid(diagram);
  const dot = toDot(diagram);
  if (format === "dot") return dot;
  if (spec.questions.length <= OVERVIEW_QUESTIONS) return dotToSvg(dot);
  // Graphviz's time grows faster than the questions: each part is laid out on its own.
  const parts = questionParts(diagram).map((part) => toDot(part, { start: part.initial !== "" }));
  return partsToSvg(parts, "statechart");
}

/** Each part laid out (in Graphviz's thread, all at once: they are independent), set together if several, from `<svg` on. */
export async function partsToSvg(dots: readonly string[], id: string): Promise<string> {
  const pictures = await Promise.all(dots.map((dot) => dotToSvg(dot)));
  const svg = pictures.length === 1 ? pictures[0] : composeSvg(pictures, id);
  return svg.slice(svg.indexOf("<svg")).trim();
}

const REST = "";

/**
 * One part per question and one for the rest; a transition leaving its part
 * ends at a stand-in for where it goes (`→ q5 · Scope`), one coming from the
 * rest starts at a stand-in for where it comes from (`review.reviewing →`).
 */
function questionParts(d: Diagram): Diagram[] {
  const byId = new Map(d.states.map((s) => [s.id, s]));
  const topOf = (id: string) => {
    let s = byId.get(id);
    while (s?.parent) s = byId.get(s.parent);
    return s;
  };
  const partOf = (id: string) => {
    const top = topOf(id);
    return top && /^q\d+$/.test(top.path) ? top.id : REST;
  };
  const parts = new Map<string, Diagram>();
  const part = (key: string) => {
    let found = parts.get(key);
    if (!found) {
      found = { root: d.root, initial: "", states: [], edges: [] };
      parts.set(key, found);
    }
    return found;
  };
  part(REST);
  for (const s of d.states) part(partOf(s.id)).states.push(s);
  part(partOf(d.initial)).initial = d.initial;
  const standIn = (into: Diagram, id: string, label: string) => {
    if (!into.states.some((s) => s.id === id)) into.states.push({ id, path: id, label, kind: "atomic", internal: [] });
    return id;
  };
  for (const e of d.edges) {
    const [from, to] = [partOf(e.from), partOf(e.to)];
    if (from === to) part(from).edges.push(e);
    else if (from !== REST) {
      const target = topOf(e.to);
      part(from).edges.push({
        ...e,
        to: standIn(part(from), `to_${target?.id ?? e.to}`, `→ ${target?.label ?? e.to}`),
      });
    } else {
      const source = byId.get(e.from)?.path ?? "any state";
      part(to).edges.push({ ...e, from: standIn(part(to), `from_${e.from}`, `${source} →`) });
    }
  }
  const rest = parts.get(REST)!;
  parts.delete(REST);
  return [...parts.values(), rest];
}

/**
 * In a thread of its own: Graphviz is synchronous WebAssembly, and a large
 * layout would hold Pi's event loop during `/formchart review`. Where no
 * thread can be started, it runs here.
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

/** Plain CommonJS given the path of @viz-js/viz: it needs nothing of this project, however it was loaded. */
const LAYOUT_PROGRAM = `
const { parentPort, workerData } = require("node:worker_threads");
const ready = require(workerData.viz).instance();
parentPort.on("message", ({ id, dot }) => {
  ready
    .then((viz) => parentPort.postMessage({ id, svg: viz.renderString(dot, { format: "svg" }) }))
    .catch((error) => parentPort.postMessage({ id, error: error instanceof Error ? error.message : String(error) }));
});
`;

/** An idle thread is stopped, and Graphviz's memory with it. */
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
  private stopped = false;

  constructor(
    vizPath: string,
    private readonly onGone: () => void,
  ) {
    this.worker = new Worker(LAYOUT_PROGRAM, { eval: true, workerData: { viz: vizPath } });
    this.worker.on("message", ({ id, svg, error }: { id: number; svg?: string; error?: string }) => {
      const waiting = this.pending.get(id);
      this.pending.delete(id);
      if (error !== undefined) waiting?.reject(new Error(error));
      else waiting?.resolve(svg ?? "");
      this.restartIdleClock();
    });
    this.worker.on("error", (error) => this.end(error));
    this.worker.on("exit", (code) => this.end(new Error(`the layout thread stopped (exit code ${code})`)));
    // The thread keeps the process alive only while a layout is awaited: a command-line run ends when its work does.
    this.worker.unref();
  }

  layout(dot: string): Promise<string> {
    const id = this.next++;
    clearTimeout(this.idle);
    this.worker.ref();
    return new Promise<string>((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.worker.postMessage({ id, dot });
    });
  }

  private restartIdleClock(): void {
    clearTimeout(this.idle);
    if (this.pending.size > 0) return;
    this.worker.unref();
    this.idle = setTimeout(() => this.stop(), IDLE_MS);
    this.idle.unref();
  }

  /** Gone at once for new layouts (they start a thread of their own), while this one takes its time to stop. */
  private stop(): void {
    this.stopped = true;
    this.onGone();
    void this.worker.terminate();
  }

  private end(error: Error): void {
    clearTimeout(this.idle);
    if (!this.stopped) this.onGone();
    this.stopped = true;
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

const GAP = 18;

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
 * Pictures set in rows as one SVG, about 1.6 times as wide as high, so it
 * reads in a panel as one chart does. The ids Graphviz numbered itself get
 * the picture's number (`id-2-node3`), so that no id repeats.
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
    const inner = p.inner.replace(/ id="(graph0|node\d+|edge\d+|clust\d+|a_\w+)"/g, ` id="${id}-${i + 1}-$1"`);
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
