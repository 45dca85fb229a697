/**
 * What a change to a form does, as one HTML page: the questions, states,
 * edges and conditions added, removed or changed, the answers at which
 * behaviour differs, the routes whose keys now end elsewhere with the screen
 * each form ends on side by side, the screens of the questions added,
 * removed or changed, and the text the model receives before and after.
 *
 * Contract: states are compared by question id, not position (`split/choosing`,
 * not `q2.choosing`), so adding a question in the middle does not rename the
 * ones after it, and shown as the review pages name them (`Split · options
 * (q2.choosing)`). Edges are the review chart's, every key with its condition
 * (`Size · options → Split · options: Enter / Tab / → — when Size is 4 or
 * more (4 or 5)`); a line removed and a line added between the same two
 * states that are alike are one line that changed. A route is a sequence of
 * events generated for either form (each crosses the boundaries of its
 * form's conditions) and replayed on both machines; it changed when it ends
 * in another state or with another result, and changed its outcome when the
 * result differs (those come first, then the shortest). Where a changed
 * route's last key answers a question, the answer is a value at which
 * behaviour differs (`Size 3: before → Team, after → Split`). The first
 * `ROUTE_SCREENS` changed routes carry the screen each form ends on, drawn by
 * the review pages' own component and terminal serializer. A state's screen
 * is the review page's (at the end of the shortest route into it, at 80
 * columns), compared with the other form's screen after the same keys; the
 * screens of questions added, removed or changed are always shown, any other
 * only when it changed. The model text is compared after each form's
 * shortest submit and cancel (their keys pressed on both forms) and after
 * each route through an added, removed or changed question that submits.
 * Changed lines, texts and screen rows are marked word by word
 * (`word-diff.ts`). Like the review page, the page is the same bytes every
 * time, loads nothing, and escapes every text written by the model or the
 * person.
 */
import type { AnyStateMachine } from "xstate";
import { answerValues, type FormEvent, type FormResult } from "../../machines/context.js";
import { createFormMachine } from "../../machines/form.js";
import type { FormSpec } from "../../machines/spec.js";
import { snapshotsOf } from "../inspect/paths.js";
import { leafPath } from "../inspect/xstate-private.js";
import { visibleControls } from "../text.js";
import { reviewAssets } from "./assets.js";
import { reviewChart, stateWords } from "./chart.js";
import { conditionText } from "./condition-words.js";
import { escapeHtml, pageHead } from "./html.js";
import { eventText } from "./keys.js";
import { reviewModel } from "./model.js";
import { reviewComponent, sendToComponent } from "./replay.js";
import { ScreenTable } from "./screens.js";
import type { ReviewForm, ReviewModel } from "./types.js";
import { likeness, rowText, screenDiff, wordDiffHtml } from "./word-diff.js";

/** A state's screen before and after (the serializer's rows); a side without the state has none. */
export interface ScreenPair {
  /** The state, as the review pages name it. */
  state: string;
  /** Its question was added, removed or changed; none when only the screen changed. */
  question?: "added" | "removed" | "changed";
  oldRows?: string[];
  newRows?: string[];
}

/** A line as it was and as it is. */
export interface Changed {
  old: string;
  new: string;
}

export interface FormDiff {
  old: { name: string; questions: number; states: number; routes: number };
  new: { name: string; questions: number; states: number; routes: number };
  questions: { added: string[]; removed: string[]; changed: Changed[] };
  states: { added: string[]; removed: string[] };
  /** Lines between the same two states that changed are paired (`changed`); the rest were added or removed. */
  edges: { added: string[]; removed: string[]; changed: Changed[] };
  /** The screens of the questions added, removed or changed, then every other screen that changed. */
  screens: ScreenPair[];
  /**
   * Routes that end elsewhere or with another result; those whose result
   * changed (`outcome`) first. The first `ROUTE_SCREENS` carry the screen
   * each form shows at the route's end.
   */
  routes: Array<{
    events: string;
    old: string;
    new: string;
    outcome?: true;
    /** What the model receives before and after, when the result changed. */
    text?: Changed;
    oldRows?: string[];
    newRows?: string[];
  }>;
  /** The answers at which behaviour differs: `Size 3: before → Team, after → Split`. */
  decisions: string[];
  /** Routes generated for either form, replayed on both. */
  routesCompared: number;
  text: Array<{ what: string; old: string; new: string }>;
}

/** What the model receives after keys that leave the form open. */
const STILL_OPEN = "(the form is still open: nothing reaches the model yet)";

/** The changed routes shown with both end screens; the others are listed by their keys. */
export const ROUTE_SCREENS = 24;
/** The changed routes listed at most. */
const ROUTES_LISTED = 200;

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

/** The rows of a step's screen at 80 columns (the serializer's markup). */
function screenOf(model: ReviewModel, step: number, width = 80): string[] {
  const screen = model.screens[model.steps[step].screens[model.widths.indexOf(width)]];
  return screen.map((r) => model.rows[r]);
}

/** Every line of the review chart's edges (by stable name, for the reader), and the two states each joins. */
function edgeLines(spec: FormSpec, model: ReviewModel): { lines: Named; between: Map<string, string> } {
  const chart = reviewChart(spec, model, { loops: true });
  const byDot = new Map(model.states.map((s) => [s.dot, s.id]));
  const lines: Named = new Map();
  const between = new Map<string, string>();
  for (const e of chart.edges) {
    const [from, to] = [byDot.get(e.from) ?? e.from, byDot.get(e.to) ?? e.to];
    const ends = `${stableName(spec, from)} → ${stableName(spec, to)}`;
    for (const line of e.lines)
      if (!line.endsWith("ignored")) {
        lines.set(`${ends}: ${line}`, `${stateLabel(spec, from)} → ${stateLabel(spec, to)}: ${line}`);
        between.set(`${ends}: ${line}`, ends);
      }
  }
  return { lines: new Map([...lines].sort(([x], [y]) => (x < y ? -1 : x > y ? 1 : 0))), between };
}

/** How alike two lines must be (`likeness`) to be shown as one line that changed. */
const ALIKE = 0.5;

/**
 * Lines removed and added between the same two states, paired as changed
 * lines, the most alike first; the lines left unpaired stay removed or added.
 */
function pairLines(
  removed: Array<[string, string]>,
  added: Array<[string, string]>,
  groupOf: (name: string) => string | undefined,
): { removed: string[]; added: string[]; changed: Changed[] } {
  const candidates: Array<{ r: number; a: number; alike: number }> = [];
  removed.forEach(([rName, rText], r) => {
    const group = groupOf(rName);
    added.forEach(([aName, aText], a) => {
      if (group === undefined || groupOf(aName) !== group) return;
      const alike = likeness(rText, aText);
      if (alike >= ALIKE) candidates.push({ r, a, alike });
    });
  });
  candidates.sort((x, y) => y.alike - x.alike || x.r - y.r || x.a - y.a);
  const pairOf = new Map<number, number>();
  const taken = new Set<number>();
  for (const { r, a } of candidates)
    if (!pairOf.has(r) && !taken.has(a)) {
      pairOf.set(r, a);
      taken.add(a);
    }
  return {
    removed: removed.filter((_, r) => !pairOf.has(r)).map(([, text]) => text),
    added: added.filter((_, a) => !taken.has(a)).map(([, text]) => text),
    changed: [...pairOf].sort(([x], [y]) => x - y).map(([r, a]) => ({ old: removed[r][1], new: added[a][1] })),
  };
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

/** Replays a route's events on a form's snapshots, worked out without an actor. */
function replay(spec: FormSpec, snapshots: Snapshots, events: readonly FormEvent[]): Replayed {
  const through = new Set<string>();
  const at = (path: string) => /^q(\d+)/.exec(path)?.[1];
  // The snapshots of the steps routes share are worked out once (as the route search works them out).
  let now = snapshots.opening;
  let before = now;
  for (const event of events) {
    if (now.status !== "active") break;
    before = now;
    now = snapshots.next(now, event);
    const q = at(leafPath(now));
    if (q) through.add(spec.questions[Number(q) - 1]?.id ?? "");
  }
  const end = now;
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
}

type Snapshots = ReturnType<typeof snapshotsOf>;

/** The screen a route ends on (the serializer's rows at 80 columns), and the state it ends in. */
interface EndScreen {
  rows: string[];
  path: string;
}

/**
 * The screen each route ends on, drawn as the review pages draw a step's
 * screen: the route's events sent to the real form component, its frame
 * written through the same terminal serializer.
 */
async function endScreens(spec: FormSpec, height: number, routes: readonly FormEvent[][]): Promise<EndScreen[]> {
  const table = new ScreenTable();
  const ends: Array<{ screen: number; path: string }> = [];
  try {
    for (const events of routes) {
      let closed = false;
      const component = reviewComponent(spec, height, () => {
        closed = true;
      });
      try {
        for (const event of events) {
          if (closed || component.snapshot.status !== "active") break;
          sendToComponent(component, event);
        }
        ends.push({
          screen: table.add(component.render(SCREEN_WIDTH), SCREEN_WIDTH),
          path: leafPath(component.snapshot),
        });
      } finally {
        component.dispose();
      }
    }
    // The screens are written to the terminal all at once.
    await table.done();
    return ends.map(({ screen, path }) => ({ rows: table.screens[screen].map((r) => table.rows[r]), path }));
  } finally {
    table.dispose();
  }
}

/** The width the diff shows screens at. */
const SCREEN_WIDTH = 80;

/** The events from the form's opening to a step of a review page. */
function stepEvents(model: ReviewModel, step: number): FormEvent[] {
  const events: FormEvent[] = [];
  for (let at = step; at > 0; at = model.steps[at].parent) {
    const raw = model.steps[at].raw;
    if (raw) events.push(raw);
  }
  return events.reverse();
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

/**
 * The screens of the states of questions added, removed or changed (both
 * sides, even where the screen stayed the same), then those of the other
 * states whose screen changed. A state's screen is the review page's: at the
 * end of the shortest route into it. Where both forms have the state, that
 * route's keys are pressed on the other form too, so that the two screens
 * show the same answers (the old form's route first, else the new one's);
 * only when neither route reaches the state on the other form are the two
 * forms' own shortest routes compared.
 */
async function screenPairs(
  a: FormSpec,
  b: FormSpec,
  oldModel: ReviewModel,
  newModel: ReviewModel,
): Promise<ScreenPair[]> {
  const oldIds = new Set(a.questions.map((q) => q.id));
  const newIds = new Set(b.questions.map((q) => q.id));
  const changed = new Set(changedIds(a, b).filter((id) => oldIds.has(id)));
  const questionOf = (spec: FormSpec, path: string) => {
    const q = /^q(\d+)\./.exec(path);
    return q ? spec.questions[Number(q[1]) - 1]?.id : undefined;
  };
  const shown = (spec: FormSpec, model: ReviewModel) =>
    new Map(model.states.filter((s) => s.kind !== "compound" && s.step >= 0).map((s) => [stableName(spec, s.id), s]));
  const [olds, news] = [shown(a, oldModel), shown(b, newModel)];
  const both = [...news].filter(([name]) => olds.has(name));
  // Each state's shortest route on the old form, its keys pressed on the new one; and the other way round.
  const oldRoutes = both.map(([name]) => stepEvents(oldModel, olds.get(name)!.step));
  const newRoutes = both.map(([, s]) => stepEvents(newModel, s.step));
  const [onNew, onOld] = [
    await endScreens(b, newModel.height, oldRoutes),
    await endScreens(a, oldModel.height, newRoutes),
  ];
  const pairs = new Map<string, { oldRows: string[]; newRows: string[] }>();
  both.forEach(([name, s], i) => {
    const was = olds.get(name)!;
    if (stableName(b, onNew[i].path) === name)
      pairs.set(name, { oldRows: screenOf(oldModel, was.step), newRows: onNew[i].rows });
    else if (stableName(a, onOld[i].path) === name)
      pairs.set(name, { oldRows: onOld[i].rows, newRows: screenOf(newModel, s.step) });
    else pairs.set(name, { oldRows: screenOf(oldModel, was.step), newRows: screenOf(newModel, s.step) });
  });

  const ofQuestions: ScreenPair[] = [];
  const others: ScreenPair[] = [];
  const text = (rows: readonly string[]) => rows.map(rowText).join("\n");
  for (const [name, s] of news) {
    const id = questionOf(b, s.id);
    const question = id === undefined ? undefined : !oldIds.has(id) ? "added" : changed.has(id) ? "changed" : undefined;
    const pair: ScreenPair = {
      state: stateLabel(b, s.id),
      ...(question ? { question } : {}),
      ...(pairs.get(name) ?? { newRows: screenOf(newModel, s.step) }),
    };
    if (question) ofQuestions.push(pair);
    else if (!pair.oldRows || text(pair.oldRows) !== text(pair.newRows!)) others.push(pair);
  }
  for (const [name, s] of olds) {
    if (news.has(name)) continue;
    const id = questionOf(a, s.id);
    const pair: ScreenPair = { state: stateLabel(a, s.id), oldRows: screenOf(oldModel, s.step) };
    if (id !== undefined && !newIds.has(id)) ofQuestions.push({ ...pair, question: "removed" });
    else others.push(pair);
  }
  return [...ofQuestions, ...others];
}

export async function formDiff(before: ReviewForm, after: ReviewForm): Promise<FormDiff> {
  // The diff shows screens at one width: the models draw only that one.
  const [oldModel, newModel] = [
    await reviewModel(before, { widths: [SCREEN_WIDTH] }),
    await reviewModel(after, { widths: [SCREEN_WIDTH] }),
  ];
  const [a, b] = [before.spec, after.spec];

  const oldQ = questionSummary(a);
  const newQ = questionSummary(b);
  const questions = {
    added: [...newQ.keys()].filter((id) => !oldQ.has(id)).map((id) => newQ.get(id)!),
    removed: [...oldQ.keys()].filter((id) => !newQ.has(id)).map((id) => oldQ.get(id)!),
    changed: [...newQ.keys()]
      .filter((id) => oldQ.has(id) && oldQ.get(id) !== newQ.get(id))
      .map((id) => ({ old: oldQ.get(id)!, new: newQ.get(id)! })),
  };

  const leaves = (spec: FormSpec, model: ReviewModel): Named =>
    new Map(
      model.states.filter((s) => s.kind !== "compound").map((s) => [stableName(spec, s.id), stateLabel(spec, s.id)]),
    );
  const oldStates = leaves(a, oldModel);
  const newStates = leaves(b, newModel);

  const oldEdges = edgeLines(a, oldModel);
  const newEdges = edgeLines(b, newModel);
  const edges = pairLines(
    [...oldEdges.lines].filter(([name]) => !newEdges.lines.has(name)),
    [...newEdges.lines].filter(([name]) => !oldEdges.lines.has(name)),
    (name) => oldEdges.between.get(name) ?? newEdges.between.get(name),
  );

  const screens = await screenPairs(a, b, oldModel, newModel);

  // Every route generated for either form, replayed on both.
  const [oldSnapshots, newSnapshots] = [a, b].map((spec) =>
    snapshotsOf(spec, createFormMachine(spec) as unknown as AnyStateMachine),
  );
  // Events named by the key that sends them, as the review pages name them.
  const keyOf = new Map<string, string>();
  for (const model of [oldModel, newModel])
    for (const step of model.steps) if (step.keys.length && !keyOf.has(step.event)) keyOf.set(step.event, step.keys[0]);
  const named = (e: FormEvent) => {
    const text = eventText(e as never);
    return keyOf.get(text) ?? text;
  };
  const touched = new Set([...changedIds(a, b), ...a.questions.filter((q) => !newQ.has(q.id)).map((q) => q.id)]);
  const textOf = (form: ReviewForm, result: FormResult | undefined) =>
    result === undefined ? STILL_OPEN : form.answer ? form.answer(result).text : JSON.stringify(result);
  // The shortest submit and the shortest cancel of each form: their keys are compared on both.
  const ends = new Map<string, string>();
  for (const [model, which] of [
    [oldModel, "before"],
    [newModel, "after"],
  ] as const)
    for (const [end, what] of [
      [model.submit, "the shortest submit"],
      [model.cancel, "the shortest cancel"],
    ] as const) {
      if (!end) continue;
      const key = JSON.stringify(routeEvents(model)[end.route]);
      // The same keys on both forms: named once.
      ends.set(key, ends.has(key) ? what : `${what} of the form ${which} the change`);
    }
  const seen = new Set<string>();
  const found: Array<{ route: FormDiff["routes"][number]; events: FormEvent[] }> = [];
  const decisions = new Set<string>();
  const atEnds: FormDiff["text"] = [];
  const through: FormDiff["text"] = [];
  for (const events of [...routeEvents(oldModel), ...routeEvents(newModel)]) {
    const key = JSON.stringify(events);
    if (seen.has(key)) continue;
    seen.add(key);
    const [from, to] = [replay(a, oldSnapshots, events), replay(b, newSnapshots, events)];
    // What the model is told is the outcome (the result's shape differs with the form's questions).
    const [oldText, newText] = [textOf(before, from.result), textOf(after, to.result)];
    const outcome = oldText !== newText;
    const keys = events.map(named).join(" · ");
    if (from.name !== to.name || outcome) {
      const route: FormDiff["routes"][number] = { events: keys, old: from.label, new: to.label };
      if (outcome) Object.assign(route, { outcome: true, text: { old: oldText, new: newText } });
      found.push({ route, events });
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
    if (!outcome) continue;
    if (ends.has(key)) atEnds.push({ what: `after ${ends.get(key)} (${keys})`, old: oldText, new: newText });
    // The model text on routes through an added or changed question that submit on either side.
    else if (
      (from.result || to.result) &&
      through.length < MODEL_TEXTS &&
      [...touched].some((id) => from.through.has(id) || to.through.has(id))
    )
      through.push({ what: `after ${keys}`, old: oldText, new: newText });
  }
  found.sort(
    ({ route: x }, { route: y }) =>
      Number(!!y.outcome) - Number(!!x.outcome) || x.events.length - y.events.length || (x.events < y.events ? -1 : 1),
  );
  // The first routes with the screen each form ends on; the others without their screens or texts.
  const drawn = found.slice(0, ROUTE_SCREENS).map((f) => f.events);
  const [oldEnds, newEnds] = [await endScreens(a, oldModel.height, drawn), await endScreens(b, newModel.height, drawn)];
  const routes = found.map(({ route }, i) => {
    if (i < drawn.length) return { ...route, oldRows: oldEnds[i].rows, newRows: newEnds[i].rows };
    const { text: _, ...listed } = route;
    return listed;
  });
  // Each text once: the ends first, then the routes through the changed questions.
  const texts = new Set<string>();
  const text = [...atEnds, ...through].filter((t) => {
    const key = JSON.stringify([t.old, t.new]);
    if (texts.has(key)) return false;
    texts.add(key);
    return true;
  });

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
    edges,
    screens,
    routes,
    decisions: [...decisions],
    routesCompared: seen.size,
    text,
  };
}

const plain = (text: string) => escapeHtml(text).replace(/\n/g, "<br>");

const list = (items: readonly string[], cls: string, none: string) =>
  items.length
    ? `<ul class="${cls}">\n${items.map((i) => `<li>${plain(i)}</li>`).join("\n")}\n</ul>`
    : `<p class="none">${none}</p>`;

/** Lines that changed: each as it was, its removed words marked, and as it is, its added words marked. */
const changedList = (items: readonly Changed[], none: string) =>
  items.length
    ? `<ul class="changed">\n${items
        .map((c) => {
          const marked = wordDiffHtml(c.old, c.new);
          return `<li><div class="was">${marked.old.replace(/\n/g, "<br>")}</div><div class="now">→ ${marked.new.replace(/\n/g, "<br>")}</div></li>`;
        })
        .join("\n")}\n</ul>`
    : none
      ? `<p class="none">${none}</p>`
      : "";

/** A screen's rows (already `<div>`s) as a terminal of 80 columns. */
const term = (rows: readonly string[]) => `<div class="term" style="--cols: ${SCREEN_WIDTH}">${rows.join("")}</div>`;
const wrapped = (rows: readonly string[]) => rows.map((r) => `<div>${r}</div>`);

/**
 * Two screens side by side, what changed marked (rows that changed tinted,
 * their changed words marked), each under its heading; a side without the
 * screen says why.
 */
function screenPair(
  old: { heading: string; rows?: readonly string[]; absent: string },
  now: { heading: string; rows?: readonly string[]; absent: string },
): string {
  let [oldRows, newRows] = [old.rows && wrapped(old.rows), now.rows && wrapped(now.rows)];
  if (old.rows && now.rows) {
    const marked = screenDiff(old.rows, now.rows);
    [oldRows, newRows] = [marked.old, marked.new];
  }
  const side = (s: typeof old, rows: readonly string[] | undefined) =>
    `<div><h4>${s.heading}</h4>${rows ? term(rows) : `<p class="none">${escapeHtml(s.absent)}</p>`}</div>`;
  return `<div class="pair">${side(old, oldRows)}${side(now, newRows)}</div>`;
}

const QUESTION_NOTE: Record<NonNullable<ScreenPair["question"]>, string> = {
  added: "a question added",
  removed: "a question removed",
  changed: "a question changed",
};

function screensSection(screens: readonly ScreenPair[]): string {
  if (!screens.length) return `<p class="none">No screen changed, and no question was added, removed or changed.</p>`;
  return screens
    .map((s) => {
      const same =
        s.oldRows && s.newRows && s.oldRows.map(rowText).join("\n") === s.newRows.map(rowText).join("\n")
          ? " · the same screen before and after"
          : "";
      const note = s.question ? ` <small>(${QUESTION_NOTE[s.question]}${same})</small>` : "";
      return `<h3>${escapeHtml(s.state)}${note}</h3>
${screenPair(
  { heading: "before", rows: s.oldRows, absent: "No such state before the change." },
  { heading: "after", rows: s.newRows, absent: "No such state after the change." },
)}`;
    })
    .join("\n");
}

function routesSection(diff: FormDiff): string {
  if (!diff.routes.length) return `<p class="none">Every route ends where it did.</p>`;
  const listed = diff.routes.slice(0, ROUTES_LISTED);
  const drawn = listed.filter((r) => r.oldRows && r.newRows);
  const rest = listed.slice(drawn.length);
  const cards = drawn.map((r, i) => {
    const result = r.outcome ? `<span class="result">the result changed</span>` : "";
    return `<details class="route${r.outcome ? " outcome" : ""}"${i < OPEN_ROUTES ? " open" : ""}>
<summary><span class="keys">${escapeHtml(r.events)}</span>${result}<span class="ends">${escapeHtml(r.old)} <span class="arrow">→ now</span> ${escapeHtml(r.new)}</span></summary>
${screenPair(
  { heading: `before: ends in ${escapeHtml(r.old)}`, rows: r.oldRows, absent: "" },
  { heading: `after: ends in ${escapeHtml(r.new)}`, rows: r.newRows, absent: "" },
)}${r.text ? `\n${textPair(r.text, "What the model receives")}` : ""}
</details>`;
  });
  const table = rest.length
    ? `<table class="routes">
<caption>The other routes, by their keys</caption>
<thead><tr><th>keys</th><th>ended before in</th><th>ends now in</th></tr></thead>
<tbody>
${rest.map((r) => `<tr${r.outcome ? ' class="outcome"' : ""}><td>${escapeHtml(r.events)}</td><td>${escapeHtml(r.old)}</td><td>${escapeHtml(r.new)}</td></tr>`).join("\n")}
</tbody>
</table>`
    : "";
  const more =
    diff.routes.length > listed.length ? `\n<p class="none">and ${diff.routes.length - listed.length} more</p>` : "";
  return `<p class="hint">Each route is the keys pressed from the form's opening, and where it ends before and after the change: those whose result changed first, then the shortest.</p>
${cards.join("\n")}
${table}${more}`;
}

/** What the model receives before and after, side by side, what changed marked. */
function textPair(text: Changed, what?: string): string {
  // Nothing to compare with a form still open: the text shows whole.
  const open = text.old === STILL_OPEN || text.new === STILL_OPEN;
  const marked = open ? { old: escapeHtml(text.old), new: escapeHtml(text.new) } : wordDiffHtml(text.old, text.new);
  return `<div class="pair texts"><div><h4>${what ? `${what}, before` : "before"}</h4><pre class="result-text">${marked.old}</pre></div><div><h4>after</h4><pre class="result-text">${marked.new}</pre></div></div>`;
}

/** The changed routes whose screens are open when the page opens. */
const OPEN_ROUTES = 3;

const DIFF_STYLE = `
.diff nav.contents { margin: 0 20px 12px; display: flex; flex-wrap: wrap; gap: 4px 16px; }
.diff section { margin: 0 20px 16px; padding: 10px 12px; background: var(--paper); border: 1px solid var(--line); border-radius: 6px; }
.diff ul { margin: 4px 0; padding-left: 20px; }
.diff ul.added li { color: #0f6b2f; }
.diff ul.added li::marker { content: "+ "; }
.diff ul.removed li { color: #b42318; }
.diff ul.removed li::marker { content: "− "; }
.diff ul.changed li::marker { content: "~ "; }
.diff ul.changed li + li { margin-top: 4px; }
.diff ul.changed .now { padding-left: 1em; }
.diff .none { color: var(--muted); }
.diff del, .diff ins { text-decoration: none; border-radius: 2px; }
.diff del { background: #ffd7d5; color: #82071e; text-decoration: line-through; text-decoration-color: rgb(130 7 30 / 60%); }
.diff ins { background: #c6f0cf; color: #055d20; }
.diff .term del, .diff .term ins { color: inherit; text-decoration: none; border-radius: 0; }
.diff .term del { background: rgb(248 81 73 / 30%); box-shadow: inset 0 -2px #f85149; }
.diff .term ins { background: rgb(63 185 80 / 30%); box-shadow: inset 0 -2px #3fb950; }
.diff .term > div.del { background: rgb(248 81 73 / 10%); box-shadow: inset 3px 0 #f85149; }
.diff .term > div.ins { background: rgb(63 185 80 / 10%); box-shadow: inset 3px 0 #3fb950; }
.diff pre del, .diff pre ins { text-decoration: none; }
.diff .pair { display: grid; grid-template-columns: minmax(0, 1fr) minmax(0, 1fr); gap: 12px; container-type: inline-size; }
.diff .pair > div { min-width: 0; container-type: inline-size; }
.diff .pair h4 { margin: 6px 0 0; font-weight: 600; font-size: 13px; color: var(--muted); }
.diff details.route { border-top: 1px solid var(--line); padding: 4px 0; }
.diff details.route summary { cursor: pointer; display: flex; flex-wrap: wrap; align-items: baseline; gap: 4px 12px; }
.diff details.route summary::before { content: "▸"; color: var(--muted); }
.diff details.route[open] summary::before { content: "▾"; }
.diff details.route summary::-webkit-details-marker { display: none; }
.diff details.route summary { list-style: none; }
.diff details.route .keys { font: 600 13px ui-monospace, "DejaVu Sans Mono", monospace; }
.diff details.route .result { font-size: 12px; padding: 0 6px; border-radius: 8px; background: #fff1c2; color: #6b4f00; }
.diff details.route .ends { color: var(--muted); }
.diff details.route .arrow { color: var(--ink); }
.diff table.routes td { font: 12px ui-monospace, "DejaVu Sans Mono", monospace; }
.diff table.routes tr.outcome td { font-weight: 600; }
.diff .pair .term { padding: 4px 5px; font-size: min(13px, calc((100cqw - 12px) / var(--cols, 80) / 0.61)); }
@media (max-width: 1100px) {
  .diff nav.contents { margin: 0 8px 10px; }
  .diff section { margin: 0 8px 12px; padding: 8px; }
  .diff .pair { gap: 8px; }
}
`;

/** The diff as one self-contained HTML page. */
export function formDiffPage(diff: FormDiff): string {
  const title = `${diff.old.name} → ${diff.new.name}`;
  const side = (s: FormDiff["old"]) =>
    `${escapeHtml(s.name)}: ${s.questions} questions · ${s.states} states · ${s.routes} routes`;
  const q = diff.questions;
  const count = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;
  const contents = [
    ["questions", `Questions: ${q.added.length} added, ${q.removed.length} removed, ${q.changed.length} changed`],
    ["decisions", `Answers where behaviour differs: ${diff.decisions.length}`],
    ["routes", `Routes that end elsewhere: ${diff.routes.length}`],
    ["screens", `Screens: ${diff.screens.length}`],
    ["model-text", `What the model receives: ${count(diff.text.length, "difference")}`],
    [
      "edges",
      `Keys: ${diff.edges.changed.length} changed, ${diff.edges.added.length} added, ${diff.edges.removed.length} removed`,
    ],
    ["states", `States: ${diff.states.added.length} added, ${diff.states.removed.length} removed`],
  ];
  // Whatever a screen's row still carries: no raw control character reaches the file.
  const head = pageHead(`Changes: ${title}`, "default-src 'none'; style-src 'unsafe-inline'", {
    css: `${reviewAssets().style}${DIFF_STYLE}`,
  });
  return visibleControls(`${head}<body class="diff">
<header>
<h1>Changes <small>${escapeHtml(title)}</small></h1>
<p class="summary">before ${side(diff.old)} — after ${side(diff.new)}</p>
</header>
<nav class="contents" aria-label="What changed">
${contents.map(([id, text]) => `<a href="#${id}">${text}</a>`).join("\n")}
</nav>
<section id="questions">
<h2>Questions</h2>
${list(q.added, "added", "No question added.")}
${list(q.removed, "removed", "No question removed.")}
${changedList(q.changed, "No question changed its text, options or conditions.")}
</section>
<section id="decisions">
<h2>Answers where behaviour differs</h2>
${list(diff.decisions, "changed", "No answer leads elsewhere than it did.")}
</section>
<section id="routes">
<h2>Routes that end elsewhere <small>(${diff.routes.length} of ${diff.routesCompared} routes of either form, replayed on both)</small></h2>
${routesSection(diff)}
</section>
<section id="screens">
<h2>Screens <small>(at ${SCREEN_WIDTH} columns, before and after: the questions added, removed or changed, then every other screen that changed)</small></h2>
${screensSection(diff.screens)}
</section>
<section id="model-text">
<h2>What the model receives</h2>
${
  diff.text.length
    ? diff.text.map((t) => `<h3>${escapeHtml(t.what)}</h3>\n${textPair(t)}`).join("\n")
    : `<p class="none">The model reads the same after the shortest submit and after a cancel.</p>`
}
</section>
<section id="edges">
<h2>Keys, where they lead, and when</h2>
${changedList(diff.edges.changed, "")}
${list(diff.edges.added, "added", "No key leads anywhere new.")}
${list(diff.edges.removed, "removed", "No key stopped leading where it did.")}
</section>
<section id="states">
<h2>States <small>(named by question id)</small></h2>
${list(diff.states.added, "added", "No state added.")}
${list(diff.states.removed, "removed", "No state removed.")}
</section>
</body>
</html>
`);
}
