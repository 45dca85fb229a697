/*
 * The review page's script: it wires the statechart, the screen panel, the
 * routes and the width switch to the page's data (written by
 * renderers/review-page.ts). Selections are links: `#state-q2.choosing`
 * shows a state, `#route-12.3` the third step of route 12. Text reaches the
 * page as element text; only the terminal rows (escaped markup from the
 * terminal serializer) are set as HTML.
 */
(() => {
  const data = JSON.parse(document.getElementById("review-data").textContent);
  // Steps arrive as rows of numbers (see pageData in review-page.ts).
  data.steps = data.steps.map(([parent, event, state, key, keys, edges, screens, refused]) => ({
    parent,
    event: data.strings[event],
    state: data.strings[state],
    key: data.strings[key],
    keys: data.strings[keys],
    edges,
    screens,
    refused: refused === 1,
  }));
  const states = new Map(data.states.map((s) => [s.id, s]));
  const byDot = new Map(data.states.map((s) => [s.dot, s]));
  const panel = document.getElementById("panel");
  const routeList = document.getElementById("route-list");
  const routeSteps = document.getElementById("route-steps");
  const filter = document.getElementById("route-filter");
  const thumbnail = document.getElementById("thumbnail");
  const svg = document.querySelector("#chart svg");
  let width = data.width;
  /** What the panel shows: a state, or a step of a route. */
  let current = { kind: "state", state: data.initial };

  function el(tag, className, ...children) {
    const e = document.createElement(tag);
    if (className) e.className = className;
    for (const c of children) if (c !== undefined && c !== null) e.append(c);
    return e;
  }

  function link(text, hash, className) {
    const a = el("a", className, text);
    a.href = `#${hash}`;
    return a;
  }

  /** The screen after a step, at the chosen width. */
  function screen(stepId) {
    const step = data.steps[stepId];
    const rows = data.screens[step.screens[data.widths.indexOf(width)]];
    const term = el("div", "term");
    term.dataset.width = String(width);
    term.style.setProperty("--cols", String(width));
    term.innerHTML = rows.map((r) => `<div>${data.rows[r]}</div>`).join("");
    return term;
  }

  function leafOf(id) {
    let s = states.get(id);
    while (s && s.kind === "compound" && s.initial) s = states.get(s.initial);
    return s;
  }

  function ancestors(s) {
    const out = [];
    for (let p = s.parent && states.get(s.parent); p; p = p.parent && states.get(p.parent)) out.push(p);
    return out;
  }

  /** The first key that sends a step's event (what a route's summary shows), or the event when no key does. */
  const stepKey = (step) => step.key || step.event;

  /** The first route through a step, and the step's place in it (1 = after the first key). */
  function routeThrough(stepId) {
    if (stepId === 0) return { route: 0, index: 0 };
    for (let r = 0; r < data.routes.length; r++) {
      const i = data.routes[r].indexOf(stepId);
      if (i >= 0) return { route: r, index: i + 1 };
    }
    return undefined;
  }

  // The statechart: zoomable, every state a link to its screen.
  const scroller = document.querySelector("#chart .chart-scroll");
  const natural = { width: svg.width.baseVal.value, height: svg.height.baseVal.value };
  let zoom = 1;
  function setZoom(z) {
    zoom = Math.max(0.2, Math.min(2.5, z));
    svg.style.width = `${natural.width * zoom}px`;
    svg.style.height = `${natural.height * zoom}px`;
  }
  const fitZoom = () => Math.min(1, (scroller.clientWidth - 4) / natural.width);
  setZoom(Math.max(0.6, fitZoom()));
  for (const button of document.querySelectorAll("#chart .zoom button")) {
    button.addEventListener("click", () => {
      const how = button.dataset.zoom;
      setZoom(how === "in" ? zoom * 1.25 : how === "out" ? zoom / 1.25 : fitZoom());
    });
  }
  /** Scroll the chart (only the chart) so that a state is in view. */
  function reveal(g) {
    if (!g) return;
    const box = g.getBoundingClientRect();
    const view = scroller.getBoundingClientRect();
    if (box.left < view.left || box.right > view.right)
      scroller.scrollLeft += box.left - view.left - (view.width - box.width) / 2;
    if (box.top < view.top || box.bottom > view.bottom)
      scroller.scrollTop += box.top - view.top - (view.height - box.height) / 2;
  }

  const nodes = new Map();
  for (const g of svg.querySelectorAll("g.node, g.cluster")) {
    const title = g.querySelector("title")?.textContent ?? "";
    const s = byDot.get(title.replace(/^cluster_/, ""));
    if (!s) continue;
    g.classList.add("state");
    g.dataset.state = s.id;
    g.setAttribute("tabindex", "0");
    g.setAttribute("role", "link");
    g.setAttribute("aria-label", `State ${s.id}`);
    nodes.set(s.id, g);
    g.addEventListener("click", () => go(`state-${s.id}`));
    g.addEventListener("keydown", (event) => {
      if (event.key === "Enter" || event.key === " ") {
        event.preventDefault();
        go(`state-${s.id}`);
      }
    });
  }

  function highlight(stateId, edgeIds, edgeClass) {
    for (const g of svg.querySelectorAll(".selected, .out, .taken")) g.classList.remove("selected", "out", "taken");
    for (const a of document.querySelectorAll(".state-link.selected")) a.classList.remove("selected");
    nodes.get(stateId)?.classList.add("selected");
    reveal(nodes.get(stateId));
    document.querySelector(`.state-link[data-state="${CSS.escape(stateId)}"]`)?.classList.add("selected");
    for (const id of edgeIds) svg.querySelector(`#${CSS.escape(id)}`)?.classList.add(edgeClass);
  }

  function showState(id) {
    const s = leafOf(id);
    if (!s) {
      panel.replaceChildren(el("p", "missing", `This form has no state "${id}".`));
      return;
    }
    current = { kind: "state", state: s.id };
    const from = new Set([s.dot, ...ancestors(s).map((a) => a.dot), "any_state"]);
    highlight(
      s.id,
      data.edges.filter((e) => from.has(e.from) && !e.refused).map((e) => e.id),
      "out",
    );
    const head = el("h2", "", s.id, " ", el("small", "", s.label));
    const parts = [head];
    const compound = states.get(id);
    if (compound && compound !== s) parts.push(el("p", "note", `${compound.id} opens in ${s.id}.`));
    const detail = [s, ...ancestors(s)].find((x) => x.detail)?.detail;
    if (detail) parts.push(el("p", "note", detail));
    parts.push(el("p", "anchor", "Link: ", link(`#state-${s.id}`, `state-${s.id}`)));
    if (s.step < 0) {
      parts.push(el("p", "missing", "No generated route reaches this state."));
      panel.replaceChildren(...parts);
      return;
    }
    const at = routeThrough(s.step);
    const keys = el("p", "reached", "Reached by ");
    const ids = at ? [0, ...data.routes[at.route]].slice(1, at.index + 1) : [];
    if (!ids.length) keys.append("opening the form");
    ids.forEach((stepId, i) => {
      if (i) keys.append(" · ");
      keys.append(link(stepKey(data.steps[stepId]), `route-${at.route + 1}.${i + 1}`, "key"));
    });
    keys.append(` (${s.routes} route${s.routes === 1 ? "" : "s"} pass here)`);
    parts.push(keys, screen(s.step));
    if (s.id === "submitted" || s.id === "cancelled") {
      const result = s.id === "submitted" ? data.submit : data.cancel;
      if (result) parts.push(el("h3", "", "The model receives"), el("pre", "result-text", result.text));
    }
    if (s.keys.length) {
      const table = el("table", "keys-here");
      table.append(el("caption", "", "Keys here, and where they lead"));
      table.append(el("tr", "", el("th", "", "keys"), el("th", "", "event"), el("th", "", "leads to")));
      for (const row of s.keys) {
        const outcomes = el("td");
        row.outcomes.forEach((o, i) => {
          if (i) outcomes.append(" ");
          const place = routeThrough(o.step);
          const text = o.to === "refused" ? "ignored" : o.to === "stays" ? "stays" : `→ ${o.to}`;
          const cls = o.to === "refused" ? "outcome refused" : "outcome";
          outcomes.append(place ? link(text, `route-${place.route + 1}.${place.index}`, cls) : el("span", cls, text));
        });
        const refusedOnly = row.outcomes.every((o) => o.to === "refused");
        table.append(
          el("tr", refusedOnly ? "refused" : "", el("td", "key", row.keys || "—"), el("td", "", row.event), outcomes),
        );
      }
      parts.push(table);
    }
    panel.replaceChildren(...parts);
  }

  function showStep(route, index) {
    const ids = [0, ...(data.routes[route] ?? [])];
    if (!data.routes[route]) {
      panel.replaceChildren(el("p", "missing", `There is no route ${route + 1}.`));
      return;
    }
    const i = Math.max(0, Math.min(index, ids.length - 1));
    const step = data.steps[ids[i]];
    current = { kind: "route", route, index: i };
    highlight(
      step.state,
      step.edges.map((e) => data.edges[e].id),
      "taken",
    );
    const nav = el("p", "step-nav");
    const prev = el("button", "", "← previous");
    const next = el("button", "", "next →");
    prev.type = next.type = "button";
    prev.disabled = i === 0;
    next.disabled = i === ids.length - 1;
    prev.addEventListener("click", () => go(`route-${route + 1}.${i - 1}`));
    next.addEventListener("click", () => go(`route-${route + 1}.${i + 1}`));
    nav.append(prev, ` step ${i} of ${ids.length - 1} `, next);
    const what =
      i === 0
        ? el("p", "step-what", "The form opens in ", link(step.state, `state-${step.state}`))
        : el(
            "p",
            "step-what",
            step.keys ? el("kbd", "", step.keys) : undefined,
            ` ${step.event} `,
            step.refused ? el("span", "outcome refused", "ignored: stays in ") : "→ ",
            link(step.state, `state-${step.state}`),
          );
    panel.replaceChildren(
      el("h2", "", `Route ${route + 1}`, " ", el("small", "", `${ids.length - 1} steps`)),
      nav,
      what,
      screen(ids[i]),
      el("p", "anchor", "Link: ", link(`#route-${route + 1}.${i}`, `route-${route + 1}.${i}`)),
    );
    showRouteSteps(route, i);
  }

  function showRouteSteps(route, active) {
    if (routeSteps.dataset.route !== String(route)) {
      routeSteps.dataset.route = String(route);
      const ids = [0, ...data.routes[route]];
      routeSteps.replaceChildren(
        ...ids.map((stepId, i) => {
          const step = data.steps[stepId];
          const li = el("li", step.refused ? "refused" : "");
          li.dataset.step = String(stepId);
          const a = link("", `route-${route + 1}.${i}`);
          a.append(
            el("span", "num", String(i)),
            i === 0 ? el("span", "", "opens") : step.keys ? el("kbd", "", step.keys) : undefined,
            el("span", "event", i === 0 ? "" : step.event),
            el("span", "to", step.refused ? `ignored · ${step.state}` : `→ ${step.state}`),
          );
          li.append(a);
          return li;
        }),
      );
      for (const li of document.querySelectorAll("#route-list li.active")) li.classList.remove("active");
      document.querySelector(`#route-list li[data-route="${route}"]`)?.classList.add("active");
    }
    routeSteps.querySelectorAll("li").forEach((li, i) => {
      li.classList.toggle("active", i === active);
      if (i === active) li.scrollIntoView({ block: "nearest" });
    });
  }

  // The route list, with a filter on keys, events and states.
  const routeText = data.routes.map((route) =>
    route
      .map((id) => `${data.steps[id].keys} ${data.steps[id].event} ${data.steps[id].state}`)
      .join(" ")
      .toLowerCase(),
  );
  routeList.replaceChildren(
    ...data.routes.map((route, r) => {
      const li = el("li");
      li.dataset.route = String(r);
      const end = data.steps[route[route.length - 1]];
      li.append(link("", `route-${r + 1}.0`));
      li.firstChild.append(
        el("span", "num", String(r + 1)),
        el("span", "keys", route.map((id) => stepKey(data.steps[id])).join(" · ")),
        el("span", "to", `→ ${end ? end.state : data.initial}`),
      );
      return li;
    }),
  );
  filter.addEventListener("input", () => {
    const words = filter.value.toLowerCase().split(/\s+/).filter(Boolean);
    routeList.querySelectorAll("li").forEach((li, r) => {
      li.hidden = !words.every((w) => routeText[r].includes(w));
    });
  });

  // A thumbnail of a step's screen while the pointer is on it.
  routeSteps.addEventListener("mouseover", (event) => {
    const li = event.target.closest?.("li");
    if (!li || li.dataset.step === undefined) return;
    thumbnail.replaceChildren(screen(Number(li.dataset.step)));
    thumbnail.hidden = false;
  });
  routeSteps.addEventListener("mousemove", (event) => {
    thumbnail.style.left = `${Math.min(event.clientX + 16, window.innerWidth - thumbnail.offsetWidth - 8)}px`;
    thumbnail.style.top = `${Math.min(event.clientY + 16, window.innerHeight - thumbnail.offsetHeight - 8)}px`;
  });
  routeSteps.addEventListener("mouseleave", () => {
    thumbnail.hidden = true;
  });

  // The width switch.
  for (const button of document.querySelectorAll(".widths button")) {
    button.addEventListener("click", () => {
      width = Number(button.dataset.width);
      for (const b of document.querySelectorAll(".widths button")) b.setAttribute("aria-pressed", String(b === button));
      render();
    });
  }

  // Arrow keys step through the chosen route.
  document.addEventListener("keydown", (event) => {
    if (current.kind !== "route" || event.altKey || event.ctrlKey || event.metaKey) return;
    if (event.target instanceof HTMLInputElement || event.target instanceof HTMLTextAreaElement) return;
    const delta = { ArrowRight: 1, ArrowDown: 1, ArrowLeft: -1, ArrowUp: -1 }[event.key];
    if (!delta) return;
    event.preventDefault();
    const next = current.index + delta;
    if (next >= 0 && next <= data.routes[current.route].length) go(`route-${current.route + 1}.${next}`);
  });

  function render() {
    if (current.kind === "route") showStep(current.route, current.index);
    else showState(current.state);
  }

  /** Show what a link names: `state-<path>` or `route-<n>[.<step>]`. */
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

  window.addEventListener("hashchange", () => {
    apply(location.hash.slice(1));
    // A link far down the page (a result's route) brings the screen into view.
    const box = panel.getBoundingClientRect();
    if (box.bottom < 0 || box.top > window.innerHeight) panel.scrollIntoView({ block: "start" });
  });
  apply(location.hash.slice(1));
})();
