/**
 * The routes of a change to a form: every route generated for either form,
 * replayed on both machines. A route changed when it ends in another state
 * (`elsewhere`) or with another result (`outcome`). Each changed route says
 * where the two forms first part (`differs`: the answer or key at which
 * behaviour differs, and what it leads to), and what the model receives
 * after it on each form.
 *
 * Contract: the changed routes are the one account of what a change does.
 * The page's counts, the answers where behaviour differs and the texts the
 * model receives are all read off them (`routeViews`), never found again.
 */
import type { AnyStateMachine } from "xstate";
import { answerValues, type FormEvent, type FormResult } from "../../machines/context.js";
import { createFormMachine } from "../../machines/form.js";
import type { FormSpec } from "../../machines/spec.js";
import { snapshotsOf } from "../inspect/paths.js";
import { leafPath } from "../inspect/xstate-private.js";
import { endScreens } from "./diff-screens.js";
import { eventText } from "./keys.js";
import { stableName, stateLabel } from "./state-names.js";
import type { FormDiff, ReviewForm, ReviewModel } from "./types.js";

export const STILL_OPEN = "(the form is still open: nothing reaches the model yet)";

/** The changed routes shown with both end screens; the others are listed by their keys. */
export const ROUTE_SCREENS = 24;
export const ROUTES_LISTED = 200;

/** The model texts shown side by side, at most (every changed route's is counted). */
export const MODEL_TEXTS = 6;

type Snapshots = ReturnType<typeof snapshotsOf>;
type Snap = Snapshots["opening"];
type Route = FormDiff["routes"][number];
type Answer = { q: string; value: string };

/** The opening and the snapshot after each event, up to the one that closes the form. */
function walk(snapshots: Snapshots, events: readonly FormEvent[]): Snap[] {
  const snaps = [snapshots.opening];
  for (const event of events) {
    const now = snaps[snaps.length - 1];
    if (now.status !== "active") break;
    snaps.push(snapshots.next(now, event));
  }
  return snaps;
}

/** The snapshot after `i` events (a closed form stays as it closed). */
const after = (snaps: readonly Snap[], i: number) => snaps[Math.min(i, snaps.length - 1)];

/** The answer a step gave (a question answered, or answered otherwise), in the person's words: `Size 3`. */
function answerAt(spec: FormSpec, before: Snap, now: Snap): Answer | undefined {
  const q = /^q(\d+)/.exec(leafPath(before))?.[1];
  if (q === undefined || before === now) return undefined;
  const k = Number(q) - 1;
  const question = spec.questions[k];
  const [was, is] = [before.context, now.context];
  if (!question || !is.answered[k]) return undefined;
  if (was.answered[k] && JSON.stringify(was.picks[k]) === JSON.stringify(is.picks[k])) return undefined;
  const custom = new Set(is.picks[k].custom);
  // A typed answer on a route is one the route search made up to try the question with.
  const words = (answerValues(spec, is, question.id) ?? []).map((v) =>
    custom.has(v) ? `${JSON.stringify(v)} (a sample typed answer)` : v,
  );
  return { q: question.label, value: words.join(", ") || "(nothing chosen)" };
}

const sameAnswer = (x?: Answer, y?: Answer) => x?.q === y?.q && x?.value === y?.value;

/** What a step did on the two forms: `Size 3`, `Size 3 → now 3 (medium)`, or the key where one answered nothing. */
function stepWords(was: Answer | undefined, is: Answer | undefined, pressed: string): string {
  const words = (x: Answer) => `${x.q} ${x.value}`;
  if (sameAnswer(was, is)) return is ? words(is) : pressed;
  if (was && is) return `${words(was)} → now ${was.q === is.q ? is.value : words(is)}`;
  return was ? `${pressed}, which answered ${words(was)} before` : `${pressed}, which now answers ${words(is!)}`;
}

/**
 * Where two replays of the same keys first part: the first step after which
 * they are in different states or recorded different answers; else the last
 * (only the result differs). It names the answer that step gave, or the key
 * and the state it was pressed in, and where it led on each form.
 */
function differsAt(
  a: FormSpec,
  b: FormSpec,
  olds: readonly Snap[],
  news: readonly Snap[],
  keys: readonly string[],
): string {
  const last = Math.max(olds.length, news.length) - 1;
  const name = (spec: FormSpec, s: Snap) => stableName(spec, leafPath(s));
  let i = 1;
  for (; i < last; i++) {
    const [o, n] = [after(olds, i), after(news, i)];
    if (name(a, o) !== name(b, n)) break;
    if (!sameAnswer(answerAt(a, after(olds, i - 1), o), answerAt(b, after(news, i - 1), n))) break;
  }
  i = Math.max(1, Math.min(i, last));
  const [o, n] = [after(olds, i), after(news, i)];
  const [was, is] = [answerAt(a, after(olds, i - 1), o), answerAt(b, after(news, i - 1), n)];
  const what = stepWords(was, is, `${keys[i - 1]} on ${stateLabel(b, leafPath(after(news, i - 1)))}`);
  const [x, y] = [stateLabel(a, leafPath(o)), stateLabel(b, leafPath(n))];
  if (name(a, o) !== name(b, n)) return `${what}: before → ${x}, after → ${y}`;
  return `${what}: before and after → ${y}, ${sameAnswer(was, is) ? "another result" : "another answer recorded"}`;
}

/** Enter pressed after a route that leaves both forms open, at most: enough to pass every question and submit. */
const completion = (a: FormSpec, b: FormSpec) => 2 * Math.max(a.questions.length, b.questions.length) + 3;

function routeEvents(model: ReviewModel): FormEvent[][] {
  return model.routes.map((route) => route.flatMap((step) => model.steps[step].raw ?? []));
}

/** The routes that changed, each with where behaviour differs and what the model receives after it. */
export async function compareRoutes(
  before: ReviewForm,
  after_: ReviewForm,
  oldModel: ReviewModel,
  newModel: ReviewModel,
): Promise<Pick<FormDiff, "routes" | "routesCompared">> {
  const [a, b] = [before.spec, after_.spec];
  const [oldSnapshots, newSnapshots] = [a, b].map((spec) =>
    snapshotsOf(spec, createFormMachine(spec) as unknown as AnyStateMachine),
  );
  const keyOf = new Map<string, string>();
  for (const model of [oldModel, newModel])
    for (const step of model.steps) if (step.keys.length && !keyOf.has(step.event)) keyOf.set(step.event, step.keys[0]);
  const named = (e: FormEvent) => {
    const text = eventText(e as never);
    return keyOf.get(text) ?? text;
  };
  const textOf = (form: ReviewForm, end: Snap) =>
    end.status !== "done"
      ? STILL_OPEN
      : form.answer
        ? form.answer(end.output as FormResult).text
        : JSON.stringify(end.output);
  // Each form's shortest submit and cancel: their keys are pressed on both forms.
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
      ends.set(key, ends.has(key) ? what : `${what} of the form ${which} the change`);
    }
  const enter: FormEvent = { type: "CONFIRM" };
  const seen = new Set<string>();
  const found: Array<{ route: Route; events: FormEvent[] }> = [];
  for (const events of [...routeEvents(oldModel), ...routeEvents(newModel)]) {
    const key = JSON.stringify(events);
    if (seen.has(key)) continue;
    seen.add(key);
    const [olds, news] = [walk(oldSnapshots, events), walk(newSnapshots, events)];
    const [from, to] = [olds[olds.length - 1], news[news.length - 1]];
    const elsewhere = stableName(a, leafPath(from)) !== stableName(b, leafPath(to));
    const text = { old: textOf(before, from), new: textOf(after_, to) };
    const outcome = text.old !== text.new;
    if (!elsewhere && !outcome) continue;
    const keys = events.map(named);
    const route: Route = {
      events: keys.join(" · "),
      old: stateLabel(a, leafPath(from)),
      new: stateLabel(b, leafPath(to)),
      elsewhere,
      differs: differsAt(a, b, olds, news, keys),
      text,
    };
    if (outcome) route.outcome = true;
    else {
      // Both forms still open: Enter until each closes says what the model would receive from there on.
      const presses = Array.from({ length: completion(a, b) }, () => enter);
      const [x, y] = [walk(oldSnapshots, [...events, ...presses]), walk(newSnapshots, [...events, ...presses])];
      route.enters = Math.max(x.length, y.length) - 1 - events.length;
      route.text = { old: textOf(before, x[x.length - 1]), new: textOf(after_, y[y.length - 1]) };
    }
    if (ends.has(key)) route.end = ends.get(key);
    found.push({ route, events });
  }
  found.sort(
    ({ route: x }, { route: y }) =>
      Number(!!y.outcome) - Number(!!x.outcome) || x.events.length - y.events.length || (x.events < y.events ? -1 : 1),
  );
  const drawn = found.slice(0, ROUTE_SCREENS).map((f) => f.events);
  const [oldEnds, newEnds] = [await endScreens(a, oldModel.height, drawn), await endScreens(b, newModel.height, drawn)];
  const routes = found.map(({ route }, i) =>
    i < drawn.length ? { ...route, oldRows: oldEnds[i].rows, newRows: newEnds[i].rows } : route,
  );
  return { routes, routesCompared: seen.size };
}

/** What the page shows of the changed routes: every count, list and text of it read off them alone. */
export function routeViews(routes: readonly Route[]) {
  const texts = new Set<string>();
  const told = routes
    .filter((r) => r.text && r.text.old !== r.text.new)
    .sort((x, y) => Number(!x.end) - Number(!y.end) || Number(!!x.enters) - Number(!!y.enters));
  return {
    elsewhere: routes.filter((r) => r.elsewhere),
    alike: routes.filter((r) => !r.elsewhere),
    /** Where behaviour differs, each once, in the order of the routes. */
    differs: [...new Set(routes.map((r) => r.differs))],
    /** The routes after which the model receives another text: the forms' shortest submit and cancel first. */
    told,
    /** Those of `told` shown, each pair of texts once. */
    texts: told.filter((r) => {
      const key = JSON.stringify([r.text?.old, r.text?.new]);
      if (texts.has(key)) return false;
      texts.add(key);
      return true;
    }),
  };
}

/** What a route's text follows: its keys, its name as a form's shortest submit or cancel, the Enters after it. */
export function routeWhat(r: Route): string {
  const keys = r.end ? `${r.end} (${r.events})` : r.events;
  return `after ${keys}${r.enters ? `, then Enter until the form closes (${r.enters} ${r.enters === 1 ? "press" : "presses"} at most)` : ""}`;
}
