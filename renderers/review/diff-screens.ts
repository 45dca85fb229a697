/**
 * The screens of a change to a form: each form's screen at the end of a
 * route, drawn as the review pages draw a step's (the real component, the
 * same terminal serializer), and the pairs of screens the diff page shows.
 */
import type { FormEvent } from "../../machines/context.js";
import type { FormSpec } from "../../machines/spec.js";
import { leafPath } from "../inspect/xstate-private.js";
import { rowText } from "./line-diff.js";
import { reviewScreen, sendToScreen } from "./replay.js";
import { ScreenTable } from "./screens.js";
import { stableName, stateLabel } from "./state-names.js";
import type { ReviewModel, ScreenPair } from "./types.js";

/** The width the diff shows screens at. */
export const SCREEN_WIDTH = 80;

function screenOf(model: ReviewModel, step: number, width = 80): string[] {
  const screen = model.screens[model.steps[step].screens[model.widths.indexOf(width)]];
  return screen.map((r) => model.rows[r]);
}

interface EndScreen {
  rows: string[];
  path: string;
}

/** The screen each route ends on (the serializer's rows), and the state it ends in. */
export async function endScreens(spec: FormSpec, height: number, routes: readonly FormEvent[][]): Promise<EndScreen[]> {
  const table = new ScreenTable();
  const ends: Array<{ screen: number; path: string }> = [];
  try {
    for (const events of routes) {
      const screen = reviewScreen(spec);
      const { session } = screen;
      try {
        for (const event of events) {
          if (session.closed) break;
          sendToScreen(screen, event);
        }
        ends.push({
          screen: table.add(screen.render(SCREEN_WIDTH, height, false), SCREEN_WIDTH),
          path: leafPath(session.snapshot),
        });
      } finally {
        session.dispose();
      }
    }
    await table.done();
    return ends.map(({ screen, path }) => ({ rows: table.screens[screen].map((r) => table.rows[r]), path }));
  } finally {
    table.dispose();
  }
}

function stepEvents(model: ReviewModel, step: number): FormEvent[] {
  const events: FormEvent[] = [];
  for (let at = step; at > 0; at = model.steps[at].parent) {
    const raw = model.steps[at].raw;
    if (raw) events.push(raw);
  }
  return events.reverse();
}

/** The ids of the questions added, or changed in text, options or conditions. */
export function changedIds(a: FormSpec, b: FormSpec): string[] {
  const old = new Map(a.questions.map((q) => [q.id, JSON.stringify(q)]));
  return b.questions.filter((q) => old.get(q.id) !== JSON.stringify(q)).map((q) => q.id);
}

/**
 * The screens of the states of questions added, removed or changed (even
 * when the same), then any other that changed. A state's screen is at the
 * end of the shortest route into it; that route's keys are pressed on the
 * other form too, so both show the same answers (the old form's route
 * first); only when neither reaches the state are both forms' own compared.
 */
export async function screenPairs(
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
