/**
 * The route list in the person's words (keys, and where the route ends by
 * question), with a filter on keys, events and states (a route as
 * displayed, `End · Enter`, finds it too), and a thumbnail of a step's
 * screen while the pointer is on it.
 */
import { byId, el, link } from "./dom.js";
import { type Review, screen, stateName, stepKey } from "./review.js";

export function setUpRoutes(review: Review): void {
  const { data, steps } = review;
  const routeList = byId("route-list");
  const routeSteps = byId("route-steps");
  const filter = byId<HTMLInputElement>("route-filter");
  const thumbnail = byId("thumbnail");

  const routeEnd = (route: number[]) => (route.length ? steps[route[route.length - 1]].state : data.initial);
  const routeSummary = data.routes.map((route) => route.map((id) => stepKey(steps[id])).join(" · "));
  const routeText = data.routes.map((route, r) =>
    [
      routeSummary[r],
      `→ ${stateName(review, routeEnd(route))}`,
      // Event names and state paths find a route too, though the list shows neither.
      routeEnd(route),
      ...route.map((id) => `${steps[id].keys} ${steps[id].event} ${steps[id].state}`),
    ]
      .join(" ")
      .toLowerCase()
      .replace(/\s+/g, " "),
  );
  routeList.replaceChildren(
    ...data.routes.map((route, r) => {
      const li = el("li");
      li.dataset.route = String(r);
      const a = link("", `route-${r + 1}.0`);
      li.append(a);
      a.append(
        el("span", "num", String(r + 1)),
        el("span", "keys", routeSummary[r]),
        el("span", "to", `→ ${stateName(review, routeEnd(route))}`),
      );
      a.title = routeEnd(route);
      return li;
    }),
  );
  const filterCount = document.getElementById("route-count");
  function applyFilter() {
    const query = filter.value.toLowerCase().replace(/\s+/g, " ").trim();
    // Separators as the page draws them are not words to look for.
    const words = query.split(" ").filter((w) => w && !["·", "→", "/", "-", "—"].includes(w));
    let shown = 0;
    routeList.querySelectorAll("li").forEach((li, r) => {
      li.hidden = !(routeText[r].includes(query) || words.every((w) => routeText[r].includes(w)));
      if (!li.hidden) shown++;
    });
    if (filterCount) filterCount.textContent = query ? `${shown} of ${data.routes.length} routes` : "";
  }
  filter.addEventListener("input", applyFilter);
  for (const a of document.querySelectorAll<HTMLElement>("#route-outcomes [data-filter]"))
    a.addEventListener("click", (event) => {
      event.preventDefault();
      filter.value = a.dataset.filter ?? "";
      applyFilter();
    });

  routeSteps.addEventListener("mouseover", (event) => {
    const li = (event.target as Element | null)?.closest?.("li");
    if (!li || li.dataset.step === undefined) return;
    thumbnail.replaceChildren(screen(review, Number(li.dataset.step)));
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
