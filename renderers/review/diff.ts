/**
 * What a change to a form does (`visualize --diff`): questions, states and
 * keys added, removed or changed, the routes that end elsewhere or with
 * another result, where behaviour differs and what the model receives after
 * them (diff-routes.ts), the screens (diff-screens.ts) and the newer form's
 * chart with what changed marked (diff-chart.ts); the page is diff-page.ts.
 *
 * Contract: states are compared by question id (`split/choosing`), so adding
 * a question renames none after it. Edges are the review chart's lines, each
 * key with its condition; a line removed and a line added between the same
 * two states that are alike are one line that changed.
 */
import type { FormSpec } from "../../machines/spec.js";
import { reviewChart } from "./chart.js";
import { conditionText } from "./condition-words.js";
import { changedChart } from "./diff-chart.js";
import { compareRoutes } from "./diff-routes.js";
import { SCREEN_WIDTH, screenPairs } from "./diff-screens.js";
import { reviewModel } from "./model.js";
import { stableName, stateLabel } from "./state-names.js";
import type { Changed, FormDiff, ReviewForm, ReviewModel } from "./types.js";
import { likeness } from "./word-diff.js";

export { formDiffPage } from "./diff-page.js";
export { ROUTE_SCREENS, routeViews } from "./diff-routes.js";
export type { FormDiff } from "./types.js";

/** Each item by the name it is compared on (question ids), with the text a reader sees. */
type Named = Map<string, string>;

function missingFrom(a: Named, b: Named): string[] {
  return [...a].filter(([name]) => !b.has(name)).map(([, text]) => text);
}

/** Every line of the chart's edges (by stable name, for the reader), and the two states each joins. */
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

/** Lines removed and added between the same two states, paired as changed lines, the most alike first. */
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

/**
 * What a change does; with `pages` (where the page of the change will link
 * to them), the review pages of both forms too, drawn from the models the
 * change is read from.
 */
export async function formDiff(before: ReviewForm, after: ReviewForm): Promise<FormDiff>;
export async function formDiff(
  before: ReviewForm,
  after: ReviewForm,
  pages: { old: string; new: string },
): Promise<FormDiff & { reviewPages: { old: string; new: string } }>;
export async function formDiff(
  before: ReviewForm,
  after: ReviewForm,
  pages?: { old: string; new: string },
): Promise<FormDiff & { reviewPages?: { old: string; new: string } }> {
  // The change is read at one width; review pages show every width.
  const options = pages ? {} : { widths: [SCREEN_WIDTH] };
  const [oldModel, newModel] = [await reviewModel(before, options), await reviewModel(after, options)];
  const diff = await compare(before, after, oldModel, newModel);
  if (!pages) return diff;
  const { reviewPage } = await import("./page.js");
  const reviewPages = {
    old: await reviewPage(before, { model: oldModel }),
    new: await reviewPage(after, { model: newModel }),
  };
  return { ...diff, pages, reviewPages };
}

async function compare(
  before: ReviewForm,
  after: ReviewForm,
  oldModel: ReviewModel,
  newModel: ReviewModel,
): Promise<FormDiff> {
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
  const routes = await compareRoutes(before, after, oldModel, newModel);
  const reworded = [...newQ.keys()].filter((id) => oldQ.has(id) && oldQ.get(id) !== newQ.get(id));
  const chart = await changedChart(a, b, oldModel, newModel, reworded);

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
    ...routes,
    chart,
  };
}
