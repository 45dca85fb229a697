/* The review page's script, bundled by npm run build from renderers/review/client/ (sources 8739a63184f49d74a7b1203c4feda7c51fa8a70093b9dde9cd5b266734699f74). */
"use strict";
(() => {
  // renderers/review/client/dom.ts
  function el(tag, className, ...children) {
    const e = document.createElement(tag);
    if (className) e.className = className;
    for (const c of children) if (c !== void 0 && c !== null) e.append(c);
    return e;
  }
  function link(text, hash, className) {
    const a = el("a", className, text);
    a.href = `#${hash}`;
    return a;
  }
  function byId(id) {
    const e = document.getElementById(id);
    if (!e) throw new Error(`The review page has no #${id}`);
    return e;
  }

  // renderers/review/client/review.ts
  function readReview() {
    const data2 = JSON.parse(byId("review-data").textContent ?? "");
    const steps = data2.steps.map(
      ([parent, event, state, key, keys, screens, refused, when], id) => ({
        id,
        parent,
        event: data2.strings[event],
        state: data2.strings[state],
        key: data2.strings[key],
        keys: data2.strings[keys],
        screens,
        refused: refused === 1,
        when: data2.strings[when]
      })
    );
    return {
      data: data2,
      steps,
      states: new Map(data2.states.map((s) => [s.id, s])),
      byDot: new Map(data2.states.map((s) => [s.dot, s])),
      width: data2.width,
      current: { kind: "state", state: data2.initial },
      go() {
      },
      render() {
      }
    };
  }
  function screen(review2, stepId) {
    const { data: data2, width } = review2;
    const step = review2.steps[stepId];
    const rows = data2.screens[step.screens[data2.widths.indexOf(width)]];
    const term = el("div", "term");
    term.dataset.width = String(width);
    term.style.setProperty("--cols", String(width));
    term.innerHTML = rows.map((r) => `<div>${data2.rows[r]}</div>`).join("");
    return term;
  }
  function leafOf(review2, id) {
    let s = review2.states.get(id);
    while (s && s.kind === "compound" && s.initial) s = review2.states.get(s.initial);
    return s;
  }
  function ancestors(review2, s) {
    const out = [];
    for (let p = s.parent && review2.states.get(s.parent); p; p = p.parent && review2.states.get(p.parent)) out.push(p);
    return out;
  }
  var stepKey = (step) => step.key || step.event.replace(/^[A-Z_]+ \((.*)\)$/, "$1");
  var stateName = (review2, id) => review2.states.get(id)?.words ?? id;
  function routeThrough(review2, stepId) {
    if (stepId === 0) return { route: 0, index: 0 };
    for (let r = 0; r < review2.data.routes.length; r++) {
      const i = review2.data.routes[r].indexOf(stepId);
      if (i >= 0) return { route: r, index: i + 1 };
    }
    return void 0;
  }

  // renderers/review/client/chart.ts
  var LEGIBLE_PX = 11;
  function setUpCharts(review2) {
    const { data: data2, states, byDot } = review2;
    const charts2 = /* @__PURE__ */ new Map();
    for (const scroller of document.querySelectorAll("#chart .chart-scroll")) {
      const view = scroller.dataset.view ?? "";
      const svg = scroller.querySelector("svg");
      const chart2 = {
        view,
        scroller,
        svg,
        data: data2.charts[view],
        natural: { width: svg.width.baseVal.value, height: svg.height.baseVal.value },
        zoom: 1,
        nodes: /* @__PURE__ */ new Map(),
        fitted: false
      };
      charts2.set(view, chart2);
      const edgeById = new Map(chart2.data.edges.map((e) => [e.id, e]));
      for (const g of svg.querySelectorAll("g.edge")) {
        const e = edgeById.get(g.id);
        const title = g.querySelector("title");
        if (e && title) title.textContent = `events: ${e.events}`;
      }
      for (const g of svg.querySelectorAll("g.node, g.cluster")) {
        const title = g.querySelector("title");
        const s = byDot.get((title?.textContent ?? "").replace(/^cluster_/, ""));
        if (!s) continue;
        if (title) title.textContent = s.id;
        g.classList.add("state");
        g.dataset.state = s.id;
        g.setAttribute("tabindex", "0");
        g.setAttribute("role", "link");
        g.setAttribute("aria-label", `State ${s.id}: ${s.words}`);
        chart2.nodes.set(s.id, g);
        const open2 = () => {
          if (view === "overview") {
            switchView("states");
            const flow = charts2.get("states");
            focusOn(flow, flow.nodes.get(s.id) ?? nodeOf(flow, leafOf(review2, s.id)?.id ?? s.id));
          }
          review2.go(`state-${s.id}`);
        };
        g.addEventListener("click", (event) => {
          event.stopPropagation();
          open2();
        });
        g.addEventListener("keydown", (event) => {
          if (event.key === "Enter" || event.key === " ") {
            event.preventDefault();
            open2();
          }
        });
      }
      panZoom(chart2);
    }
    let chart = charts2.get(document.querySelector("#chart .chart-scroll:not([hidden])").dataset.view);
    function setZoom(c, z, at) {
      const before = c.zoom;
      c.zoom = Math.max(0.02, Math.min(3, z));
      c.scroller.dataset.zoom = String(Math.round(c.zoom * 1e3) / 1e3);
      const box = c.scroller.getBoundingClientRect();
      const px = at ? at.x - box.left : c.scroller.clientWidth / 2;
      const py = at ? at.y - box.top : c.scroller.clientHeight / 2;
      const x = (c.scroller.scrollLeft + px) / before;
      const y = (c.scroller.scrollTop + py) / before;
      c.svg.style.width = `${c.natural.width * c.zoom}px`;
      c.svg.style.height = `${c.natural.height * c.zoom}px`;
      c.scroller.scrollLeft = x * c.zoom - px;
      c.scroller.scrollTop = y * c.zoom - py;
    }
    function fitZoom(c) {
      const w = c.scroller.clientWidth - 16;
      const h = c.scroller.clientHeight - 16;
      return Math.min(1.5, w / c.natural.width, h / c.natural.height);
    }
    function fitAll(c) {
      setZoom(c, fitZoom(c));
      c.scroller.scrollLeft = 0;
      c.scroller.scrollTop = 0;
    }
    function legibleZoom(c) {
      const units = c.natural.width / (c.svg.viewBox.baseVal?.width || c.natural.width);
      let smallest = Number.POSITIVE_INFINITY;
      for (const t of c.svg.querySelectorAll("text")) {
        const size = Number.parseFloat(t.getAttribute("font-size") ?? "");
        if (size > 0) smallest = Math.min(smallest, size);
      }
      return Number.isFinite(smallest) ? Math.ceil(LEGIBLE_PX / (smallest * units) * 100) / 100 : 1;
    }
    function firstView(c) {
      c.fitted = true;
      const legible = legibleZoom(c);
      if (fitZoom(c) >= legible) fitAll(c);
      else {
        setZoom(c, legible);
        c.scroller.scrollLeft = 0;
        c.scroller.scrollTop = 0;
        reveal(c, c.nodes.get(leafOf(review2, data2.initial)?.id ?? "") ?? nodeOf(c, data2.initial));
      }
    }
    function panZoom(c) {
      let drag;
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
        drag = void 0;
        c.scroller.classList.remove("panning");
      };
      c.scroller.addEventListener("pointerup", end);
      c.scroller.addEventListener("pointercancel", end);
      c.scroller.addEventListener(
        "click",
        (event) => {
          if (moved) {
            event.stopPropagation();
            event.preventDefault();
            moved = false;
          }
        },
        true
      );
      c.scroller.addEventListener(
        "wheel",
        (event) => {
          if (event.shiftKey) return;
          event.preventDefault();
          setZoom(c, c.zoom * Math.exp(-event.deltaY * 15e-4), { x: event.clientX, y: event.clientY });
        },
        { passive: false }
      );
    }
    for (const button of document.querySelectorAll("#chart .zoom button")) {
      button.addEventListener("click", () => {
        const how = button.dataset.zoom;
        if (how === "fit") fitAll(chart);
        else setZoom(chart, how === "in" ? chart.zoom * 1.25 : chart.zoom / 1.25);
      });
    }
    function switchView(view) {
      const next = charts2.get(view);
      if (!next || next === chart) return;
      chart.scroller.hidden = true;
      next.scroller.hidden = false;
      chart = next;
      for (const b of document.querySelectorAll("#chart .views button"))
        b.setAttribute("aria-pressed", String(b.dataset.view === view));
      if (!chart.fitted) firstView(chart);
      review2.render();
    }
    for (const button of document.querySelectorAll("#chart .views button"))
      button.addEventListener("click", () => switchView(button.dataset.view ?? ""));
    const wide = document.querySelector("#chart button.wide");
    wide?.addEventListener("click", () => {
      const on = document.querySelector("main").classList.toggle("wide");
      wide.setAttribute("aria-pressed", String(on));
      for (const c of charts2.values()) c.fitted = false;
      firstView(chart);
      review2.render();
    });
    function open() {
      const main = document.querySelector("main");
      const legible = chart.natural.width * legibleZoom(chart) + 16;
      const beside = chart.scroller.clientWidth;
      const room = main.clientWidth - 40;
      if (wide && window.innerWidth > 1100 && legible > beside && legible <= room) {
        if (legible <= room * 0.62) main.style.setProperty("--chart-width", `${Math.ceil(legible + 2)}px`);
        else {
          main.classList.add("wide");
          wide.setAttribute("aria-pressed", "true");
        }
      }
      firstView(chart);
    }
    function focusOn(c, g) {
      if (!g) return;
      const svgBox = c.svg.getBoundingClientRect();
      const box = g.getBoundingClientRect();
      const x = (box.left - svgBox.left) / c.zoom;
      const y = (box.top - svgBox.top) / c.zoom;
      const w = box.width / c.zoom;
      const h = box.height / c.zoom;
      const z = Math.min(1.25, (c.scroller.clientWidth - 40) / w, (c.scroller.clientHeight - 40) / h);
      setZoom(c, z);
      c.scroller.scrollLeft = x * z - (c.scroller.clientWidth - w * z) / 2;
      c.scroller.scrollTop = y * z - (c.scroller.clientHeight - h * z) / 2;
    }
    function reveal(c, g) {
      if (!g) return;
      const box = g.getBoundingClientRect();
      const view = c.scroller.getBoundingClientRect();
      if (box.left < view.left || box.right > view.right)
        c.scroller.scrollLeft += box.left - view.left - Math.max(8, (view.width - box.width) / 2);
      if (box.top < view.top || box.bottom > view.bottom)
        c.scroller.scrollTop += box.top - view.top - Math.max(8, (view.height - box.height) / 2);
    }
    function nodeOf(c, stateId) {
      for (let s = states.get(stateId); s; s = s.parent ? states.get(s.parent) : void 0) {
        const g = c.nodes.get(s.id);
        if (g && (c.view === "overview" || !g.classList.contains("cluster"))) return g;
      }
      return void 0;
    }
    function highlight(stateId, edgeIds, edgeClass) {
      for (const g2 of chart.svg.querySelectorAll(".selected, .out, .taken"))
        g2.classList.remove("selected", "out", "taken");
      for (const a of document.querySelectorAll(".state-link.selected")) a.classList.remove("selected");
      const g = nodeOf(chart, stateId);
      g?.classList.add("selected");
      reveal(chart, g);
      document.querySelector(`.state-link[data-state="${CSS.escape(stateId)}"]`)?.classList.add("selected");
      for (const id of edgeIds) chart.svg.querySelector(`#${CSS.escape(id)}`)?.classList.add(edgeClass);
    }
    return { shown: () => chart, switchView, open, highlight, nodeOf };
  }

  // renderers/review/client/panel.ts
  function setUpPanel(review2, charts2) {
    const { data: data2, states } = review2;
    const panel2 = byId("panel");
    const routeSteps = byId("route-steps");
    function outcomeText(o) {
      if (o.to === "refused") return "ignored";
      if (o.to === "stays") return "stays";
      return `→ ${states.get(o.to)?.words ?? o.to}`;
    }
    function keysText(row) {
      const typed = /^SUBMIT_TEXT ("(?:[^"\\]|\\.)*")$/.exec(row.event);
      if (!typed) return row.keys || "—";
      const text = JSON.parse(typed[1]);
      return `${row.keys || "—"}, ${text ? `with “${text}” typed` : "with nothing typed"}`;
    }
    function edgesOut(s) {
      const chart = charts2.shown();
      const g = charts2.nodeOf(chart, s.id);
      const from = g ? states.get(g.dataset.state ?? "").dot : s.dot;
      return chart.data.edges.filter((e) => e.from === from).map((e) => e.id);
    }
    function comingIn(target) {
      const rows = [];
      for (const s of data2.states) {
        if (s.id === target.id) continue;
        for (const row of s.keys)
          for (const o of row.outcomes)
            if (o.to === target.id) rows.push({ from: s, keys: row.keys, event: row.event, when: o.when, step: o.step });
      }
      return rows;
    }
    function showState2(id) {
      const s = leafOf(review2, id);
      if (!s) {
        panel2.replaceChildren(el("p", "missing", `This form has no state "${id}".`));
        return;
      }
      review2.current = { kind: "state", state: s.id };
      charts2.highlight(s.id, edgesOut(s), "out");
      const head = el("h2", "", s.words, " ", el("small", "", s.id));
      const parts = [head];
      const compound = states.get(id);
      if (compound && compound !== s) parts.push(el("p", "note", `${compound.words} opens in ${s.words}.`));
      const detail = [s, ...ancestors(review2, s)].find((x) => x.detail)?.detail;
      if (detail) parts.push(el("p", "note", detail));
      parts.push(el("p", "anchor", "Link: ", link(`#state-${s.id}`, `state-${s.id}`)));
      if (s.step < 0) {
        parts.push(el("p", "missing", "No generated route reaches this state."));
        panel2.replaceChildren(...parts);
        return;
      }
      const at = routeThrough(review2, s.step);
      const keys = el("p", "reached", "Reached by ");
      const ids = at ? [0, ...data2.routes[at.route]].slice(1, at.index + 1) : [];
      if (!ids.length) keys.append("opening the form");
      ids.forEach((stepId, i) => {
        if (i) keys.append(" · ");
        keys.append(link(stepKey(review2.steps[stepId]), `route-${at.route + 1}.${i + 1}`, "key"));
      });
      keys.append(` (${s.routes} ${s.routes === 1 ? "route passes" : "routes pass"} here)`);
      parts.push(keys, screen(review2, s.step));
      if (s.id === "submitted" || s.id === "cancelled") {
        const result = s.id === "submitted" ? data2.submit : data2.cancel;
        if (result) parts.push(el("h3", "", "The model receives"), el("pre", "result-text", result.text));
      }
      if (s.keys.length) {
        const table = el("table", "keys-here");
        table.append(el("caption", "", "Keys here, where they lead, and when"));
        table.append(el("tr", "", el("th", "", "keys"), el("th", "", "leads to"), el("th", "", "event")));
        for (const row of s.keys) {
          const outcomes = el("td", "outcomes");
          for (const o of row.outcomes) {
            const place = routeThrough(review2, o.step);
            const cls = o.to === "refused" ? "outcome refused" : "outcome";
            const text = outcomeText(o);
            const line = el("div", "outcome-line");
            line.append(place ? link(text, `route-${place.route + 1}.${place.index}`, cls) : el("span", cls, text));
            if (o.when) line.append(" ", el("span", "when", o.when));
            outcomes.append(line);
          }
          const refusedOnly = row.outcomes.every((o) => o.to === "refused");
          table.append(
            el(
              "tr",
              refusedOnly ? "refused" : "",
              el("td", "key", keysText(row)),
              outcomes,
              el("td", "event", row.event)
            )
          );
        }
        parts.push(table);
      }
      const incoming = comingIn(s);
      if (incoming.length) {
        const table = el("table", "leads-here");
        table.append(el("caption", "", "Keys that lead here, and when"));
        table.append(el("tr", "", el("th", "", "from"), el("th", "", "keys"), el("th", "", "when")));
        for (const row of incoming) {
          const place = routeThrough(review2, row.step);
          const from = link(row.from.words, `state-${row.from.id}`);
          from.title = row.from.id;
          table.append(
            el(
              "tr",
              "",
              el("td", "", from),
              el(
                "td",
                "key",
                place ? link(row.keys || row.event, `route-${place.route + 1}.${place.index}`, "key") : row.keys
              ),
              el("td", "when", row.when || "always")
            )
          );
        }
        parts.push(table);
      }
      panel2.replaceChildren(...parts);
    }
    function stateLink(id) {
      const a = link(stateName(review2, id), `state-${id}`);
      a.title = id;
      return a;
    }
    function showStep2(route, index) {
      const ids = [0, ...data2.routes[route] ?? []];
      if (!data2.routes[route]) {
        panel2.replaceChildren(el("p", "missing", `There is no route ${route + 1}.`));
        return;
      }
      const i = Math.max(0, Math.min(index, ids.length - 1));
      const step = review2.steps[ids[i]];
      review2.current = { kind: "route", route, index: i };
      const chart = charts2.shown();
      const edge = chart.data.edgeOf[ids[i]];
      charts2.highlight(step.state, edge >= 0 ? [chart.data.edges[edge].id] : [], "taken");
      const nav = el("p", "step-nav");
      const prev = el("button", "", "← previous");
      const next = el("button", "", "next →");
      prev.type = next.type = "button";
      prev.disabled = i === 0;
      next.disabled = i === ids.length - 1;
      prev.addEventListener("click", () => review2.go(`route-${route + 1}.${i - 1}`));
      next.addEventListener("click", () => review2.go(`route-${route + 1}.${i + 1}`));
      nav.append(prev, ` step ${i} of ${ids.length - 1} `, next);
      const what = i === 0 ? el("p", "step-what", "The form opens in ", stateLink(step.state)) : el(
        "p",
        "step-what",
        el("kbd", "", step.keys || stepKey(step)),
        " ",
        step.refused ? el("span", "outcome refused", "ignored: stays in ") : "→ ",
        stateLink(step.state),
        step.when ? el("span", "when", ` ${step.when}`) : void 0
      );
      panel2.replaceChildren(
        el("h2", "", `Route ${route + 1}`, " ", el("small", "", `${ids.length - 1} steps`)),
        nav,
        what,
        screen(review2, ids[i]),
        el("p", "anchor", "Link: ", link(`#route-${route + 1}.${i}`, `route-${route + 1}.${i}`))
      );
      showRouteSteps(route, i);
    }
    function showRouteSteps(route, active) {
      if (routeSteps.dataset.route !== String(route)) {
        routeSteps.dataset.route = String(route);
        const ids = [0, ...data2.routes[route]];
        routeSteps.replaceChildren(
          ...ids.map((stepId, i) => {
            const step = review2.steps[stepId];
            const li = el("li", step.refused ? "refused" : "");
            li.dataset.step = String(stepId);
            const a = link("", `route-${route + 1}.${i}`);
            a.append(
              el("span", "num", String(i)),
              i === 0 ? el("span", "", "opens") : el("kbd", "", step.keys || stepKey(step)),
              el("span", "to", `${step.refused ? "ignored · " : "→ "}${stateName(review2, step.state)}`)
            );
            a.title = i === 0 ? step.state : `${step.event} → ${step.state}`;
            li.append(a);
            return li;
          })
        );
        for (const li of document.querySelectorAll("#route-list li.active")) li.classList.remove("active");
        document.querySelector(`#route-list li[data-route="${route}"]`)?.classList.add("active");
      }
      routeSteps.querySelectorAll("li").forEach((li, i) => {
        li.classList.toggle("active", i === active);
        if (i === active) li.scrollIntoView({ block: "nearest" });
      });
    }
    return { showState: showState2, showStep: showStep2 };
  }

  // renderers/review/client/routes.ts
  function setUpRoutes(review2) {
    const { data: data2, steps } = review2;
    const routeList = byId("route-list");
    const routeSteps = byId("route-steps");
    const filter = byId("route-filter");
    const thumbnail = byId("thumbnail");
    const routeEnd = (route) => route.length ? steps[route[route.length - 1]].state : data2.initial;
    const routeSummary = data2.routes.map((route) => route.map((id) => stepKey(steps[id])).join(" · "));
    const routeText = data2.routes.map(
      (route, r) => [
        routeSummary[r],
        `→ ${stateName(review2, routeEnd(route))}`,
        // Event names and state paths find a route too, though the list shows neither.
        routeEnd(route),
        ...route.map((id) => `${steps[id].keys} ${steps[id].event} ${steps[id].state}`)
      ].join(" ").toLowerCase().replace(/\s+/g, " ")
    );
    routeList.replaceChildren(
      ...data2.routes.map((route, r) => {
        const li = el("li");
        li.dataset.route = String(r);
        const a = link("", `route-${r + 1}.0`);
        li.append(a);
        a.append(
          el("span", "num", String(r + 1)),
          el("span", "keys", routeSummary[r]),
          el("span", "to", `→ ${stateName(review2, routeEnd(route))}`)
        );
        a.title = routeEnd(route);
        return li;
      })
    );
    const filterCount = document.getElementById("route-count");
    function applyFilter() {
      const query = filter.value.toLowerCase().replace(/\s+/g, " ").trim();
      const words = query.split(" ").filter((w) => w && !["·", "→", "/", "-", "—"].includes(w));
      let shown = 0;
      routeList.querySelectorAll("li").forEach((li, r) => {
        li.hidden = !(routeText[r].includes(query) || words.every((w) => routeText[r].includes(w)));
        if (!li.hidden) shown++;
      });
      if (filterCount) filterCount.textContent = query ? `${shown} of ${data2.routes.length} routes` : "";
    }
    filter.addEventListener("input", applyFilter);
    for (const a of document.querySelectorAll("#route-outcomes [data-filter]"))
      a.addEventListener("click", (event) => {
        event.preventDefault();
        filter.value = a.dataset.filter ?? "";
        applyFilter();
      });
    routeSteps.addEventListener("mouseover", (event) => {
      const li = event.target?.closest?.("li");
      if (!li || li.dataset.step === void 0) return;
      thumbnail.replaceChildren(screen(review2, Number(li.dataset.step)));
      thumbnail.hidden = false;
    });
    routeSteps.addEventListener("mousemove", (event) => {
      thumbnail.style.left = `${Math.min(event.clientX + 16, window.innerWidth - thumbnail.offsetWidth - 8)}px`;
      thumbnail.style.top = `${Math.min(event.clientY + 16, window.innerHeight - thumbnail.offsetHeight - 8)}px`;
    });
    routeSteps.addEventListener("mouseleave", () => {
      thumbnail.hidden = true;
    });
  }

  // renderers/review/client/states.ts
  function setUpStateIndex() {
    const index = byId("state-index");
    const filter = byId("state-filter");
    filter.addEventListener("input", () => {
      const words = filter.value.toLowerCase().split(/\s+/).filter(Boolean);
      for (const line of index.querySelectorAll("li")) {
        const group = line.querySelector(".group")?.textContent?.toLowerCase() ?? "";
        let any = false;
        for (const a of line.querySelectorAll(".state-link")) {
          const text = `${group} ${a.title} ${a.dataset.state}`.toLowerCase();
          a.hidden = !words.every((w) => text.includes(w));
          any ||= !a.hidden;
        }
        line.hidden = !any;
      }
    });
  }

  // renderers/review/client/main.ts
  var review = readReview();
  var { data } = review;
  var panel = byId("panel");
  var charts = setUpCharts(review);
  var { showState, showStep } = setUpPanel(review, charts);
  setUpRoutes(review);
  setUpStateIndex();
  for (const button of document.querySelectorAll(".widths button")) {
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
    const delta = { ArrowRight: 1, ArrowDown: 1, ArrowLeft: -1, ArrowUp: -1 }[event.key];
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
  function apply(hash) {
    const route = /^route-(\d+)(?:\.(\d+))?$/.exec(hash);
    if (route) showStep(Number(route[1]) - 1, Number(route[2] ?? 0));
    else if (hash.startsWith("state-")) showState(decodeURIComponent(hash.slice("state-".length)));
    else showState(data.initial);
  }
  function go(hash) {
    history.replaceState(null, "", `#${hash}`);
    apply(hash);
  }
  review.go = go;
  review.render = render;
  window.addEventListener("hashchange", () => {
    apply(location.hash.slice(1));
    const box = panel.getBoundingClientRect();
    if (box.bottom < 0 || box.top > window.innerHeight) panel.scrollIntoView({ block: "start" });
  });
  charts.open();
  apply(location.hash.slice(1));
})();
