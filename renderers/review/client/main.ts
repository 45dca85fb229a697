/*
 * The review page's script. Selections are links: `#state-q2.choosing` shows
 * a state, `#route-12.3` the third step of route 12. Text reaches the page as
 * element text; only terminal rows (the serializer's escaped markup) are set
 * as HTML.
 */
import { setUpCharts } from "./chart.js";
import { byId } from "./dom.js";
import { setUpPanel } from "./panel.js";
import { readReview } from "./review.js";
import { setUpRoutes } from "./routes.js";
import { setUpStateIndex } from "./states.js";

const review = readReview();
const { data } = review;
const panel = byId("panel");
const charts = setUpCharts(review);
const { showState, showStep } = setUpPanel(review, charts);
setUpRoutes(review);
setUpStateIndex();

for (const button of document.querySelectorAll<HTMLButtonElement>(".widths button")) {
  button.addEventListener("click", () => {
    review.width = Number(button.dataset.width);
    for (const b of document.querySelectorAll(".widths button")) b.setAttribute("aria-pressed", String(b === button));
    render();
  });
}

document.addEventListener("keydown", (event) => {
  const current = review.current;
  if (current.kind !== "route" || event.altKey || event.ctrlKey || event.metaKey) return;
  if (event.target instanceof HTMLInputElement || event.target instanceof HTMLTextAreaElement) return;
  const delta = ({ ArrowRight: 1, ArrowDown: 1, ArrowLeft: -1, ArrowUp: -1 } as Record<string, number>)[event.key];
  if (!delta) return;
  event.preventDefault();
  const next = current.index + delta;
  if (next >= 0 && next <= data.routes[current.route].length) go(`route-${current.route + 1}.${next}`);
});

function render() {
  const current = review.current;
  if (current.kind === "route") showStep(current.route, current.index);
  else showState(current.state);
}

/** Show what a link names: `state-<path>` or `route-<n>[.<step>]`. */
function apply(hash: string) {
  const route = /^route-(\d+)(?:\.(\d+))?$/.exec(hash);
  if (route) showStep(Number(route[1]) - 1, Number(route[2] ?? 0));
  else if (hash.startsWith("state-")) showState(decodeURIComponent(hash.slice("state-".length)));
  else showState(data.initial);
}

function go(hash: string) {
  history.replaceState(null, "", `#${hash}`);
  apply(hash);
}

review.go = go;
review.render = render;

window.addEventListener("hashchange", () => {
  apply(location.hash.slice(1));
  // A link far down the page (a result's route) brings the screen into view.
  const box = panel.getBoundingClientRect();
  if (box.bottom < 0 || box.top > window.innerHeight) panel.scrollIntoView({ block: "start" });
});
charts.open();
apply(location.hash.slice(1));
