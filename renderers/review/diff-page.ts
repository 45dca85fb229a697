/**
 * The page of a change to a form: the diff as one self-contained HTML page,
 * the same bytes every time, every text escaped, changed lines, texts and
 * screen rows marked word by word.
 */
import { OVERVIEW_QUESTIONS } from "../graph.js";
import { pageHead } from "../html.js";
import { escapeHtml, visibleControls } from "../text.js";
import { reviewAssets } from "./assets.js";
import { MODEL_TEXTS, ROUTES_LISTED, routeViews, routeWhat, STILL_OPEN } from "./diff-routes.js";
import { SCREEN_WIDTH } from "./diff-screens.js";
import { linesDiffHtml, rowText, screenDiff } from "./line-diff.js";
import type { Changed, FormDiff, ScreenPair } from "./types.js";
import { wordDiffHtml } from "./word-diff.js";

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

type Route = FormDiff["routes"][number];

/** Changed routes: the first with both end screens as cards, the rest in a table by their keys. */
function routesSection(routes: readonly Route[], none: string, hint: string): string {
  if (!routes.length) return `<p class="none">${none}</p>`;
  const listed = routes.slice(0, ROUTES_LISTED);
  const drawn = listed.filter((r) => r.oldRows && r.newRows);
  const rest = listed.filter((r) => !(r.oldRows && r.newRows));
  const ends = (r: Route) =>
    r.elsewhere
      ? `${escapeHtml(r.old)} <span class="arrow">→ now</span> ${escapeHtml(r.new)}`
      : `ends in ${escapeHtml(r.new)} before and after`;
  const cards = drawn.map((r, i) => {
    const result = r.outcome ? `<span class="result">the result changed</span>` : "";
    const told = r.text && r.text.old !== r.text.new;
    const heading = r.enters ? "What the model receives, then Enter until the form closes" : "What the model receives";
    return `<details class="route${r.outcome ? " outcome" : ""}"${i < OPEN_ROUTES ? " open" : ""}>
<summary><span class="keys">${escapeHtml(r.events)}</span>${result}<span class="ends">${ends(r)}</span></summary>
<p class="differs">Where the forms part: ${escapeHtml(r.differs)}</p>
${screenPair(
  { heading: `before: ends in ${escapeHtml(r.old)}`, rows: r.oldRows, absent: "" },
  { heading: `after: ends in ${escapeHtml(r.new)}`, rows: r.newRows, absent: "" },
)}${told && r.text ? `\n${textPair(r.text, heading)}` : ""}
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
  const more = routes.length > listed.length ? `\n<p class="none">and ${routes.length - listed.length} more</p>` : "";
  return `<p class="hint">${hint} A typed answer on a route (<code>typed "Blue"</code>) is a sample the route search types to try the question.</p>
${cards.join("\n")}
${table}${more}`;
}

/** What the model receives before and after, side by side, what changed marked. */
function textPair(text: Changed, what?: string): string {
  // Nothing to compare with a form still open: the text shows whole.
  const open = text.old === STILL_OPEN || text.new === STILL_OPEN;
  const marked = open ? { old: escapeHtml(text.old), new: escapeHtml(text.new) } : linesDiffHtml(text.old, text.new);
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
.diff p.differs { margin: 2px 0 0 1em; color: var(--muted); }
.diff #changes-chart .chart-scroll { overflow: auto; max-height: 80vh; padding: 6px 0; }
.diff #changes-chart svg { max-width: 100%; height: auto; }
.diff #changes-chart g.changed > polygon, .diff #changes-chart g.changed > path { stroke: #bf8700; stroke-width: 2.5px; }
.diff #changes-chart g.node.changed > polygon, .diff #changes-chart g.node.changed > path { fill: #fff1c2; }
.diff #changes-chart g.edge.changed > text { fill: #6b4f00; font-weight: 600; }
.diff .changed-key { padding: 0 6px; border: 2px solid #bf8700; background: #fff1c2; border-radius: 4px; }
.diff .pair .term { padding: 4px 5px; font-size: min(13px, calc((100cqw - 12px) / var(--cols, 80) / 0.61)); }
@media (max-width: 1100px) {
  .diff nav.contents { margin: 0 8px 10px; }
  .diff section { margin: 0 8px 12px; padding: 8px; }
  .diff .pair { gap: 8px; }
}
`;

/** What the model receives after the changed routes: the texts that differ, each pair once, the first few. */
function modelTextSection(diff: FormDiff, views: ReturnType<typeof routeViews>): string {
  if (!views.told.length)
    return `<p class="none">${
      diff.routes.length
        ? `The model reads the same after each of the ${diff.routes.length} routes that changed (a route that leaves both forms open completed with Enter until the form closes).`
        : "The model reads the same after every route compared."
    }</p>`;
  const shown = views.texts.slice(0, MODEL_TEXTS);
  const count = `After ${views.told.length} of the routes that changed the model reads another text (${views.texts.length} different ${views.texts.length === 1 ? "pair" : "pairs"} of texts${views.texts.length > shown.length ? `, the first ${shown.length} here` : ""}); a route that leaves both forms open is completed with Enter until the form closes.`;
  return `<p class="hint">${count}</p>
${shown.map((r) => `<h3>${escapeHtml(routeWhat(r))}</h3>\n${textPair(r.text!)}`).join("\n")}`;
}

/** The newer form's chart, what changed marked, and the links to both forms' review pages. */
function chartSection(diff: FormDiff): string {
  const links = diff.pages
    ? `<p class="pages">Review pages: <a href="${escapeHtml(diff.pages.old)}">before the change (${escapeHtml(diff.old.name)})</a> · <a href="${escapeHtml(diff.pages.new)}">after the change (${escapeHtml(diff.new.name)})</a></p>\n`
    : "";
  if (!diff.chart) return links;
  const parts =
    diff.new.questions > OVERVIEW_QUESTIONS
      ? " Only the questions where something changed are drawn, and the rest of the form if it changed."
      : "";
  return `${links}<p class="hint">The chart after the change: <span class="changed-key">marked</span> the states of questions added or changed and the keys that lead somewhere new or under another condition.${parts}</p>
<div class="chart-scroll">${diff.chart}</div>`;
}

/** The diff as one self-contained HTML page. */
export function formDiffPage(diff: FormDiff): string {
  const title = `${diff.old.name} → ${diff.new.name}`;
  const side = (s: FormDiff["old"]) =>
    `${escapeHtml(s.name)}: ${s.questions} questions · ${s.states} states · ${s.routes} routes`;
  const q = diff.questions;
  // Every count and list about routes from the one list of changed routes.
  const views = routeViews(diff.routes);
  const count = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;
  const contents = [
    ["questions", `Questions: ${q.added.length} added, ${q.removed.length} removed, ${q.changed.length} changed`],
    ["decisions", `Where behaviour differs: ${views.differs.length}`],
    ["routes", `Routes that end elsewhere: ${views.elsewhere.length}`],
    ["results", `Routes that end alike with another result: ${views.alike.length}`],
    ["screens", `Screens: ${diff.screens.length}`],
    ["model-text", `What the model receives: another text after ${count(views.told.length, "route")}`],
    [
      "edges",
      `Keys: ${diff.edges.changed.length} changed, ${diff.edges.added.length} added, ${diff.edges.removed.length} removed`,
    ],
    ["states", `States: ${diff.states.added.length} added, ${diff.states.removed.length} removed`],
    ...(diff.chart || diff.pages ? [["changes-chart", "Chart after the change"]] : []),
  ];
  // Whatever a screen's row still carries: no raw control character reaches the file.
  const head = pageHead(
    `Changes: ${title}`,
    { css: `${reviewAssets().style}${DIFF_STYLE}` },
    "default-src 'none'; style-src 'unsafe-inline'",
  );
  return visibleControls(`${head}<body class="diff">
<header>
<h1>Changes <small>${escapeHtml(title)}</small></h1>
<p class="summary">before ${side(diff.old)} — after ${side(diff.new)}</p>
${diff.pages ? `<p class="pages">Review pages: <a href="${escapeHtml(diff.pages.old)}">before</a> · <a href="${escapeHtml(diff.pages.new)}">after</a></p>` : ""}
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
<h2>Where behaviour differs <small>(the answer or key at which the two forms first part, on the routes below)</small></h2>
${list(views.differs, "changed", "No answer or key leads elsewhere or to another result than it did.")}
</section>
<section id="routes">
<h2>Routes that end elsewhere <small>(${views.elsewhere.length} of ${diff.routesCompared} routes of either form, replayed on both)</small></h2>
${routesSection(views.elsewhere, "Every route ends in the state it did.", "Each route is the keys pressed from the form's opening, and the state it ends in before and after the change: those whose result changed first, then the shortest.")}
</section>
<section id="results">
<h2>Routes that end alike with another result <small>(${views.alike.length} of ${diff.routesCompared})</small></h2>
${routesSection(views.alike, "No route that ends in the state it did ends with another result.", "Each route ends in the same state before and after the change, and the model reads another result.")}
</section>
<section id="screens">
<h2>Screens <small>(at ${SCREEN_WIDTH} columns, before and after: the questions added, removed or changed, then every other screen that changed)</small></h2>
${screensSection(diff.screens)}
</section>
<section id="model-text">
<h2>What the model receives</h2>
${modelTextSection(diff, views)}
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
${
  diff.chart || diff.pages
    ? `<section id="changes-chart">
<h2>Chart after the change</h2>
${chartSection(diff)}
</section>`
    : ""
}
</body>
</html>
`);
}
