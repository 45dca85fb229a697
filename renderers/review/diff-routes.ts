/**
 * The routes of a change to a form: every route generated for either form,
 * replayed on both machines. A route changed when it ends in another state
 * or with another result (its outcome); where its last key answers a
 * question, that answer is a value at which behaviour differs.
 */
import type { AnyStateMachine } from "xstate";
import { answerValues, type FormEvent, type FormResult } from "../../machines/context.js";
import { createFormMachine } from "../../machines/form.js";
import type { FormSpec } from "../../machines/spec.js";
import { snapshotsOf } from "../inspect/paths.js";
import { leafPath } from "../inspect/xstate-private.js";
import { changedIds, endScreens } from "./diff-screens.js";
import { eventText } from "./keys.js";
import { stableName, stateLabel } from "./state-names.js";
import type { FormDiff, ReviewForm, ReviewModel } from "./types.js";

export const STILL_OPEN = "(the form is still open: nothing reaches the model yet)";

/** The changed routes shown with both end screens; the others are listed by their keys. */
export const ROUTE_SCREENS = 24;
export const ROUTES_LISTED = 200;

/** The model texts compared on routes through changed questions, at most. */
const MODEL_TEXTS = 6;

interface Replayed {
  name: string;
  label: string;
  result: FormResult | undefined;
  /** The question the last event answered (its index), and the answer. */
  answered?: { q: number; value: string };
  through: Set<string>;
}

function replay(spec: FormSpec, snapshots: Snapshots, events: readonly FormEvent[]): Replayed {
  const through = new Set<string>();
  const at = (path: string) => /^q(\d+)/.exec(path)?.[1];
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

function routeEvents(model: ReviewModel): FormEvent[][] {
  return model.routes.map((route) => route.flatMap((step) => model.steps[step].raw ?? []));
}

/** The routes that changed, the answers at which behaviour differs, and the model texts compared. */
export async function compareRoutes(
  before: ReviewForm,
  after: ReviewForm,
  oldModel: ReviewModel,
  newModel: ReviewModel,
): Promise<Pick<FormDiff, "routes" | "decisions" | "routesCompared" | "text">> {
  const [a, b] = [before.spec, after.spec];
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
  const newIds = new Set(b.questions.map((q) => q.id));
  const touched = new Set([...changedIds(a, b), ...a.questions.filter((q) => !newIds.has(q.id)).map((q) => q.id)]);
  const textOf = (form: ReviewForm, result: FormResult | undefined) =>
    result === undefined ? STILL_OPEN : form.answer ? form.answer(result).text : JSON.stringify(result);
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
  const drawn = found.slice(0, ROUTE_SCREENS).map((f) => f.events);
  const [oldEnds, newEnds] = [await endScreens(a, oldModel.height, drawn), await endScreens(b, newModel.height, drawn)];
  const routes = found.map(({ route }, i) => {
    if (i < drawn.length) return { ...route, oldRows: oldEnds[i].rows, newRows: newEnds[i].rows };
    const { text: _, ...listed } = route;
    return listed;
  });
  const texts = new Set<string>();
  const text = [...atEnds, ...through].filter((t) => {
    const key = JSON.stringify([t.old, t.new]);
    if (texts.has(key)) return false;
    texts.add(key);
    return true;
  });
  return { routes, decisions: [...decisions], routesCompared: seen.size, text };
}
