/**
 * The statecharts (overview, states, states with loops): one shown at a
 * time; drag pans, the wheel zooms, the buttons zoom and fit, a click or
 * Enter on a state opens it.
 */
import { type Chart, leafOf, type Review } from "./review.js";

export interface Charts {
  shown(): Chart;
  switchView(view: string): void;
  /** The chart the page opens on: across the window when only so is all of it legible, else beside the screen. */
  open(): void;
  /** Mark a state, the edges given (with `edgeClass`) and the state's index link; scroll the chart to it. */
  highlight(stateId: string, edgeIds: string[], edgeClass: string): void;
  nodeOf(c: Chart, stateId: string): SVGGElement | undefined;
}

/** The smallest text a chart opens with, in pixels. */
const LEGIBLE_PX = 11;

export function setUpCharts(review: Review): Charts {
  const { data, states, byDot } = review;
  const charts = new Map<string, Chart>();
  for (const scroller of document.querySelectorAll<HTMLElement>("#chart .chart-scroll")) {
    const view = scroller.dataset.view ?? "";
    const svg = scroller.querySelector("svg")!;
    const chart: Chart = {
      view,
      scroller,
      svg,
      data: data.charts[view],
      natural: { width: svg.width.baseVal.value, height: svg.height.baseVal.value },
      zoom: 1,
      nodes: new Map(),
      fitted: false,
    };
    charts.set(view, chart);
    // Internal event names only on hover: each edge's title says which events it stands for.
    const edgeById = new Map(chart.data.edges.map((e) => [e.id, e]));
    for (const g of svg.querySelectorAll("g.edge")) {
      const e = edgeById.get(g.id);
      const title = g.querySelector("title");
      if (e && title) title.textContent = `events: ${e.events}`;
    }
    for (const g of svg.querySelectorAll<SVGGElement>("g.node, g.cluster")) {
      const title = g.querySelector("title");
      const s = byDot.get((title?.textContent ?? "").replace(/^cluster_/, ""));
      if (!s) continue;
      if (title) title.textContent = s.id;
      g.classList.add("state");
      g.dataset.state = s.id;
      g.setAttribute("tabindex", "0");
      g.setAttribute("role", "link");
      g.setAttribute("aria-label", `State ${s.id}: ${s.words}`);
      chart.nodes.set(s.id, g);
      const open = () => {
        // A question of the overview opens into its own states: the flow, zoomed onto that question.
        if (view === "overview") {
          switchView("states");
          const flow = charts.get("states")!;
          focusOn(flow, flow.nodes.get(s.id) ?? nodeOf(flow, leafOf(review, s.id)?.id ?? s.id));
        }
        review.go(`state-${s.id}`);
      };
      g.addEventListener("click", (event) => {
        event.stopPropagation();
        open();
      });
      g.addEventListener("keydown", (event) => {
        if (event.key === "Enter" || event.key === " ") {
          event.preventDefault();
          open();
        }
      });
    }
    panZoom(chart);
  }
  let chart = charts.get(document.querySelector<HTMLElement>("#chart .chart-scroll:not([hidden])")!.dataset.view!)!;

  function setZoom(c: Chart, z: number, at?: { x: number; y: number }) {
    const before = c.zoom;
    // As far out as a fit of the largest chart needs (its overview is the view to read it in), no further in than 3×.
    c.zoom = Math.max(0.02, Math.min(3, z));
    c.scroller.dataset.zoom = String(Math.round(c.zoom * 1000) / 1000);
    const box = c.scroller.getBoundingClientRect();
    // Keep the point under the pointer (or the middle) where it is.
    const px = at ? at.x - box.left : c.scroller.clientWidth / 2;
    const py = at ? at.y - box.top : c.scroller.clientHeight / 2;
    const x = (c.scroller.scrollLeft + px) / before;
    const y = (c.scroller.scrollTop + py) / before;
    c.svg.style.width = `${c.natural.width * c.zoom}px`;
    c.svg.style.height = `${c.natural.height * c.zoom}px`;
    c.scroller.scrollLeft = x * c.zoom - px;
    c.scroller.scrollTop = y * c.zoom - py;
  }
  /** The zoom at which the whole chart fits its panel. */
  function fitZoom(c: Chart) {
    const w = c.scroller.clientWidth - 16;
    const h = c.scroller.clientHeight - 16;
    return Math.min(1.5, w / c.natural.width, h / c.natural.height);
  }
  function fitAll(c: Chart) {
    setZoom(c, fitZoom(c));
    c.scroller.scrollLeft = 0;
    c.scroller.scrollTop = 0;
  }
  /** The zoom at which a chart's smallest text is `LEGIBLE_PX` pixels high. */
  function legibleZoom(c: Chart) {
    const units = c.natural.width / (c.svg.viewBox.baseVal?.width || c.natural.width);
    let smallest = Number.POSITIVE_INFINITY;
    for (const t of c.svg.querySelectorAll("text")) {
      const size = Number.parseFloat(t.getAttribute("font-size") ?? "");
      if (size > 0) smallest = Math.min(smallest, size);
    }
    // Rounded up: the chart's drawn size is rounded to whole pixels.
    return Number.isFinite(smallest) ? Math.ceil((LEGIBLE_PX / (smallest * units)) * 100) / 100 : 1;
  }
  /** The first view of a chart: all of it when it is legible so, else legible with the start state in view. */
  function firstView(c: Chart) {
    c.fitted = true;
    const legible = legibleZoom(c);
    if (fitZoom(c) >= legible) fitAll(c);
    else {
      setZoom(c, legible);
      c.scroller.scrollLeft = 0;
      c.scroller.scrollTop = 0;
      reveal(c, c.nodes.get(leafOf(review, data.initial)?.id ?? "") ?? nodeOf(c, data.initial));
    }
  }
  function panZoom(c: Chart) {
    let drag: { x: number; y: number; left: number; top: number } | undefined;
    let moved = false;
    c.scroller.addEventListener("pointerdown", (event) => {
      if (event.button !== 0) return;
      drag = { x: event.clientX, y: event.clientY, left: c.scroller.scrollLeft, top: c.scroller.scrollTop };
      moved = false;
    });
    c.scroller.addEventListener("pointermove", (event) => {
      if (!drag) return;
      const dx = event.clientX - drag.x;
      const dy = event.clientY - drag.y;
      if (!moved && Math.abs(dx) + Math.abs(dy) < 4) return;
      if (!moved) c.scroller.setPointerCapture(event.pointerId);
      moved = true;
      c.scroller.classList.add("panning");
      c.scroller.scrollLeft = drag.left - dx;
      c.scroller.scrollTop = drag.top - dy;
    });
    const end = () => {
      drag = undefined;
      c.scroller.classList.remove("panning");
    };
    c.scroller.addEventListener("pointerup", end);
    c.scroller.addEventListener("pointercancel", end);
    // A drag is not a click on the state it ends on.
    c.scroller.addEventListener(
      "click",
      (event) => {
        if (moved) {
          event.stopPropagation();
          event.preventDefault();
          moved = false;
        }
      },
      true,
    );
    c.scroller.addEventListener(
      "wheel",
      (event) => {
        if (event.shiftKey) return;
        event.preventDefault();
        setZoom(c, c.zoom * Math.exp(-event.deltaY * 0.0015), { x: event.clientX, y: event.clientY });
      },
      { passive: false },
    );
  }
  for (const button of document.querySelectorAll<HTMLButtonElement>("#chart .zoom button")) {
    button.addEventListener("click", () => {
      const how = button.dataset.zoom;
      if (how === "fit") fitAll(chart);
      else setZoom(chart, how === "in" ? chart.zoom * 1.25 : chart.zoom / 1.25);
    });
  }
  function switchView(view: string) {
    const next = charts.get(view);
    if (!next || next === chart) return;
    chart.scroller.hidden = true;
    next.scroller.hidden = false;
    chart = next;
    for (const b of document.querySelectorAll<HTMLButtonElement>("#chart .views button"))
      b.setAttribute("aria-pressed", String(b.dataset.view === view));
    if (!chart.fitted) firstView(chart);
    review.render();
  }
  for (const button of document.querySelectorAll<HTMLButtonElement>("#chart .views button"))
    button.addEventListener("click", () => switchView(button.dataset.view ?? ""));

  // The whole width for the chart, the screen and the routes below it; and back.
  const wide = document.querySelector<HTMLButtonElement>("#chart button.wide");
  wide?.addEventListener("click", () => {
    const on = document.querySelector("main")!.classList.toggle("wide");
    wide.setAttribute("aria-pressed", String(on));
    for (const c of charts.values()) c.fitted = false;
    firstView(chart);
    review.render();
  });

  function open() {
    const main = document.querySelector("main")!;
    const legible = chart.natural.width * legibleZoom(chart) + 16;
    const beside = chart.scroller.clientWidth;
    const room = main.clientWidth - 40;
    // Two columns only: below 1100 pixels the chart has the window's width already. The chart may take
    // up to 62 % beside the screen (whose text shrinks to fit, to about 9.5 pixels), else the whole width.
    if (wide && window.innerWidth > 1100 && legible > beside && legible <= room) {
      if (legible <= room * 0.62) main.style.setProperty("--chart-width", `${Math.ceil(legible + 2)}px`);
      else {
        main.classList.add("wide");
        wide.setAttribute("aria-pressed", "true");
      }
    }
    firstView(chart);
  }

  /** Zoom and scroll a chart so that one node or cluster fills its panel (at most at 1.25). */
  function focusOn(c: Chart, g: Element | undefined) {
    if (!g) return;
    const svgBox = c.svg.getBoundingClientRect();
    const box = g.getBoundingClientRect();
    // In the chart's own units (zoom 1).
    const x = (box.left - svgBox.left) / c.zoom;
    const y = (box.top - svgBox.top) / c.zoom;
    const w = box.width / c.zoom;
    const h = box.height / c.zoom;
    const z = Math.min(1.25, (c.scroller.clientWidth - 40) / w, (c.scroller.clientHeight - 40) / h);
    setZoom(c, z);
    c.scroller.scrollLeft = x * z - (c.scroller.clientWidth - w * z) / 2;
    c.scroller.scrollTop = y * z - (c.scroller.clientHeight - h * z) / 2;
  }

  /** Scroll the chart (only the chart) so that a node is in view. */
  function reveal(c: Chart, g: Element | undefined) {
    if (!g) return;
    const box = g.getBoundingClientRect();
    const view = c.scroller.getBoundingClientRect();
    if (box.left < view.left || box.right > view.right)
      c.scroller.scrollLeft += box.left - view.left - Math.max(8, (view.width - box.width) / 2);
    if (box.top < view.top || box.bottom > view.bottom)
      c.scroller.scrollTop += box.top - view.top - Math.max(8, (view.height - box.height) / 2);
  }

  /** The node that draws a state in a chart: its own, or in the overview its question's. */
  function nodeOf(c: Chart, stateId: string): SVGGElement | undefined {
    for (let s = states.get(stateId); s; s = s.parent ? states.get(s.parent) : undefined) {
      const g = c.nodes.get(s.id);
      if (g && (c.view === "overview" || !g.classList.contains("cluster"))) return g;
    }
    return undefined;
  }

  function highlight(stateId: string, edgeIds: string[], edgeClass: string) {
    for (const g of chart.svg.querySelectorAll(".selected, .out, .taken"))
      g.classList.remove("selected", "out", "taken");
    for (const a of document.querySelectorAll(".state-link.selected")) a.classList.remove("selected");
    const g = nodeOf(chart, stateId);
    g?.classList.add("selected");
    reveal(chart, g);
    document.querySelector(`.state-link[data-state="${CSS.escape(stateId)}"]`)?.classList.add("selected");
    for (const id of edgeIds) chart.svg.querySelector(`#${CSS.escape(id)}`)?.classList.add(edgeClass);
  }

  return { shown: () => chart, switchView, open, highlight, nodeOf };
}
