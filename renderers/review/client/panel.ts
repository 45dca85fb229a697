/**
 * The panel beside the chart: a state (its screen, the keys here and where
 * they lead, the keys that lead here), or a step of a route (its screen,
 * previous and next), with the route's steps listed under the routes.
 */
import type { Charts } from "./chart.js";
import type { OutcomeData, StateData } from "./data.js";
import { byId, el, link } from "./dom.js";
import { ancestors, leafOf, type Review, routeThrough, screen, stateName, stepKey } from "./review.js";

export interface Panel {
  showState(id: string): void;
  showStep(route: number, index: number): void;
}

export function setUpPanel(review: Review, charts: Charts): Panel {
  const { data, states } = review;
  const panel = byId("panel");
  const routeSteps = byId("route-steps");

  /** Where a key from `from` led: the state, and when (the condition in the form's words). */
  function outcomeText(o: OutcomeData) {
    if (o.to === "refused") return "ignored";
    if (o.to === "stays") return "stays";
    return `→ ${states.get(o.to)?.words ?? o.to}`;
  }

  /**
   * The keys of a row of the table of keys here, with what was typed when the
   * event carries it: `Enter, with "Blue" typed`, `Enter, with nothing typed`.
   */
  function keysText(row: { keys: string; event: string }) {
    const typed = /^SUBMIT_TEXT ("(?:[^"\\]|\\.)*")$/.exec(row.event);
    if (!typed) return row.keys || "—";
    const text = JSON.parse(typed[1]) as string;
    return `${row.keys || "—"}, ${text ? `with “${text}” typed` : "with nothing typed"}`;
  }

  /** The chart edges leaving a state (in the overview: leaving its question). */
  function edgesOut(s: StateData) {
    const chart = charts.shown();
    const g = charts.nodeOf(chart, s.id);
    const from = g ? states.get(g.dataset.state ?? "")!.dot : s.dot;
    return chart.data.edges.filter((e) => e.from === from).map((e) => e.id);
  }

  /** Every key that leads into a state, from where and when. */
  function comingIn(target: StateData) {
    const rows: Array<{ from: StateData; keys: string; event: string; when: string; step: number }> = [];
    for (const s of data.states) {
      if (s.id === target.id) continue;
      for (const row of s.keys)
        for (const o of row.outcomes)
          if (o.to === target.id) rows.push({ from: s, keys: row.keys, event: row.event, when: o.when, step: o.step });
    }
    return rows;
  }

  function showState(id: string) {
    const s = leafOf(review, id);
    if (!s) {
      panel.replaceChildren(el("p", "missing", `This form has no state "${id}".`));
      return;
    }
    review.current = { kind: "state", state: s.id };
    charts.highlight(s.id, edgesOut(s), "out");
    const head = el("h2", "", s.words, " ", el("small", "", s.id));
    const parts: HTMLElement[] = [head];
    const compound = states.get(id);
    if (compound && compound !== s) parts.push(el("p", "note", `${compound.words} opens in ${s.words}.`));
    const detail = [s, ...ancestors(review, s)].find((x) => x.detail)?.detail;
    if (detail) parts.push(el("p", "note", detail));
    parts.push(el("p", "anchor", "Link: ", link(`#state-${s.id}`, `state-${s.id}`)));
    if (s.step < 0) {
      parts.push(el("p", "missing", "No generated route reaches this state."));
      panel.replaceChildren(...parts);
      return;
    }
    const at = routeThrough(review, s.step);
    const keys = el("p", "reached", "Reached by ");
    const ids = at ? [0, ...data.routes[at.route]].slice(1, at.index + 1) : [];
    if (!ids.length) keys.append("opening the form");
    ids.forEach((stepId, i) => {
      if (i) keys.append(" · ");
      keys.append(link(stepKey(review.steps[stepId]), `route-${at!.route + 1}.${i + 1}`, "key"));
    });
    keys.append(` (${s.routes} ${s.routes === 1 ? "route passes" : "routes pass"} here)`);
    parts.push(keys, screen(review, s.step));
    if (s.id === "submitted" || s.id === "cancelled") {
      const result = s.id === "submitted" ? data.submit : data.cancel;
      if (result) parts.push(el("h3", "", "The model receives"), el("pre", "result-text", result.text));
    }
    if (s.keys.length) {
      const table = el("table", "keys-here");
      table.append(el("caption", "", "Keys here, where they lead, and when"));
      table.append(el("tr", "", el("th", "", "keys"), el("th", "", "leads to"), el("th", "", "event")));
      for (const row of s.keys) {
        const outcomes = el("td", "outcomes");
        for (const o of row.outcomes) {
          const place = routeThrough(review, o.step);
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
            el("td", "event", row.event),
          ),
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
        const place = routeThrough(review, row.step);
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
              place ? link(row.keys || row.event, `route-${place.route + 1}.${place.index}`, "key") : row.keys,
            ),
            el("td", "when", row.when || "always"),
          ),
        );
      }
      parts.push(table);
    }
    panel.replaceChildren(...parts);
  }

  /** A link to a state, named as the person knows it, its path on hover. */
  function stateLink(id: string) {
    const a = link(stateName(review, id), `state-${id}`);
    a.title = id;
    return a;
  }

  function showStep(route: number, index: number) {
    const ids = [0, ...(data.routes[route] ?? [])];
    if (!data.routes[route]) {
      panel.replaceChildren(el("p", "missing", `There is no route ${route + 1}.`));
      return;
    }
    const i = Math.max(0, Math.min(index, ids.length - 1));
    const step = review.steps[ids[i]];
    review.current = { kind: "route", route, index: i };
    const chart = charts.shown();
    const edge = chart.data.edgeOf[ids[i]];
    charts.highlight(step.state, edge >= 0 ? [chart.data.edges[edge].id] : [], "taken");
    const nav = el("p", "step-nav");
    const prev = el("button", "", "← previous");
    const next = el("button", "", "next →");
    prev.type = next.type = "button";
    prev.disabled = i === 0;
    next.disabled = i === ids.length - 1;
    prev.addEventListener("click", () => review.go(`route-${route + 1}.${i - 1}`));
    next.addEventListener("click", () => review.go(`route-${route + 1}.${i + 1}`));
    nav.append(prev, ` step ${i} of ${ids.length - 1} `, next);
    const what =
      i === 0
        ? el("p", "step-what", "The form opens in ", stateLink(step.state))
        : el(
            "p",
            "step-what",
            el("kbd", "", step.keys || stepKey(step)),
            " ",
            step.refused ? el("span", "outcome refused", "ignored: stays in ") : "→ ",
            stateLink(step.state),
            step.when ? el("span", "when", ` ${step.when}`) : undefined,
          );
    panel.replaceChildren(
      el("h2", "", `Route ${route + 1}`, " ", el("small", "", `${ids.length - 1} steps`)),
      nav,
      what,
      screen(review, ids[i]),
      el("p", "anchor", "Link: ", link(`#route-${route + 1}.${i}`, `route-${route + 1}.${i}`)),
    );
    showRouteSteps(route, i);
  }

  function showRouteSteps(route: number, active: number) {
    if (routeSteps.dataset.route !== String(route)) {
      routeSteps.dataset.route = String(route);
      const ids = [0, ...data.routes[route]];
      routeSteps.replaceChildren(
        ...ids.map((stepId, i) => {
          const step = review.steps[stepId];
          const li = el("li", step.refused ? "refused" : "");
          li.dataset.step = String(stepId);
          const a = link("", `route-${route + 1}.${i}`);
          a.append(
            el("span", "num", String(i)),
            i === 0 ? el("span", "", "opens") : el("kbd", "", step.keys || stepKey(step)),
            el("span", "to", `${step.refused ? "ignored · " : "→ "}${stateName(review, step.state)}`),
          );
          a.title = i === 0 ? step.state : `${step.event} → ${step.state}`;
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

  return { showState, showStep };
}
