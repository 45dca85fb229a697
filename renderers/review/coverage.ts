/**
 * The review page's coverage section in the person's words: what no route
 * took, named by question, state and key (`Size · options · Esc (cancel)`),
 * the machine's own name on hover; and every transition with its keys.
 */
import type { FormEvent } from "../../machines/context.js";
import type { FormSpec } from "../../machines/spec.js";
import { COOLDOWN_DONE, TIME_UP } from "../inspect/events.js";
import { escapeHtml } from "../text.js";
import { conditionWords, questionName } from "./condition-words.js";
import { keyList } from "./keys.js";
import { stateWords } from "./state-names.js";
import type { ReviewModel } from "./types.js";

/** Every event by the key that sends it and what it does, as the help line names keys. */
const EVENT_WORDS: Record<string, string> = {
  MOVE: "↑ / ↓ (move)",
  MOVE_TO: "Home / End (move)",
  SELECT: "a digit (choose)",
  TOGGLE: "Space (tick)",
  TOGGLE_ALL: "a (tick all)",
  INVERT: "i (invert the ticks)",
  RESUME: "any other key (go back)",
  CONFIRM: "Enter",
  NEXT_TAB: "Tab (next question)",
  PREV_TAB: "Shift+Tab (previous question)",
  CANCEL: "Esc (cancel)",
  ABORT: "the call aborted",
  TYPE: "typing",
  SUBMIT_TEXT: "Enter (the typed answer)",
  NOTE: "n (a note)",
  DECLINE: "d (decline)",
  STOP_CLOCK: "the first key (stops the clock)",
  FOLD: "Alt+H (fold)",
  UNFOLD: "Alt+H (unfold)",
  always: "on its own (no key)",
  [TIME_UP]: "the timeout",
  [COOLDOWN_DONE]: "the end of the countdown",
} satisfies Record<FormEvent["type"] | "always" | typeof TIME_UP | typeof COOLDOWN_DONE, string>;

const stateIn = (spec: FormSpec, node: string) => {
  const path = node.replace(/^form\.?/, "");
  return path ? stateWords(spec, path) : "the form";
};

/** A name the coverage gives (a state node, a transition, a condition's outcome) in the person's words. */
export function coveredWords(spec: FormSpec, name: string): string {
  const transition = /^(\S+) (\S+) #\d+$/.exec(name);
  if (transition) return `${stateIn(spec, transition[1])} · ${EVENT_WORDS[transition[2]] ?? transition[2]}`;
  const condition = /^(\S+) #(\d+) (\S+?)=(.*) (true|false)$/.exec(name);
  const q = condition ? spec.questions.findIndex((x) => x.id === condition[1]) : -1;
  const visibility = spec.questions[q]?.visibility;
  const c = visibility?.kind === "when" ? visibility.conditions[Number(condition![2])] : undefined;
  if (condition && c) {
    const answer = condition[4] === "" ? "unanswered" : `answered ${condition[4]}`;
    return `${questionName(spec, q)} · shown when ${conditionWords(spec, c)} · ${answer} (${condition[5] === "true" ? "holds" : "fails"})`;
  }
  return stateIn(spec, name);
}

export function coverageTables(spec: FormSpec, model: ReviewModel): string {
  const c = model.coverage;
  const missed = [...c.states.missed, ...c.transitions.missed, ...c.conditions.missed];
  const named = (name: string) => `<span title="${escapeHtml(name)}">${escapeHtml(coveredWords(spec, name))}</span>`;
  const state = (path: string) =>
    path === "(any state)"
      ? "any state"
      : `<span title="${escapeHtml(path)}">${escapeHtml(stateWords(spec, path))}</span>`;
  const rows = c.table
    .map((t) => {
      const cls = t.routes === 0 ? ' class="missed"' : "";
      const to = t.to.length ? t.to.map(state).join(", ") : "(stays)";
      return `<tr${cls}><td>${state(t.from)}</td><td class="keys">${escapeHtml(keyList(t.keys))}</td><td>${to}</td><td class="event">${escapeHtml(t.event)}</td><td class="num">${t.routes}</td></tr>`;
    })
    .join("\n");
  return `<table class="coverage-summary">
<thead><tr><th>states</th><th>transitions</th><th>condition outcomes</th><th>routes</th><th>covered</th></tr></thead>
<tbody><tr><td>${c.states.covered}/${c.states.total}</td><td>${c.transitions.covered}/${c.transitions.total}</td><td>${c.conditions.covered}/${c.conditions.total}</td><td>${c.routes}</td><td>${c.percent} %</td></tr></tbody>
</table>
${missed.length ? `<p class="missed">Not covered: ${missed.map(named).join(", ")}</p>` : c.unknown.length ? "<p>Every state node, transition and condition outcome the search could decide is taken by some route.</p>" : "<p>Every state node and every transition of the machine is taken by some route, and every condition meets an answer on each side of it.</p>"}
${c.unknown.map((why) => `<p class="unknown">unknown: ${escapeHtml(why)}</p>`).join("\n")}
<details>
<summary>Every transition, with its keys and the routes that take it</summary>
<table class="transitions">
<thead><tr><th>from</th><th>keys</th><th>to</th><th>event</th><th>routes</th></tr></thead>
<tbody>
${rows}
</tbody>
</table>
</details>`;
}
