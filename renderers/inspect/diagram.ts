/**
 * A form's statechart as Mermaid or Graphviz DOT text, read off the machine
 * the engine builds, not a second description of it. Transitions without a
 * target only change context: they are summarized per state, not drawn.
 */
import type { AnyStateMachine } from "xstate";

type Node = AnyStateMachine["root"];

export interface DiagramState {
  id: string;
  /** The state's path in the machine, as `snapshot.matches` reads it: `q2.typing`. */
  path: string;
  label: string;
  detail?: string;
  parent?: string;
  kind: "atomic" | "compound" | "final";
  initial?: string;
  internal: string[];
}

export interface DiagramEdge {
  from: string;
  to: string;
  label: string;
  /** The transition drawn: its source node id, event and candidate index (`form.review CONFIRM #0`). */
  transition: string;
  id?: string;
  /** An event the state ignores (a guard refuses it): drawn greyed and dashed. */
  refused?: boolean;
  guard?: GuardRef;
  /** Guards of the candidates before it: each must have failed. */
  otherwise?: GuardRef[];
}

export interface GuardRef {
  type: string;
  params?: Record<string, unknown>;
}

function guardRef(guard: unknown): GuardRef | undefined {
  if (!guard) return undefined;
  if (typeof guard === "string") return { type: guard };
  const g = guard as { type?: string; params?: Record<string, unknown> };
  return g.type ? (g.params ? { type: g.type, params: g.params } : { type: g.type }) : undefined;
}

export type DiagramFormat = "mermaid" | "dot" | "svg";

export const DIAGRAM_FORMATS: readonly DiagramFormat[] = ["mermaid", "dot", "svg"];

export const ANY = "any_state";

export interface Diagram {
  root: string;
  initial: string;
  states: DiagramState[];
  edges: DiagramEdge[];
}

const safeId = (id: string) => id.replace(/^form\.?/, "").replace(/[^A-Za-z0-9]+/g, "_") || "form";
/** Model-written text made safe for both diagram languages: one line, no quotes, braces or control characters. */
const plain = (text: string, max = 48) => {
  const flat = text
    .replace(/[\p{Cc}"{}[\]<>|:;#\\`]+/gu, " ")
    .replace(/\s+/g, " ")
    .trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
};

function guardLabel(guard: unknown): string {
  if (!guard) return "";
  if (typeof guard === "string") return guard;
  const g = guard as { type?: string; params?: Record<string, unknown> };
  if (!g.type) return "guard";
  const params = Object.entries(g.params ?? {}).map(([k, v]) =>
    k === "q" && typeof v === "number" ? `q${v + 1}` : String(v),
  );
  return params.length ? `${g.type}(${params.join(", ")})` : g.type;
}

function eventLabel(eventType: string, delays: Record<string, number>): string {
  const after = /^xstate\.after\.([^.]+)\./.exec(eventType);
  if (after) {
    const delay = delays[after[1]];
    return delay !== undefined ? `after ${delay / 1000}s` : `after ${after[1]}`;
  }
  return eventType === "" ? "always" : eventType;
}

export interface DiagramNames {
  labels?: Record<string, string>;
  details?: Record<string, string>;
  delays?: Record<string, number>;
}

export function describeMachine(
  machine: AnyStateMachine,
  { labels = {}, details = {}, delays = {} }: DiagramNames = {},
): Diagram {
  const states: DiagramState[] = [];
  const edges: DiagramEdge[] = [];
  const visit = (node: Node, parent?: string) => {
    const id = safeId(node.id);
    const children = Object.values(node.states) as Node[];
    const kind = node.type === "final" ? "final" : children.length ? "compound" : "atomic";
    const question = labels[node.key];
    const state: DiagramState = {
      id,
      path: node.id.replace(/^form\.?/, ""),
      label: question ? `${node.key} · ${plain(question)}` : node.key,
      kind,
      internal: [],
    };
    if (parent !== undefined) state.parent = parent;
    if (details[node.key]) state.detail = plain(details[node.key], 60);
    if (children.length && node.initial?.target?.[0]) state.initial = safeId(node.initial.target[0].id);
    states.push(state);
    const candidates: Array<[string, Array<{ target?: readonly Node[]; guard?: unknown }>]> = [
      ...node.transitions.entries(),
    ];
    if (node.always?.length) candidates.push(["", node.always]);
    for (const [eventType, defs] of candidates) {
      const before: GuardRef[] = [];
      defs.forEach((def, i) => {
        const ref = guardRef(def.guard);
        const earlier = [...before];
        if (ref) before.push(ref);
        const guard = guardLabel(def.guard);
        const label = `${eventLabel(eventType, delays)}${guard ? ` [${guard}]` : ""}`;
        if (!def.target?.length) {
          if (!state.internal.includes(eventType)) state.internal.push(eventType);
          return;
        }
        // Named as renderers/inspect/paths.ts names transitions when it records coverage.
        const transition = `${node.id} ${eventType || "always"} #${i}`;
        for (const target of def.target) {
          const edge: DiagramEdge = { from: id, to: safeId(target.id), label, transition };
          if (ref) edge.guard = ref;
          if (earlier.length) edge.otherwise = earlier;
          edges.push(edge);
        }
      });
    }
    for (const child of children) visit(child, id);
  };
  visit(machine.root);
  const root = states[0];
  return {
    root: root.id,
    initial: root.initial ?? "",
    states: states.slice(1).map((s) => (s.parent === root.id ? { ...s, parent: undefined } : s)),
    edges: edges.map((e) => (e.from === root.id ? { ...e, from: ANY } : e)),
  };
}

export function toMermaid(d: Diagram): string {
  const lines = ["stateDiagram-v2", "  direction LR", `  [*] --> ${d.initial}`];
  const childrenOf = (parent: string | undefined) => d.states.filter((s) => s.parent === parent);
  const emit = (s: DiagramState, indent: string) => {
    const kids = childrenOf(s.id);
    if (kids.length) {
      lines.push(`${indent}state "${s.detail ? `${s.label} (${s.detail})` : s.label}" as ${s.id} {`);
      if (s.initial) lines.push(`${indent}  [*] --> ${s.initial}`);
      for (const k of kids) emit(k, `${indent}  `);
      lines.push(`${indent}}`);
    } else {
      lines.push(`${indent}state "${s.label}" as ${s.id}`);
    }
    if (s.internal.length)
      lines.push(`${indent}note right of ${s.id} : also ${s.internal.map((e) => e || "always").join(", ")}`);
  };
  for (const s of childrenOf(undefined)) emit(s, "  ");
  if (d.edges.some((e) => e.from === ANY)) lines.push(`  state "any state" as ${ANY}`);
  for (const e of d.edges) lines.push(`  ${e.from} --> ${e.to} : ${e.label}`);
  for (const s of d.states.filter((x) => x.kind === "final")) lines.push(`  ${s.id} --> [*]`);
  return `${lines.join("\n")}\n`;
}

const dotString = (text: string) => `"${text.replace(/\\/g, "\\\\").replace(/"/g, '\\"')}"`;

/** Graphviz DOT: compound states as clusters, final states as double circles; left to right unless told. */
export function toDot(d: Diagram, options: { direction?: "LR" | "TB"; start?: boolean } = {}): string {
  const byId = new Map(d.states.map((s) => [s.id, s]));
  /** A compound state is drawn entered at its initial leaf. */
  const leaf = (id: string): string => {
    const s = byId.get(id);
    return s?.kind === "compound" && s.initial ? leaf(s.initial) : id;
  };
  const lines = [
    "digraph form {",
    `  rankdir=${options.direction ?? "LR"}; compound=true; newrank=true;`,
    '  node [shape=box, style="rounded", fontname="Helvetica", fontsize=11];',
    '  edge [fontname="Helvetica", fontsize=9];',
  ];
  // A part of a chart drawn in parts may not hold the start.
  const start = options.start ?? true;
  if (start) lines.push('  __start [shape=point, width=0.15, label=""];');
  if (d.edges.some((e) => e.from === ANY))
    lines.push(`  ${ANY} [label="any state", shape=plaintext, fontcolor="gray40"];`);
  const emit = (parent: string | undefined, indent: string) => {
    for (const s of d.states.filter((x) => x.parent === parent)) {
      if (s.kind === "compound") {
        const label = s.detail
          ? `${dotString(s.label).slice(0, -1)}\\n${dotString(s.detail).slice(1)}`
          : dotString(s.label);
        lines.push(
          `${indent}subgraph cluster_${s.id} {`,
          `${indent}  label=${label}; style="rounded"; color="gray50";`,
        );
        emit(s.id, `${indent}  `);
        lines.push(`${indent}}`);
      } else {
        const extra = s.kind === "final" ? ', shape=doublecircle, style="", width=0.3' : "";
        const label = s.internal.length ? `${s.label}\\n(${s.internal.map((e) => e || "always").join(", ")})` : s.label;
        lines.push(`${indent}${s.id} [label=${dotString(label).replace(/\\\\n/g, "\\n")}${extra}];`);
      }
    }
  };
  emit(undefined, "  ");
  if (start)
    lines.push(
      `  __start -> ${leaf(d.initial)}${byId.get(d.initial)?.kind === "compound" ? ` [lhead=cluster_${d.initial}]` : ""};`,
    );
  for (const e of d.edges) {
    const attrs = [`label=${dotString(e.label)}`];
    if (e.id) attrs.push(`id=${dotString(e.id)}`);
    if (e.refused) attrs.push('style=dashed, color="gray70", fontcolor="gray55"');
    if (byId.get(e.from)?.kind === "compound") attrs.push(`ltail=cluster_${e.from}`);
    if (byId.get(e.to)?.kind === "compound" && e.to !== e.from) attrs.push(`lhead=cluster_${e.to}`);
    lines.push(`  ${leaf(e.from)} -> ${leaf(e.to)} [${attrs.join(", ")}];`);
  }
  lines.push("}");
  return `${lines.join("\n")}\n`;
}
