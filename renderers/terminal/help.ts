/**
 * The help line: the keys that work where the form stands, in the names of
 * the person's own bindings, wrapped between key groups (never inside one).
 */
import { visibleWidth } from "@earendil-works/pi-tui";
import { type QuestionSpec, singleLine, yesNoRow } from "../../machines/spec.js";
import { countHint } from "../../machines/text-rules.js";
import { fitTo, wrap } from "../text.js";

/** Display names of the keys bound to each action (the user's bindings inside Pi). */
export interface KeyHints {
  up: string;
  down: string;
  confirm: string;
  cancel: string;
  /** The key that opens the person's own editor on an open field (Pi's `app.editor.external`), when it has one. */
  external?: string;
  /** What the fold key does, when it does not fold: a form that can be put back names that. */
  fold?: string;
}

/** The external editor's group, in every editor. */
function externalGroup(hints: KeyHints): string[] {
  return hints.external ? [`${hints.external} your editor`] : [];
}

export const DEFAULT_HINTS: KeyHints = { up: "↑", down: "↓", confirm: "Enter", cancel: "Esc" };

type QuestionMode = "choosing" | "typing" | "noting";

/** The fold key (Alt+H, in keymap.ts) works in editors too; the lists and the review name it. */
function foldHint(hints: KeyHints): string {
  return `Alt+H ${hints.fold ?? "fold"}`;
}

/** Esc's group: once something was entered, Esc asks before it discards. */
function cancelGroup(hints: KeyHints, entered: boolean): string {
  return `${hints.cancel} cancel${entered ? " (asks first)" : ""}`;
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
      cancelGroup(hints, entered),
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
  parts.push(foldHint(hints), cancelGroup(hints, entered));
  return parts;
}

/** What the review screen offers besides its entries. */
export interface ReviewHelpOptions {
  additionalNotes: boolean;
  /** Something was entered: Esc asks first. */
  entered: boolean;
  declinable: boolean;
  /** Whether the form has questions (a form without is a confirmation: nothing to go to). */
  questions: boolean;
  /** The label of the entry under the cursor, or undefined when it is on the submit line. */
  onEntry?: string;
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
      ? `${hints.confirm} change ${onEntry}`
      : `${hints.confirm} ${questions ? "submit" : "confirm"}`;
  return [
    ...(questions ? [`${hints.up}${hints.down} move`] : []),
    enter,
    ...(questions ? ["1-9 go to question"] : []),
    ...(options.additionalNotes ? ["n additional notes"] : []),
    ...(options.declinable ? ["d decline"] : []),
    ...(questions ? ["Tab/←→ questions"] : []),
    foldHint(hints),
    cancelGroup(hints, options.entered),
  ];
}

/** While Esc asks whether to discard what was entered. */
export function discardHelp(hints: KeyHints): string[] {
  return [`${hints.cancel} or ${hints.confirm} discard`, "any other key: back to the form"];
}

/** Key groups joined with " • ", a new line started between groups rather than inside one. */
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
