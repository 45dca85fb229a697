/**
 * The statechart of a review page in the words of the person who answers
 * the form: states by question (`Split · typing an answer`), edges by keys
 * and condition (`Enter — when Size is 4 or more (4 or 5)`).
 *
 * Contract: read off the replayed steps (a key leads where it really led,
 * eventless skips folded into the key that caused them), one edge per pair
 * of states, a line per key and condition. Keys that stay or are ignored,
 * the prompts before discarding and moves back are left out unless `loops`.
 * Event names are for hovering (`events`), never in the labels.
 */
import type { FormSpec } from "../../machines/spec.js";
import { dotString, edgeLine, LABEL_WIDTH, withoutShown, wrap } from "./chart-labels.js";
import type { ChartEdgeData } from "./client/data.js";
import { questionName, RETURNING, shownNote } from "./condition-words.js";
import { keyList } from "./keys.js";
import { SUBSTATES, stateWords } from "./state-names.js";
import type { ReviewModel } from "./types.js";

/** The node edges taken from every question start from (cancelling). */
const ANY_QUESTION = "any_question";

export interface ChartEdge extends ChartEdgeData {
  label: string;
  /** The label's lines unwrapped: keys, and the condition under which they lead here. */
  lines: string[];
}

export interface Chart {
  /** The whole chart as one graph (a split chart: its parts' graphs, one after another). */
  dot: string;
  /** The graphs to lay out: the whole chart, or (`parts`) one per question and one for the rest, with stand-ins (`→ Q5`). */
  parts: string[];
  edges: ChartEdge[];
}

interface Grouped {
  from: string;
  to: string;
  events: Set<string>;
  /** condition → keys */
  lines: Map<string, string[]>;
  /** The state the edge's steps lead into (a stand-in's: the state it stands for). */
  into: string;
  steps: number[];
}

/** `overview` draws one node per question; `edgeOf[step]` is the chart edge a step takes (-1: none). */
export function reviewChart(
  spec: FormSpec,
  model: ReviewModel,
  {
    loops = false,
    overview = false,
    prefix = "chart",
    parts: split = false,
  }: { loops?: boolean; overview?: boolean; prefix?: string; parts?: boolean } = {},
): Chart & { edgeOf: number[] } {
  // The folded form is a view of any state, reached from each: only the full chart draws it.
  const drawn = (path: string) => {
    if (loops) return true;
    if (path === "folded") return false;
    return overview || !/\.discarding$/.test(path);
  };
  const byPath = new Map(model.states.map((s) => [s.id, s]));
  const node = (path: string) => {
    if (overview) {
      const top = path.split(".")[0];
      return byPath.get(top)?.dot ?? byPath.get(path)?.dot ?? path;
    }
    return byPath.get(path)?.dot ?? path;
  };
  const partOf = (path: string) => (split && !overview ? partOfPath(path) : REST);
  const stubs = new Map<string, Stub>();
  /** A step into another part ends at a stand-in in its own part (`→ Q5`, `→ Cancelled`); from the rest, any question. */
  const standIn = (fromPart: string, toPath: string) => {
    const toPart = partOf(toPath);
    if (toPart === fromPart) return undefined;
    if (fromPart === REST) return ANY_QUESTION;
    const target = toPart === REST ? toPath : toPart;
    const id = `to_${byPath.get(fromPart)?.dot ?? fromPart}_${byPath.get(target)?.dot ?? target}`;
    if (!stubs.has(id)) stubs.set(id, { id, part: fromPart, label: `→ ${stateWords(spec, target)}`, target });
    return id;
  };
  const groups = new Map<string, Grouped>();
  const edgeOf: number[] = model.steps.map(() => -1);
  const order: string[] = [];
  model.steps.forEach((step, id) => {
    if (step.parent < 0 || step.event.startsWith("ABORT")) return;
    const fromPath = model.steps[step.parent].state;
    if (!drawn(fromPath) || !drawn(step.state)) return;
    const hub = !loops && hubbed(fromPath, step);
    if (hub === "dropped") return;
    // Cancelling from a question is drawn once, from "any question", not from each of them.
    const fromAny = hub === "to review" || (!loops && step.state === "cancelled" && /^q\d/.test(fromPath));
    const from = fromAny ? ANY_QUESTION : node(fromPath);
    const away = hub ? undefined : standIn(fromAny ? REST : partOf(fromPath), step.state);
    const to = hub === "to a question" ? ANY_QUESTION : (away ?? node(step.state));
    const loop = step.refused || from === to;
    if (loop && !loops) return;
    // The flow leaves out moves back to an earlier question (Shift+Tab): the full chart has them.
    if (!loops && !hub && rank(step.state, spec.questions.length) < rank(fromPath, spec.questions.length)) return;
    const key = `${from}\u0000${to}`;
    let g = groups.get(key);
    if (!g) {
      g = { from, to, events: new Set(), lines: new Map(), steps: [], into: step.state };
      groups.set(key, g);
      order.push(key);
    }
    g.events.add(step.event.split(" ")[0]);
    // The hub stands for every question: which one a key opens is the key table's to say.
    const when = step.refused
      ? "ignored"
      : to === ANY_QUESTION || (overview && fromPath.split(".")[0] === step.state.split(".")[0])
        ? ""
        : step.when;
    const delay = step.event === "after the cooldown" && spec.waitMs ? `after ${spec.waitMs / 1000}s` : step.event;
    const keys = step.keys.length ? step.keys : [delay];
    const line = g.lines.get(when) ?? g.lines.set(when, []).get(when)!;
    for (const k of keys) if (!line.includes(k)) line.push(k);
    g.steps.push(id);
  });
  const edges: ChartEdge[] = order.map((key, i) => {
    const g = groups.get(key)!;
    for (const s of g.steps) edgeOf[s] = i;
    const sorted = [...g.lines.entries()].sort(([a], [b]) => (a === "" ? -1 : b === "" ? 1 : 0));
    const lines = sorted.map(([when, keys]) => (when ? `${keyList(keys)} — ${when}` : keyList(keys)));
    const label = sorted.map(([when, keys]) => edgeLine(keyList(keys), withoutShown(spec, g.into, when))).join("\n");
    return { id: `${prefix}-${i}`, from: g.from, to: g.to, events: [...g.events].join(", "), label, lines };
  });
  if (!split || overview) {
    const whole = toChartDot(spec, model, edges, overview, drawn, prefix);
    return { dot: whole, parts: [whole], edges, edgeOf };
  }
  // One graph per part: each lays out on its own, so the time grows with the questions, not faster.
  const names = [...new Set([...model.states.map((s) => partOfPath(s.id)), REST])];
  const partOfNode = new Map<string, string>(model.states.map((s) => [s.dot, partOfPath(s.id)]));
  partOfNode.set(ANY_QUESTION, REST);
  for (const stub of stubs.values()) partOfNode.set(stub.id, stub.part);
  const edgesOf = new Map<string, ChartEdge[]>();
  for (const e of edges) {
    const part = partOfNode.get(e.from) ?? REST;
    edgesOf.set(part, [...(edgesOf.get(part) ?? []), e]);
  }
  const parts = names.flatMap((part) => {
    const states = (path: string) => drawn(path) && partOfPath(path) === part;
    const standIns = [...stubs.values()].filter((stub) => stub.part === part);
    const start = partOfPath(model.initial) === part;
    const dot = toChartDot(spec, model, edgesOf.get(part) ?? [], overview, states, prefix, { standIns, start });
    return dot.includes(" [id=") ? [dot] : [];
  });
  return { dot: parts.join(""), parts, edges, edgeOf };
}

/** The part of a split chart that draws a state: its question (`q5`), or the rest (the review, the outcomes). */
const REST = "rest";
function partOfPath(path: string): string {
  const top = path.split(".")[0];
  return /^q\d+$/.test(top) ? top : REST;
}

/** A stand-in, in one part of a split chart, for a state drawn in another. */
interface Stub {
  id: string;
  part: string;
  label: string;
  target: string;
}

/**
 * The review as a hub (flow and overview): going back to a question and
 * coming back are drawn once, between the review and "any question"; coming
 * back by way of a later question left open is the same move.
 */
function hubbed(fromPath: string, step: ReviewModel["steps"][number]): "to review" | "to a question" | "dropped" | "" {
  const question = (path: string) => /^q\d/.test(path);
  if (fromPath.startsWith("review") && question(step.state) && !step.refused) return "to a question";
  if (!question(fromPath) || !step.when.includes(RETURNING)) return "";
  return step.state.startsWith("review") ? "to review" : "dropped";
}

/** Where a state stands in the form's order: the countdown, the questions, the review, the outcomes. */
function rank(path: string, questions: number): number {
  if (path === "waiting") return 0;
  const q = /^q(\d+)/.exec(path);
  if (q) return Number(q[1]);
  if (path.startsWith("review")) return questions + 1;
  return questions + 2;
}

function toChartDot(
  spec: FormSpec,
  model: ReviewModel,
  edges: ChartEdge[],
  overview: boolean,
  drawn: (path: string) => boolean,
  prefix: string,
  part?: { standIns: Stub[]; start: boolean },
): string {
  const pathOf = new Map(model.states.map((s) => [s.dot, s.id]));
  for (const stub of part?.standIns ?? []) pathOf.set(stub.id, stub.target);
  const order = (dot: string) => (dot === ANY_QUESTION ? 0 : rank(pathOf.get(dot) ?? dot, spec.questions.length));
  const lines = [
    "digraph form {",
    '  rankdir=TB; newrank=true; nodesep=0.3; ranksep=0.45; fontname="Helvetica"; fontsize=12;',
    '  node [shape=box, style="rounded,filled", fillcolor="white", fontname="Helvetica", fontsize=12];',
    '  edge [fontname="Helvetica", fontsize=10, color="gray35"];',
  ];
  const start = part ? part.start : true;
  if (start) lines.push(`  __start [id="${prefix}-start", shape=point, width=0.15, label=""];`);
  const notes = (s: ReviewModel["states"][number]) => {
    const q = /^q(\d+)$/.exec(s.id);
    const question = q ? spec.questions[Number(q[1]) - 1] : undefined;
    const parts: string[] = [];
    if (question && question.id.toLowerCase() !== questionName(spec, Number(q![1]) - 1).toLowerCase())
      parts.push(`id ${question.id}`);
    const shown = shownNote(spec, s.id);
    if (shown) parts.push(wrap(shown, LABEL_WIDTH + 2));
    return parts;
  };
  const leaf = (s: ReviewModel["states"][number], indent: string, label = stateWords(spec, s.id)) => {
    const extra = s.kind === "final" ? ", peripheries=2" : "";
    lines.push(`${indent}${s.dot} [id="${prefix}-${s.dot}", label=${dotString(label)}${extra}];`);
  };
  const top: ReviewModel["states"] = [];
  const childrenOf = new Map<string, ReviewModel["states"]>();
  for (const s of model.states) {
    if (s.parent === undefined) top.push(s);
    else if (drawn(s.id)) childrenOf.set(s.parent, [...(childrenOf.get(s.parent) ?? []), s]);
  }
  for (const s of top) {
    const children = childrenOf.get(s.id) ?? [];
    if (s.kind !== "compound") {
      if (drawn(s.id)) leaf(s, "  ");
    } else if (children.length === 0) {
      // Drawn in another part of a split chart.
    } else {
      const label = dotString([stateWords(spec, s.id), ...notes(s)].join("\n"));
      // A question drawn as one state needs no frame: the node carries its name.
      const node = children.length === 1 ? children[0] : overview ? s : undefined;
      if (node) {
        lines.push(`  ${node.dot} [id="${prefix}-${node.dot}", label=${label}];`);
        continue;
      }
      lines.push(
        `  subgraph cluster_${s.dot} {`,
        `    id="${prefix}-cluster-${s.dot}"; label=${label}; style="rounded"; color="gray60";`,
      );
      for (const c of children) leaf(c, "    ", SUBSTATES[c.id.split(".")[1]] ?? stateWords(spec, c.id));
      lines.push("  }");
    }
  }
  const first = model.states.find((s) => s.id === model.initial);
  const opening = overview ? model.states.find((s) => s.id === model.initial.split(".")[0]) : first;
  if (opening && start) lines.push(`  __start -> ${opening.dot};`);
  if (edges.some((e) => e.from === ANY_QUESTION || e.to === ANY_QUESTION))
    lines.push(`  ${ANY_QUESTION} [id="${prefix}-any", label="any question", shape=plaintext, fontcolor="gray40"];`);
  for (const stub of part?.standIns ?? [])
    lines.push(
      `  ${stub.id} [id="${prefix}-${stub.id}", label=${dotString(stub.label)}, style="rounded,dashed", color="gray60", fontcolor="gray40"];`,
    );
  for (const e of edges) {
    const attrs = [`label=${dotString(e.label)}`, `id=${dotString(e.id)}`];
    if (e.label.includes("ignored")) attrs.push('style=dashed, color="gray70", fontcolor="gray55"');
    // Moves back (to an earlier question) do not pull the layout: the form reads from top to bottom.
    if (order(e.to) < order(e.from)) attrs.push("constraint=false");
    lines.push(`  ${e.from} -> ${e.to} [${attrs.join(", ")}];`);
  }
  lines.push("}");
  return `${lines.join("\n")}\n`;
}
