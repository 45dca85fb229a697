/**
 * The form as lines of text: a pure function of the machine's snapshot.
 *
 * Contract: every line fits `width` (CJK and emoji included); prompts, labels
 * and descriptions wrap instead of being cut; a form taller than `height`
 * shows a window around the highlighted row with "↑ n more" / "↓ n more"
 * markers; every model-supplied string passes through `sanitize`.
 */
import { visibleWidth } from "@mariozechner/pi-tui";
import { canSubmit, type FormContext, formPosition, isVisible } from "../machines/form.js";
import { rowAt, rowCount } from "../machines/rows.js";
import {
  type FormSpec,
  isScaleOption,
  isTabbed,
  OTHER_LABEL,
  optionText,
  type QuestionSpec,
} from "../machines/spec.js";
import { textProblems } from "../machines/text-rules.js";
import { fit, sanitize, sanitizeLine, wrap } from "./text.js";
import type { FormTheme } from "./theme.js";

/** Display names of the keys bound to each action (the user's bindings inside Pi). */
export interface KeyHints {
  up: string;
  down: string;
  confirm: string;
  cancel: string;
}

export const DEFAULT_HINTS: KeyHints = { up: "↑", down: "↓", confirm: "Enter", cancel: "Esc" };

export interface ViewInput {
  spec: FormSpec;
  snapshot: { value: unknown; context: FormContext };
  theme: FormTheme;
  width: number;
  height: number;
  /** Renders the open editor (a typed answer, a note, additional notes) at a given width. */
  editor?: EditorRender;
  /** Milliseconds left while the form waits before it is shown. */
  remainingMs?: number;
  /** A line shown at the top (for example that a draft was restored). */
  notice?: string;
  hints?: KeyHints;
}

export type EditorRender = (width: number) => string[];

const EDITOR_MIN_WIDTH = 8;

/** The editor's lines placed after `indent`, each fitting the width. */
function editorBlock(editor: EditorRender | undefined, indent: string, width: number): string[] {
  if (!editor) return [];
  // pi-tui's editor cannot lay out a wide character in fewer than two columns:
  // give it at least EDITOR_MIN_WIDTH and cut its lines to what is really there.
  const room = Math.max(EDITOR_MIN_WIDTH, width - visibleWidth(indent));
  return editor(room).map((l) => fit(`${indent}${l}`, width));
}

interface Body {
  lines: string[];
  /** First and last line (inclusive) that must stay on screen. */
  focus: [number, number];
}

export function view(input: ViewInput): string[] {
  const width = Math.max(1, Math.floor(input.width));
  const height = Math.max(1, Math.floor(input.height));
  const { spec, theme } = input;
  const hints = input.hints ?? DEFAULT_HINTS;
  const position = formPosition(input.snapshot.value);
  const context = input.snapshot.context;

  const header: string[] = [];
  if (spec.title) header.push(...wrap(sanitize(spec.title), width, " ").map((l) => theme.bold(theme.fg("accent", l))));
  if (spec.description) header.push(...wrap(sanitize(spec.description), width, " ").map((l) => theme.fg("muted", l)));
  if (input.notice) header.push(...wrap(input.notice, width, " ").map((l) => theme.fg("success", l)));
  if (isTabbed(spec) && position.kind !== "waiting") {
    header.push(...tabBar(spec, context, position.kind === "review" ? -1 : currentQuestion(position), theme, width));
  }

  let body: Body;
  let help: string;
  if (position.kind === "question") {
    body = questionBody(
      spec.questions[position.q],
      position.q,
      context,
      position.mode,
      input.editor,
      theme,
      width,
      height,
    );
    help = helpFor(spec.questions[position.q], position.mode, isTabbed(spec), hints);
  } else if (position.kind === "waiting") {
    const seconds = Math.max(0, Math.ceil((input.remainingMs ?? 0) / 1000));
    const lines = wrap(`A question is coming in ${seconds}s (questions are spaced out by a cooldown).`, width, " ");
    body = { lines: lines.map((l) => theme.fg("muted", l)), focus: [0, 0] };
    help = `${hints.cancel} cancel`;
  } else if (position.kind === "review") {
    body = reviewBody(spec, context, position.mode, input.editor, theme, width);
    help = reviewHelp(spec, position.mode, hints);
  } else {
    const done = position.kind === "done" && position.outcome === "submitted" ? " Submitted." : " Cancelled.";
    body = { lines: [theme.fg("muted", fit(done, width))], focus: [0, 0] };
    help = "";
  }
  const footer = help ? wrap(help, width, " ").map((l) => theme.fg("dim", l)) : [];
  return frame(header, body, footer, theme, width, height);
}

function currentQuestion(position: ReturnType<typeof formPosition>): number {
  return position.kind === "question" ? position.q : -1;
}

/** Borders, spacing and the scrolling window. */
function frame(
  header: string[],
  body: Body,
  footer: string[],
  theme: FormTheme,
  width: number,
  height: number,
): string[] {
  const border = theme.fg("accent", "─".repeat(width));
  const roomy = [border, ...header, ...(header.length ? [""] : [])];
  const tail = ["", ...footer, border];
  if (roomy.length + body.lines.length + tail.length <= height) return [...roomy, ...body.lines, ...tail];

  // Too tall: keep the chrome if at least three body lines still fit, else drop it.
  let top = roomy;
  let bottom = tail;
  if (height - top.length - bottom.length < 3) {
    top = header;
    bottom = footer;
  }
  if (height - top.length - bottom.length < 3) {
    top = [];
    bottom = [];
  }
  const room = Math.max(1, height - top.length - bottom.length);
  return [...top, ...scrollWindow(body, room, theme, width), ...bottom].slice(0, height);
}

function scrollWindow(body: Body, room: number, theme: FormTheme, width: number): string[] {
  const total = body.lines.length;
  if (total <= room) return body.lines;
  const [focusStart, focusEnd] = body.focus;
  // Reserve lines for the markers, then place the focus about a third of the way down.
  const inner = Math.max(1, room - 2);
  let start = Math.max(0, focusStart - Math.floor(inner / 3));
  if (focusEnd >= start + inner) start = Math.max(0, focusEnd - inner + 1);
  start = Math.min(start, Math.max(0, total - inner));
  const end = Math.min(total, start + inner);
  const out: string[] = [];
  if (room >= 3) out.push(theme.fg("dim", fit(start > 0 ? `  ↑ ${start} more` : "", width)));
  out.push(...body.lines.slice(start, end));
  if (room >= 3) out.push(theme.fg("dim", fit(end < total ? `  ↓ ${total - end} more` : "", width)));
  return out.slice(0, room);
}

function tabBar(spec: FormSpec, context: FormContext, active: number, theme: FormTheme, width: number): string[] {
  const shown = spec.questions.map((_, i) => i).filter((i) => isVisible(spec, context, i));
  const answeredCount = shown.filter((i) => context.answered[i]).length;
  const items = shown.map((i) => {
    const done = context.answered[i];
    const text = ` ${done ? "■" : "□"} ${sanitizeLine(spec.questions[i].label)} `;
    return {
      text,
      styled:
        i === active ? theme.bg("selectedBg", theme.fg("text", text)) : theme.fg(done ? "success" : "muted", text),
    };
  });
  const submitText = " ✓ Submit ";
  const submittable = canSubmit(spec, context);
  items.push({
    text: submitText,
    styled:
      active === -1
        ? theme.bg("selectedBg", theme.fg("text", submitText))
        : theme.fg(submittable ? "success" : "dim", submitText),
  });
  const counter = ` ${answeredCount}/${shown.length}`;
  const progress = { text: counter, styled: theme.fg("dim", counter) };
  items.push(progress);

  // Lay the tabs out left to right, wrapping to a new line when one does not fit.
  const lines: string[] = [];
  let line = "";
  let used = 0;
  for (const item of items) {
    const w = visibleWidth(item.text);
    if (used > 0 && used + w > width) {
      lines.push(line);
      line = "";
      used = 0;
    }
    line += w > width ? fit(item.styled, width) : item.styled;
    used += Math.min(w, width);
  }
  if (line) lines.push(line);
  return lines;
}

type QuestionMode = "choosing" | "typing" | "noting";

/** A labelled block of model-written text: `Context: …`, wrapped under its label. */
function block(
  label: string,
  text: string | undefined,
  color: "muted" | "accent" | "warning" | "success" | "dim" | "text",
  theme: FormTheme,
  width: number,
  indent = " ",
): string[] {
  if (!text) return [];
  return wrap(`${label}${sanitize(text)}`, width, indent, `${indent}  `).map((l) => theme.fg(color, l));
}

function questionBody(
  q: QuestionSpec,
  k: number,
  context: FormContext,
  mode: QuestionMode,
  editor: EditorRender | undefined,
  theme: FormTheme,
  width: number,
  height: number,
): Body {
  const picks = context.picks[k];
  const answered = context.answered[k];
  const cursor = context.cursors[k];
  const lines = wrap(sanitize(q.prompt), width, " ").map((l) => theme.bold(theme.fg("text", l)));
  lines.push(
    ...block("", q.body, "text", theme, width),
    ...block("Context: ", q.context, "muted", theme, width),
    ...block("★ Recommendation: ", q.recommendation, "success", theme, width),
    ...block("⚠ Caveats: ", q.caveats, "warning", theme, width),
  );
  lines.push("");
  if (q.kind === "text") return textBody(q, context.drafts[k], editor, lines, theme, width);
  let focus: [number, number] = [0, 0];
  const count = rowCount(q, picks);
  // Lay out only the rows that can reach the screen: a list of 10,000 options
  // costs what a screenful costs.
  const span = Math.max(20, height);
  const first = count > 3 * span ? Math.max(0, Math.min(cursor - span, count - 2 * span)) : 0;
  const last = count > 3 * span ? Math.min(count, first + 2 * span) : count;
  if (first > 0) lines.push(theme.fg("dim", fit(`  … ${first} more above`, width)));
  for (let r = first; r < last; r++) {
    const row = rowAt(q, picks, r)!;
    const highlighted = r === cursor;
    const pointer = highlighted ? "› " : "  ";
    const num = `${r + 1}. `;
    let box = "";
    let label: string;
    let chosen: boolean;
    // A rating's option is its number: show "4. Very good" rather than "4. 4" over "Very good".
    const scale = row.kind === "option" && isScaleOption(q, row.index);
    if (row.kind === "option") {
      const option = q.options[row.index];
      label = sanitizeLine(scale ? option.description! : option.label) + (option.recommended ? "  ★ recommended" : "");
      chosen = picks.options.includes(row.index);
      if (q.kind === "multi") box = chosen ? "[x] " : "[ ] ";
    } else if (row.kind === "chip") {
      label = `✎ ${sanitizeLine(picks.custom[row.index])}`;
      chosen = true;
      box = "[x] ";
    } else {
      const typed = q.kind === "single" ? picks.custom[0] : undefined;
      label = typed !== undefined ? `✎ ${sanitizeLine(typed)}` : OTHER_LABEL;
      chosen = typed !== undefined;
      if (q.kind === "multi") box = "    ";
    }
    const mark = q.kind === "single" && chosen && answered ? " ✓" : "";
    const prefix = pointer + box + num;
    const indent = " ".repeat(Math.min(visibleWidth(prefix), Math.max(0, width - 1)));
    const color = highlighted ? "accent" : chosen ? "success" : "text";
    const start = lines.length;
    for (const l of wrap(label + mark, width, prefix, indent)) lines.push(theme.fg(color, l));
    if (row.kind === "option") {
      const option = q.options[row.index];
      if (!scale && option.description)
        lines.push(...wrap(sanitize(option.description), width, indent).map((l) => theme.fg("muted", l)));
      if (option.details) lines.push(...wrap(sanitize(option.details), width, indent).map((l) => theme.fg("dim", l)));
      // The author's note and the person's own note look different on purpose.
      if (option.note)
        lines.push(
          ...wrap(`ⓘ From the author: ${sanitize(option.note)}`, width, indent, `${indent}  `).map((l) =>
            theme.fg("dim", l),
          ),
        );
      const own = context.notes[k]?.[row.index];
      if (highlighted && mode === "noting") {
        lines.push(theme.fg("accent", fit(`${indent}✎ Your note:`, width)));
        lines.push(...editorBlock(editor, indent, width));
      } else if (own && own.trim()) {
        lines.push(
          ...wrap(`✎ Your note: ${sanitize(own.trim())}`, width, indent, `${indent}  `).map((l) =>
            theme.fg("accent", l),
          ),
        );
      }
    }
    if (row.kind === "other" && mode === "typing") lines.push(...editorBlock(editor, indent, width));
    if (highlighted) focus = [start, lines.length - 1];
  }
  if (last < count) lines.push(theme.fg("dim", fit(`  … ${count - last} more below`, width)));
  return { lines, focus };
}

/** A typed-answer question: the editor, a placeholder hint, and the checks that fail right now. */
function textBody(
  q: QuestionSpec,
  draft: string,
  editor: EditorRender | undefined,
  lines: string[],
  theme: FormTheme,
  width: number,
): Body {
  const start = lines.length;
  lines.push(...editorBlock(editor, " ", width));
  if (draft === "" && q.placeholder)
    lines.push(...wrap(sanitize(q.placeholder), width, " ").map((l) => theme.fg("dim", l)));
  const problems = draft === "" ? [] : textProblems(q.text!, draft);
  for (const problem of problems) lines.push(...wrap(problem, width, " ✗ ", "   ").map((l) => theme.fg("error", l)));
  if (draft !== "" && problems.length === 0) lines.push(theme.fg("success", fit(" ✓ Looks good.", width)));
  return { lines, focus: [start, lines.length - 1] };
}

function answerSummary(q: QuestionSpec, context: FormContext, k: number): string {
  const picks = context.picks[k];
  const parts = picks.options.map((i) => sanitizeLine(isScaleOption(q, i) ? optionText(q, i) : q.options[i].label));
  for (const c of picks.custom) parts.push(`✎ ${sanitizeLine(c)}`);
  const notes = Object.values(context.notes[k] ?? {}).filter((n) => n.trim()).length;
  if (notes) parts.push(`(${notes} note${notes === 1 ? "" : "s"})`);
  return parts.join(", ");
}

function reviewBody(
  spec: FormSpec,
  context: FormContext,
  mode: "reviewing" | "writing",
  editor: EditorRender | undefined,
  theme: FormTheme,
  width: number,
): Body {
  const lines = [theme.bold(theme.fg("accent", fit(" Review your answers", width))), ""];
  const missing: string[] = [];
  spec.questions.forEach((q, k) => {
    if (!isVisible(spec, context, k)) return;
    const label = sanitizeLine(q.label);
    const prefix = ` ${k + 1}. ${label}: `;
    const indent = "    ";
    if (context.answered[k]) {
      const summary = answerSummary(q, context, k) || "(no choice)";
      for (const l of wrap(summary, width, prefix, indent)) lines.push(theme.fg("text", l));
    } else {
      if (q.required) missing.push(label);
      const note = q.required ? "(unanswered)" : "(skipped, optional)";
      for (const l of wrap(note, width, prefix, indent)) lines.push(theme.fg(q.required ? "warning" : "muted", l));
    }
  });
  lines.push("");
  let focusStart = lines.length;
  if (spec.additionalNotes) {
    if (mode === "writing") {
      focusStart = lines.length;
      lines.push(theme.fg("accent", fit(" Additional notes:", width)));
      lines.push(...editorBlock(editor, " ", width));
      return { lines, focus: [focusStart, lines.length - 1] };
    }
    const notes = context.additionalText.trim();
    lines.push(
      ...(notes
        ? block("Additional notes: ", notes, "text", theme, width)
        : [theme.fg("muted", fit(" Additional notes: none (n to add)", width))]),
      "",
    );
  }
  focusStart = lines.length;
  const status = missing.length
    ? wrap(`Unanswered: ${missing.join(", ")}. Answer them to submit.`, width, " ").map((l) => theme.fg("warning", l))
    : wrap("Ready. Press Enter to submit.", width, " ").map((l) => theme.fg("success", l));
  lines.push(...status);
  return { lines, focus: [focusStart, lines.length - 1] };
}

function helpFor(q: QuestionSpec, mode: QuestionMode, tabbed: boolean, hints: KeyHints): string {
  if (q.kind === "text") {
    return [
      `${hints.confirm} ${tabbed ? "save" : "submit"}`,
      "Shift+Enter new line",
      ...(tabbed ? ["Tab/Shift+Tab questions"] : []),
      `${hints.cancel} cancel`,
    ].join(" • ");
  }
  if (mode === "noting")
    return `${hints.confirm} or ${hints.cancel} close the note (it is kept) • Shift+Enter new line`;
  if (mode === "typing") return `${hints.confirm} save • Shift+Enter new line • ${hints.cancel} back to the options`;
  const parts = [`${hints.up}${hints.down} move`];
  if (q.kind === "multi") {
    parts.push("Space toggle", `${hints.confirm} confirm${q.required ? " (at least one)" : ""}`);
  } else {
    parts.push("1-9 choose", `${hints.confirm} select`);
  }
  if (q.notes) parts.push("n note");
  if (tabbed) parts.push("Tab/←→ questions");
  parts.push(`${hints.cancel} cancel`);
  return parts.join(" • ");
}

function reviewHelp(spec: FormSpec, mode: "reviewing" | "writing", hints: KeyHints): string {
  if (mode === "writing")
    return `${hints.confirm} or ${hints.cancel} close the notes (they are kept) • Shift+Enter new line`;
  return [
    `${hints.confirm} submit`,
    "1-9 go to question",
    ...(spec.additionalNotes ? ["n additional notes"] : []),
    "Tab/←→ questions",
    `${hints.cancel} cancel`,
  ].join(" • ");
}
