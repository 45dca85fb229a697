/**
 * The list of states by question: a filter on a state's words or its path
 * (`q12`, `typing`) hides the rest, and a state shown in the chart or the
 * panel opens the list only when the reader opened it.
 */
import { byId } from "./dom.js";

export function setUpStateIndex(): void {
  const index = byId<HTMLDetailsElement>("state-index");
  const filter = byId<HTMLInputElement>("state-filter");
  filter.addEventListener("input", () => {
    const words = filter.value.toLowerCase().split(/\s+/).filter(Boolean);
    for (const line of index.querySelectorAll<HTMLLIElement>("li")) {
      const group = line.querySelector(".group")?.textContent?.toLowerCase() ?? "";
      let any = false;
      for (const a of line.querySelectorAll<HTMLAnchorElement>(".state-link")) {
        const text = `${group} ${a.title} ${a.dataset.state}`.toLowerCase();
        a.hidden = !words.every((w) => text.includes(w));
        any ||= !a.hidden;
      }
      line.hidden = !any;
    }
  });
}
