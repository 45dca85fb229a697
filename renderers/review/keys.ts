/**
 * Events and keys as the review page names them: an event in words, the keys
 * that send it where the form stands (the keymap's own inverse, in the names
 * the help line uses), and the order the page lists them in.
 */
import { holds } from "../../machines/conditions.js";
import type { FormEvent } from "../../machines/context.js";
import type { FormSpec } from "../../machines/spec.js";
import { COOLDOWN_DONE, TIME_UP } from "../inspect/events.js";
import { BACKSPACE, editingInputs, keyName, keysForEvent, stepsToRow } from "../terminal/keymap.js";
import type { TerminalScreen } from "../terminal/screen.js";
import type { ReviewKeyRow, ReviewStep } from "./types.js";

export function eventText(event: { type: string } & Record<string, unknown>): string {
  const e = event as FormEvent;
  switch (e.type) {
    case "MOVE":
      return `MOVE ${e.delta > 0 ? "+" : ""}${e.delta}`;
    case "MOVE_TO":
      return `MOVE_TO ${e.to}`;
    case "SELECT":
      return `SELECT row ${e.row + 1}`;
    case "TYPE":
    case "SUBMIT_TEXT":
      return `${e.type} ${JSON.stringify(e.text)}`;
    case "ABORT":
      return "ABORT (call aborted)";
    case "STOP_CLOCK":
      return "STOP_CLOCK (the first key)";
    default:
      if ((event.type as string) === TIME_UP) return "after the timeout";
      return event.type === COOLDOWN_DONE ? "after the cooldown" : event.type;
  }
}

export function addKeys(into: string[], keys: readonly string[]): void {
  for (const k of keys) if (!into.includes(k)) into.push(k);
}

/** The keys that send `event` where the screen's session stands, named as the help line names them. */
export function keysOf(event: FormEvent, screen: TerminalScreen): string[] {
  if (event.type === "TYPE") {
    const inputs = editingInputs(screen.session.editorText, event.text);
    const erased = inputs.filter((input) => input === BACKSPACE).length;
    const typed = inputs.slice(erased).join("");
    return [
      [erased > 0 ? `${keyName("backspace")} ×${erased}` : "", typed !== "" ? `typed ${JSON.stringify(typed)}` : ""]
        .filter((part) => part !== "")
        .join(", "),
    ];
  }
  if ((event.type as string) === COOLDOWN_DONE || event.type === "ABORT") return [];
  if ((event.type as string) === TIME_UP) return [];
  if (event.type === "STOP_CLOCK") return ["any key"];
  const steps = stepsToRow(event, screen.keyContext());
  if (steps.length <= 1) return keysForEvent(event, screen.keyContext(), screen.keybindings).map(keyName);
  // A row past the digits: the moves and the choice in a row, `↓ ×3, Enter`.
  const names = steps.map((step) => keyName(keysForEvent(step, screen.keyContext(), screen.keybindings)[0]));
  const runs: string[] = [];
  for (let i = 0; i < names.length; ) {
    let n = 1;
    while (names[i + n] === names[i]) n++;
    runs.push(n > 1 ? `${names[i]} ×${n}` : names[i]);
    i += n;
  }
  return [runs.join(", ")];
}

/** The order events are listed in: as the help line lists keys, then by row. */
const EVENT_ORDER: readonly string[] = [
  "MOVE",
  "MOVE_TO",
  "SELECT",
  "TOGGLE",
  "CONFIRM",
  "NOTE",
  "TYPE",
  "SUBMIT_TEXT",
  "NEXT_TAB",
  "PREV_TAB",
  "CANCEL",
  "after",
  "ABORT",
] satisfies Array<FormEvent["type"] | "after">;

export function byEvent(a: ReviewKeyRow, b: ReviewKeyRow): number {
  const rank = (row: ReviewKeyRow) => {
    const i = EVENT_ORDER.indexOf(row.event.split(" ")[0]);
    return i < 0 ? EVENT_ORDER.length : i;
  };
  return rank(a) - rank(b) || (a.event < b.event ? -1 : a.event > b.event ? 1 : 0);
}

/** Alternative keys for one event, for a label: `Enter`, `Tab / →`, digits in a run as `1–5`. */
export function keyList(keys: readonly string[]): string {
  const isDigit = (k: string) => /^[1-9]$/.test(k);
  const digits = [...new Set(keys.filter(isDigit).map(Number))].sort((a, b) => a - b);
  const out = keys.filter((k) => !isDigit(k));
  let start = 0;
  for (let i = 1; i <= digits.length; i++) {
    if (i < digits.length && digits[i] === digits[i - 1] + 1) continue;
    const run = digits.slice(start, i);
    out.push(run.length >= 3 ? `${run[0]}–${run[run.length - 1]}` : run.join(" "));
    start = i;
  }
  return out.join(" / ");
}

/**
 * The options of a single-choice question that no condition of the form
 * tells apart (each condition on it holds for all of them or for none): a
 * digit for one leads where a digit for another leads.
 */
export function twinRows(spec: FormSpec, q: number): number[][] {
  const question = spec.questions[q];
  const conditions = spec.questions.flatMap((other) =>
    other.visibility.kind === "when" ? other.visibility.conditions.filter((c) => c.field === question.id) : [],
  );
  const classes = new Map<string, number[]>();
  question.options.forEach((option, row) => {
    const sign = conditions.map((c) => (holds(c, [option.value]) ? 1 : 0)).join("");
    classes.set(sign, [...(classes.get(sign) ?? []), row]);
  });
  return [...classes.values()];
}

/**
 * The route search chooses one option of each kind; the digits of the
 * options it did not choose join the keys of a twin it did (from the same
 * screen), so every digit that selects a row is shown where it leads.
 */
export function addTwinDigits(spec: FormSpec, steps: ReviewStep[]): void {
  const twins = new Map<number, number[][]>();
  const chosen = new Map<number, Map<number, ReviewStep>>();
  for (const step of steps) {
    if (step.parent < 0 || step.raw?.type !== "SELECT" || step.refused) continue;
    const from = /^q(\d+)\.choosing$/.exec(steps[step.parent].state);
    const q = from ? Number(from[1]) - 1 : -1;
    if (q < 0 || spec.questions[q].kind === "multi") continue;
    const rows = chosen.get(step.parent) ?? chosen.set(step.parent, new Map()).get(step.parent)!;
    rows.set(step.raw.row, step);
    if (!twins.has(step.parent)) twins.set(step.parent, twinRows(spec, q));
  }
  for (const [parent, rows] of chosen)
    for (const group of twins.get(parent) ?? []) {
      const sent = group.find((row) => rows.has(row));
      if (sent === undefined) continue;
      const step = rows.get(sent)!;
      for (const row of group) if (!rows.has(row) && row < 9) addKeys(step.keys, [String(row + 1)]);
    }
}
