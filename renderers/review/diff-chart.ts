/**
 * The newer form's chart on the page of a change, what changed marked: the
 * review page's flow chart, laid out as the review page lays it out; the
 * states of questions added or changed and the states added carry the class
 * `changed`, and so do the edges with a line (keys and condition) the older
 * form's chart lacks. Past `OVERVIEW_QUESTIONS` questions the chart is in
 * parts (a question each, and the rest), and only the parts where something
 * changed are drawn.
 */
import type { FormSpec } from "../../machines/spec.js";
import { OVERVIEW_QUESTIONS, partsToSvg } from "../graph.js";
import { reviewChart } from "./chart.js";
import { changedIds } from "./diff-screens.js";
import { stableName } from "./state-names.js";
import type { ReviewModel } from "./types.js";

const PREFIX = "changes";

/** Each line of a chart's edges, by the stable names of the states it joins. */
function lines(spec: FormSpec, model: ReviewModel, chart: ReturnType<typeof reviewChart>) {
  const pathOf = new Map(model.states.map((s) => [s.dot, s.id]));
  const name = (dot: string) => stableName(spec, pathOf.get(dot) ?? dot);
  return chart.edges.map((e) => ({ id: e.id, keys: e.lines.map((l) => `${name(e.from)} → ${name(e.to)}: ${l}`) }));
}

/** `reworded`: the ids of questions whose words changed though their spec did not (a condition read anew). */
export async function changedChart(
  a: FormSpec,
  b: FormSpec,
  oldModel: ReviewModel,
  newModel: ReviewModel,
  reworded: readonly string[],
): Promise<string> {
  const parts = b.questions.length > OVERVIEW_QUESTIONS;
  const chart = reviewChart(b, newModel, { parts, prefix: PREFIX });
  const oldChart = reviewChart(a, oldModel, { parts, prefix: PREFIX });
  const before = new Set(lines(a, oldModel, oldChart).flatMap((e) => e.keys));
  const edges = new Set(lines(b, newModel, chart).flatMap((e) => (e.keys.some((k) => !before.has(k)) ? [e.id] : [])));
  const oldNames = new Set(oldModel.states.map((s) => stableName(a, s.id)));
  const touched = new Set([...changedIds(a, b), ...reworded]);
  const nodes = new Set<string>();
  const dotOf = new Map(newModel.states.map((s) => [s.id, s.dot]));
  for (const s of newModel.states) {
    const q = /^q(\d+)/.exec(s.id);
    const id = q ? b.questions[Number(q[1]) - 1]?.id : undefined;
    if (oldNames.has(stableName(b, s.id)) && !(id && touched.has(id))) continue;
    for (const path of [s.id, s.id.split(".")[0]]) {
      const dot = dotOf.get(path);
      if (dot) nodes.add(`${PREFIX}-${dot}`).add(`${PREFIX}-cluster-${dot}`);
    }
  }
  const changed = (dot: string) => [...nodes, ...edges].some((id) => dot.includes(`id="${id}"`));
  const drawn = parts ? chart.parts.filter(changed) : [chart.dot];
  if (!drawn.length) return "";
  const svg = await partsToSvg(drawn, `${PREFIX}-parts`);
  // Graphviz writes each node and edge as `<g id="…" class="node|edge|cluster">` (`-` as `&#45;`): the class goes there.
  return svg.replace(/<g id="([^"]+)" class="(node|edge|cluster)"/g, (whole, raw: string, kind: string) => {
    const id = raw.replace(/&#45;/g, "-");
    return nodes.has(id) || (kind === "edge" && edges.has(id)) ? `<g id="${raw}" class="${kind} changed"` : whole;
  });
}
