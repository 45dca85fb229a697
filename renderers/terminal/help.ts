/** The help line: the keys that work where the form stands, in the names of the person's own bindings. */
import { visibleWidth } from "@earendil-works/pi-tui";
import { type QuestionSpec, singleLine, yesNoRow } from "../../machines/spec.js";
import { countHint } from "../../machines/text-rules.js";
import { fitTo, wrap } from "../text.js";

export interface KeyHints {
  up: string;
  down: string;
  confirm: string;
  cancel: string;
  /** Pi's `app.editor.external`, when bound. */
  external?: string;
  /** What the fold key does when it does not fold ("put back"). */
  fold?: string;
  /** What Esc does when it closes the form, when that is not cancelling ("put back"): it then never asks first. */
  cancelAs?: string;
  /** The key that declines a question asked without waiting. */
  refuse?: string;
  /** The link that answers the form in a browser tab (the `web` setting). */
  web?: string;
}

function webGroup(hints: KeyHints): string[] {
  return hints.web ? [`or answer in a browser: ${hints.web}`] : [];
}

function externalGroup(hints: KeyHints): string[] {
  return hints.external ? [`${hints.external} your editor`] : [];
}

export const DEFAULT_HINTS: KeyHints = { up: "↑", down: "↓", confirm: "Enter", cancel: "Esc" };

type QuestionMode = "choosing" | "typing" | "noting";

function foldHint(hints: KeyHints): string {
  return `Alt+H ${hints.fold ?? "fold"}`;
}

function cancelGroup(hints: KeyHints, entered: boolean): string[] {
  if (hints.cancelAs)
    return [`${hints.cancel} ${hints.cancelAs}`, ...(hints.refuse ? [`${hints.refuse} decline`] : [])];
  return [`${hints.cancel} cancel${entered ? " (asks first)" : ""}`];
}

export function questionHelp(
  q: QuestionSpec,
  mode: QuestionMode,
  tabbed: boolean,
  hints: KeyHints,
  entered = false,
): string[] {
  const newLine = singleLine(q) ? [] : ["Shift+Enter new line"];
  if (q.kind === "text") {
    return [
      `${hints.confirm} ${tabbed ? "save" : "submit"}`,
      ...newLine,
      ...externalGroup(hints),
      ...(tabbed ? ["Tab/Shift+Tab questions"] : []),
      ...cancelGroup(hints, entered),
      ...webGroup(hints),
    ];
  }
  if (mode === "noting")
    return [`${hints.confirm} or ${hints.cancel} close the note (it is kept)`, ...newLine, ...externalGroup(hints)];
  if (mode === "typing")
    return [`${hints.confirm} save`, ...newLine, ...externalGroup(hints), `${hints.cancel} back to the options`];
  const parts = [`${hints.up}${hints.down} move`];
  if (q.kind === "multi") {
    parts.push("Space/1-9 toggle", "a all/none", "i invert", `${hints.confirm} confirm${countHint(q)}`);
  } else {
    parts.push("1-9 choose", ...(yesNoRow(q, "y") !== undefined ? ["y/n yes/no"] : []), `${hints.confirm} select`);
  }
  if (q.notes) parts.push("n note");
  if (tabbed) parts.push("Tab/←→ questions");
  parts.push(foldHint(hints), ...cancelGroup(hints, entered), ...webGroup(hints));
  return parts;
}

export interface ReviewHelpOptions {
  additionalNotes: boolean;
  entered: boolean;
  declinable: boolean;
  questions: boolean;
  /** The label under the cursor; undefined on the submit line. */
  onEntry?: string;
  /** A required question is open: Enter on the submit line submits nothing. */
  blocked?: boolean;
}

export function reviewHelp(mode: "reviewing" | "writing", hints: KeyHints, options: ReviewHelpOptions): string[] {
  if (mode === "writing")
    return [
      `${hints.confirm} or ${hints.cancel} close the notes (they are kept)`,
      "Shift+Enter new line",
      ...externalGroup(hints),
    ];
  const { questions, onEntry } = options;
  // A form without questions is a confirmation: no question to go to.
  const enter =
    onEntry !== undefined
      ? [`${hints.confirm} change ${onEntry}`]
      : options.blocked
        ? []
        : [`${hints.confirm} ${questions ? "submit" : "confirm"}`];
  return [
    ...(questions ? [`${hints.up}${hints.down} move`] : []),
    ...enter,
    ...(questions ? ["1-9 go to question"] : []),
    ...(options.additionalNotes ? ["n additional notes"] : []),
    // The refuse key of a waiting form is the same decline: one group names both.
    ...(options.declinable ? [`d${hints.refuse ? `/${hints.refuse}` : ""} decline`] : []),
    ...(questions ? ["Tab/←→ questions"] : []),
    foldHint(hints),
    ...cancelGroup(options.declinable ? { ...hints, refuse: undefined } : hints, options.entered),
    ...webGroup(hints),
  ];
}

export function discardHelp(hints: KeyHints): string[] {
  return [`${hints.cancel} or ${hints.confirm} discard`, "any other key: back to the form"];
}

/** Key groups joined with " • ", wrapped between groups, never inside one. */
export function helpLines(groups: string[], width: number): string[] {
  const lines: string[] = [];
  let line = "";
  for (const group of groups) {
    const next = line ? `${line} • ${group}` : ` ${group}`;
    if (!line || visibleWidth(next) <= width) {
      line = next;
      continue;
    }
    lines.push(line);
    line = ` ${group}`;
  }
  if (line) lines.push(line);
  // A group wider than the screen still has to fit: wrap it on its own.
  return lines
    .flatMap((l) => (visibleWidth(l) <= width ? [l] : wrap(l.trimStart(), width, " ")))
    .map((l) => fitTo(l, width));
}
