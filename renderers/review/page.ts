/**
 * A form's review page: the statechart, the screen of every state, the keys
 * on every edge, every generated route step by step, the coverage and what
 * the model receives.
 *
 * Contract: the same bytes for the same form and options; nothing loaded
 * from the network; script and style inlined or linked (`reviewAssets`).
 * Every text of the model or the person is escaped (element text, JSON that
 * cannot close its script, the serializer's markup), and the file holds no
 * raw control character a terminal would act on under `cat` or `less`.
 */
import { OVERVIEW_QUESTIONS, partsToSvg } from "../graph.js";
import { pageHead, scriptJson } from "../html.js";
import { escapeHtml, visibleControls } from "../text.js";
import { reviewAssets } from "./assets.js";
import { reviewChart } from "./chart.js";
import type { ChartData, PageData, StepRow } from "./client/data.js";
import { shownNote } from "./condition-words.js";
import { coverageTables } from "./coverage.js";
import { keyList } from "./keys.js";
import { reviewModel } from "./model.js";
import { eventLoopTurns } from "./replay.js";
import { stateWords } from "./state-names.js";
import type { ReviewForm, ReviewModel, ReviewOptions, ReviewResult } from "./types.js";
import { waitingSection } from "./waiting.js";

export { renderDiagram } from "../graph.js";
export { scriptJson } from "../html.js";
export { reviewAssets } from "./assets.js";
export { keyList } from "./keys.js";
export { reviewModel } from "./model.js";
export type { ReviewForm, ReviewModel, ReviewOptions } from "./types.js";

export interface ReviewPageOptions extends ReviewOptions {
  /** Otherwise the page links to these files (relative to it), written from `reviewAssets()`. */
  assets?: "inline" | { script: string; style: string };
  /** The form's model when already built (the page of a change builds both forms'). */
  model?: ReviewModel;
}

export async function reviewPage(form: ReviewForm, options: ReviewPageOptions = {}): Promise<string> {
  const model = options.model ?? (await reviewModel(form, options));
  const charts = await statecharts(form, model);
  const assets = options.assets ?? "inline";
  const inline = assets === "inline" ? reviewAssets() : undefined;
  const script = inline
    ? `<script>\n${inline.script.replace(/<\/script/gi, "<\\/script")}</script>`
    : `<script src="${escapeHtml((assets as { script: string }).script)}"></script>`;
  const c = model.coverage;
  const name = escapeHtml(model.name);
  const widthButtons = model.widths
    .map((w) => `<button type="button" data-width="${w}" aria-pressed="${w === model.width}">${w}</button>`)
    .join("");
  // Whatever the statechart or a text still carries: the JSON below has none left to change.
  const head = pageHead(
    `Review: ${model.name}`,
    inline ? { css: inline.style } : { href: (assets as { style: string }).style },
    "default-src 'none'; script-src 'self' 'unsafe-inline'; style-src 'self' 'unsafe-inline'; img-src data:",
  );
  return visibleControls(`${head}<body>
<header>
<h1>${name}${model.tool ? ` <small>${escapeHtml(model.tool)}</small>` : ""}</h1>
<p class="form-title">${escapeHtml(model.title)}</p>
<p class="summary">${c.states.total} states · ${c.transitions.total} transitions · ${c.routes} routes · ${c.percent} % covered</p>
<div class="widths" role="group" aria-label="Screen width in columns">Width ${widthButtons}</div>
</header>
<nav aria-label="States">
${stateIndex(form, model)}
</nav>
<main>
<div class="left">
<section id="chart" aria-label="Statechart: click a state to see its screen">
<div class="chart-bar">
<div class="views" role="group" aria-label="What the chart shows">${charts
    .map(
      (c, i) =>
        `<button type="button" data-view="${c.view}" aria-pressed="${i === 0}" title="${escapeHtml(c.title)}">${escapeHtml(c.name)}</button>`,
    )
    .join("")}</div>
<span class="chart-hint">Drag to pan, wheel to zoom, click a state</span>
<div class="zoom" role="group" aria-label="Zoom the statechart"><button type="button" data-zoom="out" aria-label="Zoom out">−</button><button type="button" data-zoom="fit">fit</button><button type="button" data-zoom="in" aria-label="Zoom in">+</button></div>
<button type="button" class="wide" aria-pressed="false" title="The chart across the whole window, the screen below it">wide</button>
</div>
${charts
  .map(
    (c, i) => `<div class="chart-scroll" data-view="${c.view}"${i === 0 ? "" : " hidden"}>
${c.svg}
</div>`,
  )
  .join("\n")}
</section>
<section id="routes">
<h2>Routes <small>(${model.routes.length}, every route the path tests replay)</small></h2>
${routeOutcomes(model)}
<p class="hint">Choose a route, then step through it with ← → (or ↑ ↓); the screen shows beside the chart. Hover a step to see its screen.</p>
<div class="route-browser">
<div class="route-list-wrap">
<input type="search" id="route-filter" placeholder="Filter: keys as shown (End · Enter), an event or a state" aria-label="Filter routes">
<p id="route-count" class="hint" aria-live="polite"></p>
<ol id="route-list"></ol>
</div>
<ol id="route-steps" aria-label="Steps of the chosen route"><li class="placeholder">Choose a route to see its steps.</li></ol>
</div>
</section>
</div>
<section id="panel" aria-live="polite">
<noscript><p>The screens, routes and keys need JavaScript.</p></noscript>
</section>
</main>
<section id="results">
<h2>What the model receives</h2>
<div class="result-pair">
${resultBlock("Shortest submitting route", model, model.submit)}
${resultBlock("Shortest cancel", model, model.cancel)}
</div>
</section>
<section id="coverage">
<h2>Coverage</h2>
${coverageTables(form.spec, model)}
</section>
${await waitingSection()}
<div id="thumbnail" hidden></div>
<script type="application/json" id="review-data">${scriptJson(pageData(form, model, charts))}</script>
${script}
</body>
</html>
`);
}

interface DrawnChart extends ChartData {
  view: "overview" | "states" | "loops";
  name: string;
  title: string;
  svg: string;
}

async function statecharts(form: ReviewForm, model: ReviewModel): Promise<DrawnChart[]> {
  // A form of many questions: each question laid out on its own (the overview shows how they join).
  const many = form.spec.questions.length > OVERVIEW_QUESTIONS;
  const turn = eventLoopTurns();
  const draw = async (view: DrawnChart["view"], name: string, title: string) => {
    await turn();
    const chart = reviewChart(form.spec, model, {
      loops: view === "loops",
      overview: view === "overview",
      prefix: view,
      parts: many,
    });
    await turn();
    const svg = await partsToSvg(chart.parts, `${view}-parts`);
    await turn();
    const edges = chart.edges.map(({ id, from, to, events }) => ({ id, from, to, events }));
    return { view, name, title, svg, edges, edgeOf: chart.edgeOf };
  };
  const charts: DrawnChart[] = [];
  if (many) charts.push(await draw("overview", "Questions", "One node per question, the review and the outcomes"));
  charts.push(await draw("states", "Flow", "How the form goes on: the keys that lead forward, and when"));
  charts.push(
    await draw(
      "loops",
      "Every state and key",
      "Also the prompts before discarding, the keys that stay and the keys ignored",
    ),
  );
  return charts;
}

/** What the page's script reads: the model less what only the generator needs, steps as rows of numbers. */
function pageData(form: ReviewForm, model: ReviewModel, charts: DrawnChart[]): PageData {
  const strings: string[] = [];
  const known = new Map<string, number>();
  const string = (text: string) => {
    let id = known.get(text);
    if (id === undefined) {
      id = strings.length;
      strings.push(text);
      known.set(text, id);
    }
    return id;
  };
  const steps = model.steps.map(
    (step): StepRow => [
      step.parent,
      string(step.event),
      string(step.state),
      string(keyList(step.keys.slice(0, 1))),
      string(keyList(step.keys)),
      step.screens,
      step.refused ? 1 : 0,
      string(step.when),
    ],
  );
  return {
    name: model.name,
    widths: model.widths,
    width: model.width,
    initial: model.initial,
    states: model.states.map((s) => ({
      ...s,
      detail: shownNote(form.spec, s.id),
      words: stateWords(form.spec, s.id),
      keys: s.keys.map((row) => ({ ...row, keys: keyList(row.keys) })),
    })),
    charts: Object.fromEntries(charts.map((c) => [c.view, { edges: c.edges, edgeOf: c.edgeOf }])),
    strings,
    steps,
    routes: model.routes,
    rows: model.rows,
    screens: model.screens,
    submit: model.submit && { route: model.submit.route, text: model.submit.text },
    cancel: model.cancel && { route: model.cancel.route, text: model.cancel.text },
  };
}

/**
 * Every state, a line per question (its name, then its states), folded
 * away so that the page opens on the chart (a click on the chart shows a
 * state too); the filter finds a state by its words or its path.
 */
function stateIndex(form: ReviewForm, model: ReviewModel): string {
  const leaves = model.states.filter((s) => s.kind !== "compound");
  const groups = new Map<string, typeof leaves>();
  for (const s of leaves) {
    const top = s.id.split(".")[0];
    const group = /^(q\d+|review)$/.test(top) ? top : "";
    groups.set(group, [...(groups.get(group) ?? []), s]);
  }
  const chip = (s: (typeof leaves)[number], words: string) => {
    const id = escapeHtml(s.id);
    const full = escapeHtml(stateWords(form.spec, s.id));
    return `<a class="state-link" id="state-${id}" href="#state-${id}" data-state="${id}" title="${full}">${escapeHtml(words)}</a>`;
  };
  const lines = [...groups].map(([group, states]) => {
    if (!group) return `<li>${states.map((s) => chip(s, stateWords(form.spec, s.id))).join(" ")}</li>`;
    const name = stateWords(form.spec, group);
    const sub = (w: string) => w.slice([`${name} · `, "Review · "].find((p) => w.startsWith(p))?.length ?? 0);
    return `<li><span class="group">${escapeHtml(name)}</span> ${states.map((s) => chip(s, sub(stateWords(form.spec, s.id)))).join(" ")}</li>`;
  });
  return `<details id="state-index">
<summary>States <small>(${leaves.length}, by question)</small></summary>
<input type="search" id="state-filter" placeholder="Filter: a question, a state or its path" aria-label="Filter states">
<ul>
${lines.join("\n")}
</ul>
</details>`;
}

/**
 * Where the routes end, counted: each route is the shortest to one situation
 * of the form, so most end before the form closes.
 */
function routeOutcomes(model: ReviewModel): string {
  const ends = new Map<string, number>();
  for (const route of model.routes) {
    const end = route.length ? model.steps[route[route.length - 1]].state : model.initial;
    const key = ["submitted", "cancelled", "declined"].includes(end) ? end : "open";
    ends.set(key, (ends.get(key) ?? 0) + 1);
  }
  const count = (n: number) => `${n} ${n === 1 ? "route" : "routes"}`;
  const words: Record<string, [string, string]> = {
    submitted: ["ends submitted", "end submitted"],
    declined: ["ends declined", "end declined"],
    cancelled: ["ends cancelled", "end cancelled"],
    open: ["stops with the form still open", "stop with the form still open"],
  };
  const items = ["submitted", "declined", "cancelled", "open"]
    .filter((k) => ends.has(k))
    .map((k) => {
      const n = ends.get(k) ?? 0;
      const text = `${count(n)} ${words[k][n === 1 ? 0 : 1]}`;
      return k === "open" ? text : `<a href="#routes" data-filter="→ ${k}">${text}</a>`;
    });
  return `<p id="route-outcomes" class="hint">${items.join(" · ")}. Each route is the shortest way to one situation of the form, so most stop before it closes.</p>`;
}

function routeKeys(model: ReviewModel, route: number): string {
  return model.routes[route]
    .map((id) => {
      const step = model.steps[id];
      return step.keys.length ? keyList(step.keys.slice(0, 1)) : step.event;
    })
    .join(" · ");
}

function resultBlock(heading: string, model: ReviewModel, result: ReviewResult | undefined): string {
  if (!result) return `<div class="result">\n<h3>${heading}</h3>\n<p>No generated route ends here.</p>\n</div>`;
  const keys = escapeHtml(routeKeys(model, result.route));
  return `<div class="result">
<h3>${heading}: <a href="#route-${result.route + 1}">route ${result.route + 1}</a> <span class="keys">${keys}</span></h3>
<h4>Text</h4>
<pre class="result-text">${escapeHtml(result.text)}</pre>
<h4><code>details</code></h4>
<pre class="result-details">${escapeHtml(JSON.stringify(result.details, null, 2))}</pre>
</div>`;
}
