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
