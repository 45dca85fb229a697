/**
 * What a change to a form does, as one HTML page: the questions, states,
 * edges and conditions added or removed, the screens that changed (side by
 * side), the routes whose keys now end elsewhere, and the text the model
 * receives before and after.
 *
 * Contract: states are named by question id, not position (`split/choosing`,
 * not `q2.choosing`), so adding a question in the middle does not rename the
 * ones after it. Edges are the review chart's, every key with its condition
 * (`Size · options → Split · options: Enter / Tab / → — when Size is 4 or
 * more (4 or 5)`). A route is a sequence of events generated for either form
 * and replayed on both machines; it changed its outcome when it ends in
 * another state. A screen changed when the text of a state's screen (at the
 * end of the shortest route into it, at 80 columns) differs. Like the review
 * page, the page is the same bytes every time, loads nothing, and escapes
 * every text written by the model or the person.
 */
import { type AnyStateMachine, createActor } from "xstate";
import type { FormEvent } from "../../machines/context.js";
import { createFormMachine } from "../../machines/form.js";
import { COOLDOWN_DONE, findRoutes } from "../../machines/paths.js";
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
  routes: Array<{ events: string; old: string; new: string }>;
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

/** A state for the reader: `Split · options (split.choosing)`. */
function stateLabel(spec: FormSpec, path: string): string {
  const words = stateWords(spec, path);
  const name = stableName(spec, path);
  return words === name || words.startsWith(`${name} (`) ? words : `${words} (${name})`;
}

const ENTITIES: Record<string, string> = { "&lt;": "<", "&gt;": ">", "&amp;": "&", "&quot;": '"', "&#39;": "'" };
const rowText = (row: string) =>
  row.replace(/<[^>]*>/g, "").replace(/&(lt|gt|amp|quot|#39);/g, (e) => ENTITIES[e] ?? e);

function screenOf(model: ReviewModel, step: number, width = 80): string[] {
  const screen = model.screens[model.steps[step].screens[model.widths.indexOf(width)]];
  return screen.map((r) => model.rows[r]);
}

function edgeLines(spec: FormSpec, model: ReviewModel): string[] {
  const chart = reviewChart(spec, model, { loops: true });
  const byDot = new Map(model.states.map((s) => [s.dot, s.id]));
  const out = new Set<string>();
  for (const e of chart.edges) {
    const from = stateLabel(spec, byDot.get(e.from) ?? e.from);
    const to = stateLabel(spec, byDot.get(e.to) ?? e.to);
    for (const line of e.lines) if (!line.endsWith("ignored")) out.add(`${from} → ${to}: ${line}`);
  }
  return [...out].sort();
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

/** Replays a route's events on a machine; the state it ends in (named by question id, and for the reader). */
function replay(
  spec: FormSpec,
  machine: AnyStateMachine,
  events: readonly FormEvent[],
): { name: string; label: string } {
  const actor = createActor(machine, { input: { spec } });
  actor.start();
  try {
    for (const event of events) {
      if (actor.getSnapshot().status !== "active") break;
      actor.send(event as never);
    }
    const path = leafPath(actor.getSnapshot());
    return { name: stableName(spec, path), label: stateLabel(spec, path) };
  } finally {
    actor.stop();
  }
}

async function routeEvents(spec: FormSpec, machine: AnyStateMachine): Promise<FormEvent[][]> {
  return (await findRoutes(spec, machine)).map((path) =>
    path.steps
      .map((s) => s.event as FormEvent)
      .filter((e) => !e.type.startsWith("xstate.") || (e.type as string) === COOLDOWN_DONE),
  );
}

function difference(a: readonly string[], b: readonly string[]): string[] {
  const set = new Set(b);
  return a.filter((x) => !set.has(x));
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

  const leaves = (spec: FormSpec, model: ReviewModel) =>
    model.states.filter((s) => s.kind !== "compound").map((s) => stateLabel(spec, s.id));
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
  const seen = new Set<string>();
  const routes: FormDiff["routes"] = [];
  for (const events of [...(await routeEvents(a, oldMachine)), ...(await routeEvents(b, newMachine))]) {
    const key = JSON.stringify(events);
    if (seen.has(key)) continue;
    seen.add(key);
    const [from, to] = [replay(a, oldMachine, events), replay(b, newMachine, events)];
    if (from.name !== to.name) routes.push({ events: events.map(named).join(" · "), old: from.label, new: to.label });
  }
  routes.sort((x, y) => x.events.length - y.events.length || (x.events < y.events ? -1 : 1));

  const text: FormDiff["text"] = [];
  for (const [what, o, n] of [
    ["after the shortest submit", oldModel.submit?.text, newModel.submit?.text],
    ["after a cancel", oldModel.cancel?.text, newModel.cancel?.text],
  ] as const)
    if ((o ?? "") !== (n ?? "")) text.push({ what, old: o ?? "(no route ends so)", new: n ?? "(no route ends so)" });

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
    states: { added: difference(newStates, oldStates), removed: difference(oldStates, newStates) },
    edges: { added: difference(newEdges, oldEdges), removed: difference(oldEdges, newEdges) },
    screens,
    routes,
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
<section id="routes">
<h2>Routes that end elsewhere <small>(${diff.routes.length} of ${diff.routesCompared} routes of either form, replayed on both)</small></h2>
${
  diff.routes.length
    ? `<table class="routes">
<thead><tr><th>keys</th><th>ended before in</th><th>ends now in</th></tr></thead>
<tbody>
${shownRoutes.map((r) => `<tr><td>${escapeHtml(r.events)}</td><td>${escapeHtml(r.old)}</td><td>${escapeHtml(r.new)}</td></tr>`).join("\n")}
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
