/**
 * What a change to a form does, as one HTML page: the questions, states,
 * edges and conditions added or removed, the screens that changed (side by
 * side), the routes whose keys now end elsewhere, and the text the model
 * receives before and after.
 *
 * Contract: states are compared by question id, not position (`split/choosing`,
 * not `q2.choosing`), so adding a question in the middle does not rename the
 * ones after it, and shown as the review pages name them (`Split · options
 * (q2.choosing)`). Edges are the review chart's, every key with its condition
 * (`Size · options → Split · options: Enter / Tab / → — when Size is 4 or
 * more (4 or 5)`). A route is a sequence of events generated for either form
 * (each crosses the boundaries of its form's conditions) and replayed on both
 * machines; it changed when it ends in another state or with another result,
 * and changed its outcome when the result differs (those come first). Where
 * a changed route's last key answers a question, the answer is a value at
 * which behaviour differs (`Size 3: before → Team, after → Split`). The model
 * text is compared after the shortest submit, a cancel, and each route through
 * an added or changed question that submits. A screen changed when the text
 * of a state's screen (at the end of the shortest route into it, at 80
 * columns) differs. Like the review
 * page, the page is the same bytes every time, loads nothing, and escapes
 * every text written by the model or the person.
 */
import { type AnyStateMachine, createActor } from "xstate";
import { answerValues, type FormEvent, type FormResult } from "../../machines/context.js";
import { createFormMachine } from "../../machines/form.js";
import type { FormSpec } from "../../machines/spec.js";
import { leafPath } from "../../machines/xstate-private.js";
import { reviewAssets } from "./assets.js";
import { reviewChart, stateWords } from "./chart.js";
import { conditionText } from "./condition-words.js";
import { escapeHtml } from "./html.js";
import { eventText } from "./keys.js";
import { reviewModel } from "./model.js";
import type { ReviewForm, ReviewModel } from "./types.js";

export interface FormDiff {
  old: { name: string; questions: number; states: number; routes: number };
  new: { name: string; questions: number; states: number; routes: number };
  questions: { added: string[]; removed: string[]; changed: string[] };
  states: { added: string[]; removed: string[] };
  edges: { added: string[]; removed: string[] };
  screens: Array<{ state: string; old: string[]; new: string[]; oldRows: string[]; newRows: string[] }>;
  /** Routes that end elsewhere or with another result; those whose result changed (`outcome`) first. */
  routes: Array<{ events: string; old: string; new: string; outcome?: true }>;
  /** The answers at which behaviour differs: `Size 3: before → Team, after → Split`. */
  decisions: string[];
  /** Routes generated for either form, replayed on both. */
  routesCompared: number;
  text: Array<{ what: string; old: string; new: string }>;
}

/**
 * A state path named by question id: `q2.choosing` → `split/choosing` (a
 * slash, so that a question with the id `review` is not the review).
 */
function stableName(spec: FormSpec, path: string): string {
  const q = /^q(\d+)(?:\.(.*))?$/.exec(path);
  if (!q) return path;
  const id = spec.questions[Number(q[1]) - 1]?.id ?? `q${q[1]}`;
  return q[2] ? `${id}/${q[2]}` : id;
}

/** A state for the reader, as the review pages name it: `Split · options (q2.choosing)`. */
function stateLabel(spec: FormSpec, path: string): string {
  const words = stateWords(spec, path);
  return words === path || words.startsWith(`${path} (`) ? words : `${words} (${path})`;
}

/** Each item by the name it is compared on (question ids), with the text a reader sees. */
type Named = Map<string, string>;

/** The items of `a` whose names `b` lacks, as the reader sees them. */
function missingFrom(a: Named, b: Named): string[] {
  return [...a].filter(([name]) => !b.has(name)).map(([, text]) => text);
}

const ENTITIES: Record<string, string> = { "&lt;": "<", "&gt;": ">", "&amp;": "&", "&quot;": '"', "&#39;": "'" };
const rowText = (row: string) =>
  row.replace(/<[^>]*>/g, "").replace(/&(lt|gt|amp|quot|#39);/g, (e) => ENTITIES[e] ?? e);

function screenOf(model: ReviewModel, step: number, width = 80): string[] {
  const screen = model.screens[model.steps[step].screens[model.widths.indexOf(width)]];
  return screen.map((r) => model.rows[r]);
}

function edgeLines(spec: FormSpec, model: ReviewModel): Named {
  const chart = reviewChart(spec, model, { loops: true });
  const byDot = new Map(model.states.map((s) => [s.dot, s.id]));
  const out: Named = new Map();
  for (const e of chart.edges) {
    const [from, to] = [byDot.get(e.from) ?? e.from, byDot.get(e.to) ?? e.to];
    for (const line of e.lines)
      if (!line.endsWith("ignored"))
        out.set(
          `${stableName(spec, from)} → ${stableName(spec, to)}: ${line}`,
          `${stateLabel(spec, from)} → ${stateLabel(spec, to)}: ${line}`,
        );
  }
  return new Map([...out].sort(([x], [y]) => (x < y ? -1 : x > y ? 1 : 0)));
}

function questionSummary(spec: FormSpec): Map<string, string> {
  return new Map(
    spec.questions.map((q) => {
      const shown = conditionText(spec, q.visibility);
      const parts = [
        `${q.label} (${q.id}): ${q.prompt}`,
        `options: ${q.options.map((o) => o.label).join(", ") || "none"}${q.allowOther ? ", a typed answer" : ""}`,
        shown ? `shown when ${shown}` : "always shown",
      ];
      return [q.id, parts.join(" · ")];
    }),
  );
}

/** Where a route's events lead on one machine. */
interface Replayed {
  /** The state it ends in, by question id and for the reader. */
  name: string;
  label: string;
  /** The form's result, when it closed. */
  result: FormResult | undefined;
  /** The question the last event answered (its index), and the answer, if it did. */
  answered?: { q: number; value: string };
  /** The ids of the questions the route stood at. */
  through: Set<string>;
}

/** Replays a route's events on a machine. */
function replay(spec: FormSpec, machine: AnyStateMachine, events: readonly FormEvent[]): Replayed {
  const actor = createActor(machine, { input: { spec } });
  actor.start();
  const through = new Set<string>();
  const at = (path: string) => /^q(\d+)/.exec(path)?.[1];
  try {
    let before = actor.getSnapshot();
    for (const event of events) {
      if (actor.getSnapshot().status !== "active") break;
      before = actor.getSnapshot();
      actor.send(event as never);
      const q = at(leafPath(actor.getSnapshot()));
      if (q) through.add(spec.questions[Number(q) - 1]?.id ?? "");
    }
    const end = actor.getSnapshot();
    const path = leafPath(end);
    const replayed: Replayed = {
      name: stableName(spec, path),
      label: stateLabel(spec, path),
      result: end.status === "done" ? (end.output as FormResult) : undefined,
      through,
    };
    const q = at(leafPath(before));
    const k = q === undefined ? -1 : Number(q) - 1;
    const id = spec.questions[k]?.id;
    const gave =
      id !== undefined &&
      end.context.answered[k] &&
      (!before.context.answered[k] || JSON.stringify(before.context.picks[k]) !== JSON.stringify(end.context.picks[k]));
    const values = gave ? answerValues(spec, end.context, id) : undefined;
    if (values) replayed.answered = { q: k, value: values.join(", ") };
    return replayed;
  } finally {
    actor.stop();
  }
}

/** The events of the routes a review page replayed. */
function routeEvents(model: ReviewModel): FormEvent[][] {
  return model.routes.map((route) => route.flatMap((step) => model.steps[step].raw ?? []));
}

/** The model texts compared on routes through changed questions, at most. */
const MODEL_TEXTS = 6;

/** The ids of the questions added, or changed in text, options or conditions. */
function changedIds(a: FormSpec, b: FormSpec): string[] {
  const old = new Map(a.questions.map((q) => [q.id, JSON.stringify(q)]));
  return b.questions.filter((q) => old.get(q.id) !== JSON.stringify(q)).map((q) => q.id);
}

export async function formDiff(before: ReviewForm, after: ReviewForm): Promise<FormDiff> {
  const [oldModel, newModel] = [await reviewModel(before), await reviewModel(after)];
  const [a, b] = [before.spec, after.spec];

  const oldQ = questionSummary(a);
  const newQ = questionSummary(b);
  const questions = {
    added: [...newQ.keys()].filter((id) => !oldQ.has(id)).map((id) => newQ.get(id)!),
    removed: [...oldQ.keys()].filter((id) => !newQ.has(id)).map((id) => oldQ.get(id)!),
    changed: [...newQ.keys()]
      .filter((id) => oldQ.has(id) && oldQ.get(id) !== newQ.get(id))
      .map((id) => `${oldQ.get(id)}\n→ ${newQ.get(id)}`),
  };

  const leaves = (spec: FormSpec, model: ReviewModel): Named =>
    new Map(
      model.states.filter((s) => s.kind !== "compound").map((s) => [stableName(spec, s.id), stateLabel(spec, s.id)]),
    );
  const oldStates = leaves(a, oldModel);
  const newStates = leaves(b, newModel);

  const oldEdges = edgeLines(a, oldModel);
  const newEdges = edgeLines(b, newModel);

  // Screens of the states both forms have, at the end of the shortest route into each.
  const screens: FormDiff["screens"] = [];
  const newByName = new Map(newModel.states.map((s) => [stableName(b, s.id), s]));
  for (const s of oldModel.states) {
    if (s.kind === "compound" || s.step < 0) continue;
    const other = newByName.get(stableName(a, s.id));
    if (!other || other.step < 0) continue;
    const oldRows = screenOf(oldModel, s.step);
    const newRows = screenOf(newModel, other.step);
    const [oldText, newText] = [oldRows.map(rowText), newRows.map(rowText)];
    if (oldText.join("\n") !== newText.join("\n"))
      screens.push({ state: stateLabel(b, other.id), old: oldText, new: newText, oldRows, newRows });
  }

  // Every route generated for either form, replayed on both.
  const [oldMachine, newMachine] = [a, b].map((spec) => createFormMachine(spec) as unknown as AnyStateMachine);
  // Events named by the key that sends them, as the review pages name them.
  const keyOf = new Map<string, string>();
  for (const model of [oldModel, newModel])
    for (const step of model.steps) if (step.keys.length && !keyOf.has(step.event)) keyOf.set(step.event, step.keys[0]);
  const named = (e: FormEvent) => {
    const text = eventText(e as never);
    return keyOf.get(text) ?? text;
  };
  const touched = new Set([...questions.added, ...questions.changed].length ? changedIds(a, b) : []);
  const textOf = (form: ReviewForm, result: FormResult | undefined) =>
    result === undefined ? "(no route ends so)" : form.answer ? form.answer(result).text : JSON.stringify(result);
  const seen = new Set<string>();
  const routes: FormDiff["routes"] = [];
  const decisions = new Set<string>();
  const text: FormDiff["text"] = [];
  const texts = new Set<string>();
  for (const events of [...routeEvents(oldModel), ...routeEvents(newModel)]) {
    const key = JSON.stringify(events);
    if (seen.has(key)) continue;
    seen.add(key);
    const [from, to] = [replay(a, oldMachine, events), replay(b, newMachine, events)];
    // What the model is told is the outcome (the result's shape differs with the form's questions).
    const [oldText, newText] = [textOf(before, from.result), textOf(after, to.result)];
    const outcome = oldText !== newText;
    if (from.name !== to.name || outcome) {
      const keys = events.map(named).join(" · ");
      routes.push({ events: keys, old: from.label, new: to.label, ...(outcome ? { outcome: true as const } : {}) });
      // The last key gave the same answer to the same question in both: behaviour differs at that value.
      const [was, is] = [from.answered, to.answered];
      if (
        was &&
        is &&
        from.name !== to.name &&
        a.questions[was.q].id === b.questions[is.q].id &&
        was.value === is.value
      )
        decisions.add(`${b.questions[is.q].label} ${is.value}: before → ${from.label}, after → ${to.label}`);
    }
    // The model text on routes through an added or changed question that submit on either side.
    const through = [...touched].some((id) => from.through.has(id) || to.through.has(id));
    if (through && (from.result || to.result) && text.length < MODEL_TEXTS) {
      if (outcome && !texts.has(oldText + newText)) {
        texts.add(oldText + newText);
        text.push({ what: `after ${events.map(named).join(" · ")}`, old: oldText, new: newText });
      }
    }
  }
  routes.sort(
    (x, y) =>
      Number(!!y.outcome) - Number(!!x.outcome) || x.events.length - y.events.length || (x.events < y.events ? -1 : 1),
  );

  for (const [what, o, n] of [
    ["after the shortest submit", oldModel.submit?.text, newModel.submit?.text],
    ["after a cancel", oldModel.cancel?.text, newModel.cancel?.text],
  ] as const)
    if ((o ?? "") !== (n ?? "")) text.unshift({ what, old: o ?? "(no route ends so)", new: n ?? "(no route ends so)" });
  text.sort(
    (x, y) =>
      Number(!x.what.startsWith("after the") && !x.what.startsWith("after a cancel")) -
      Number(!y.what.startsWith("after the") && !y.what.startsWith("after a cancel")),
  );

  const side = (name: string, spec: FormSpec, model: ReviewModel) => ({
    name,
    questions: spec.questions.length,
    states: model.coverage.states.total,
    routes: model.routes.length,
  });
  return {
    old: side(before.name ?? "old", a, oldModel),
    new: side(after.name ?? "new", b, newModel),
    questions,
    states: { added: missingFrom(newStates, oldStates), removed: missingFrom(oldStates, newStates) },
    edges: { added: missingFrom(newEdges, oldEdges), removed: missingFrom(oldEdges, newEdges) },
    screens,
    routes,
    decisions: [...decisions],
    routesCompared: seen.size,
    text,
  };
}

const list = (items: readonly string[], cls: string, none: string) =>
  items.length
    ? `<ul class="${cls}">\n${items.map((i) => `<li>${escapeHtml(i).replace(/\n/g, "<br>")}</li>`).join("\n")}\n</ul>`
    : `<p class="none">${none}</p>`;

const term = (rows: readonly string[]) =>
  `<div class="term" style="--cols: 80">${rows.map((r) => `<div>${r}</div>`).join("")}</div>`;

const DIFF_STYLE = `
.diff section { margin: 0 20px 16px; padding: 10px 12px; background: var(--paper); border: 1px solid var(--line); border-radius: 6px; }
.diff ul { margin: 4px 0; padding-left: 20px; }
.diff ul.added li { color: #0f6b2f; }
.diff ul.added li::marker { content: "+ "; }
.diff ul.removed li { color: #b42318; }
.diff ul.removed li::marker { content: "− "; }
.diff ul.changed li::marker { content: "~ "; }
.diff .none { color: var(--muted); }
.diff .pair { display: grid; grid-template-columns: minmax(0, 1fr) minmax(0, 1fr); gap: 12px; container-type: inline-size; }
.diff .pair > div { min-width: 0; container-type: inline-size; }
.diff table.routes td { font: 12px ui-monospace, "DejaVu Sans Mono", monospace; }
.diff table.routes tr.outcome td { font-weight: 600; }
`;

/** The diff as one self-contained HTML page. */
export function formDiffPage(diff: FormDiff): string {
  const title = `${diff.old.name} → ${diff.new.name}`;
  const side = (s: FormDiff["old"]) =>
    `${escapeHtml(s.name)}: ${s.questions} questions · ${s.states} states · ${s.routes} routes`;
  const shownRoutes = diff.routes.slice(0, 200);
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">
<title>Changes: ${escapeHtml(title)}</title>
<style>
${reviewAssets().style}${DIFF_STYLE}</style>
</head>
<body class="diff">
<header>
<h1>Changes <small>${escapeHtml(title)}</small></h1>
<p class="summary">before ${side(diff.old)} — after ${side(diff.new)}</p>
</header>
<section id="questions">
<h2>Questions</h2>
${list(diff.questions.added, "added", "No question added.")}
${list(diff.questions.removed, "removed", "No question removed.")}
${list(diff.questions.changed, "changed", "No question changed its text, options or conditions.")}
</section>
<section id="states">
<h2>States <small>(named by question id)</small></h2>
${list(diff.states.added, "added", "No state added.")}
${list(diff.states.removed, "removed", "No state removed.")}
</section>
<section id="edges">
<h2>Keys, where they lead, and when</h2>
${list(diff.edges.added, "added", "No key leads anywhere new.")}
${list(diff.edges.removed, "removed", "No key stopped leading where it did.")}
</section>
<section id="decisions">
<h2>Answers where behaviour differs</h2>
${list(diff.decisions, "changed", "No answer leads elsewhere than it did.")}
</section>
<section id="routes">
<h2>Routes that end elsewhere <small>(${diff.routes.length} of ${diff.routesCompared} routes of either form, replayed on both)</small></h2>
${
  diff.routes.length
    ? `<table class="routes">
<thead><tr><th>keys</th><th>ended before in</th><th>ends now in</th></tr></thead>
<tbody>
${shownRoutes.map((r) => `<tr${r.outcome ? ' class="outcome"' : ""}><td>${escapeHtml(r.events)}</td><td>${escapeHtml(r.old)}</td><td>${escapeHtml(r.new)}</td></tr>`).join("\n")}
</tbody>
</table>${diff.routes.length > shownRoutes.length ? `\n<p class="none">and ${diff.routes.length - shownRoutes.length} more</p>` : ""}`
    : `<p class="none">Every route ends where it did.</p>`
}
</section>
<section id="screens">
<h2>Screens that changed <small>(at 80 columns: before, after)</small></h2>
${
  diff.screens.length
    ? diff.screens
        .map(
          (s) => `<h3>${escapeHtml(s.state)}</h3>
<div class="pair"><div>${term(s.oldRows)}</div><div>${term(s.newRows)}</div></div>`,
        )
        .join("\n")
    : `<p class="none">No screen changed.</p>`
}
</section>
<section id="model-text">
<h2>What the model receives</h2>
${
  diff.text.length
    ? diff.text
        .map(
          (t) => `<h3>${escapeHtml(t.what)}</h3>
<div class="pair"><pre class="result-text">${escapeHtml(t.old)}</pre><pre class="result-text">${escapeHtml(t.new)}</pre></div>`,
        )
        .join("\n")
    : `<p class="none">The model reads the same after the shortest submit and after a cancel.</p>`
}
</section>
</body>
</html>
`;
}
