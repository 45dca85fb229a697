/**
 * Diagrams of a form's statechart: Mermaid, DOT, or SVG rendered offline by
 * Graphviz compiled to WebAssembly (@viz-js/viz, loaded on first use).
 */

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

let viz: Promise<{ renderString(dot: string, options: { format: string }): string }> | undefined;

export async function renderDiagram(spec: FormSpec, format: DiagramFormat): Promise<string> {
  const diagram = formDiagram(spec);
  if (format === "mermaid") return toMermaid(diagram);
  const dot = toDot(diagram);
  return format === "dot" ? dot : dotToSvg(dot);
}

/** Graphviz DOT to SVG, offline. */
export async function dotToSvg(dot: string): Promise<string> {
  viz ??= import("@viz-js/viz").then((m) => m.instance());
  return (await viz).renderString(dot, { format: "svg" });
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
