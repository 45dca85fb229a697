/**
 * The form as lines of text: a pure function of the machine's snapshot.
 *
 * Contract: every line fits `width` (CJK and emoji included); prompts, labels
 * and descriptions wrap instead of being cut, and long values (a pasted page)
 * are shown cut to a few lines, ending in "…"; a form taller than `height`
 * keeps its header and question in view and scrolls the list a row at a time
 * (frame.ts); every model- or person-written string is sanitized
 * (presentation.ts). Beside the lines, the view says which screen positions
 * are which targets (an option row, a tab, Submit, a review entry).
 */
import { visibleWidth } from "@earendil-works/pi-tui";
import { canSubmit, type FormContext, shownQuestions } from "../../machines/context.js";
import { hasInput } from "../../machines/entered.js";
import { discarding, type FormSnapshot, formPosition } from "../../machines/position.js";
import { rowCount } from "../../machines/rows.js";
import { type FormSpec, isTabbed, type QuestionSpec } from "../../machines/spec.js";
import { numberReading, textProblems } from "../../machines/text-rules.js";
import { displayLine, displayText, fitTo, sanitize, wrap, wrapClipped } from "../text.js";
import type { FormColor, FormTheme } from "../theme.js";
import { type Block, frame, type Hit, type Layout, type Screen } from "./frame.js";
import { DEFAULT_HINTS, discardHelp, helpLines, type KeyHints, questionHelp, reviewHelp } from "./help.js";
import { FOLD_KEY, keyName } from "./keymap.js";
import { discardQuestion, hasPreviews, questionRows, type RowModel, reviewEntries, rowText } from "./presentation.js";
import { previewLines } from "./preview.js";

export type { Hit, Screen, Target } from "./frame.js";
export type { KeyHints } from "./help.js";
export { DEFAULT_HINTS } from "./help.js";

export interface ViewInput {
  spec: FormSpec;
  snapshot: FormSnapshot;
  theme: FormTheme;
  width: number;
  height: number;
  /** Renders the open editor (a typed answer, a note, additional notes) at a given width. */
  editor?: EditorRender;
  /** Milliseconds left while the form waits before it is shown. */
  remainingMs?: number;
  /** Milliseconds left on the answer clock (a form with a timeout, until a key stops it). */
  timeoutMs?: number;
  /** A line shown at the top (for example that a draft was restored). */
  notice?: string;
  /** Why the last key did nothing (shown until the next key). */
  message?: string;
  hints?: KeyHints;
}

export type EditorRender = (width: number) => string[];

/** Lines a label, a note or an answer summary may take before it is cut. */
const VALUE_LINES = 10;
const EDITOR_MIN_WIDTH = 8;
/** From this width on, the highlighted option's preview is drawn beside the list; narrower, under the option. */
export const PREVIEW_BESIDE_WIDTH = 100;
/** Lines a preview may take under its option. */
const PREVIEW_LINES = 12;
/** Between the list and the preview beside it. */
const SIDE_GAP = 3;

export function view(input: ViewInput): string[] {
  return screen(input).lines;
}

export function screen(input: ViewInput): Screen {
  const width = Math.max(1, Math.floor(input.width));
  const height = Math.max(1, Math.floor(input.height));
  if (formPosition(input.snapshot).kind === "folded") return { lines: [foldedLine(input, width)], hits: [] };
  return frame(layout(input, width, height), input.theme, width, height);
}

const EMPTY_LAYOUT: Layout = {
  header: [],
  headerHits: [],
  status: [],
  above: 0,
  below: 0,
  focus: 0,
  pinned: [],
  blocks: [],
  footer: [],
};

/** A folded form: one line, so the transcript above it can be read; the form is kept as it was. */
function foldedLine(input: ViewInput, width: number): string {
  const { spec, theme } = input;
  const context = input.snapshot.context;
  const shown = shownQuestions(spec, context);
  const answered = shown.filter((i) => context.answered[i]).length;
  const what = displayLine(spec.title ?? spec.questions[0]?.prompt ?? "Form", 200);
  // The key comes first: a long title is cut at the width, the way back never is.
  const line = `▸ ${keyName(FOLD_KEY)} opens the form again · ${answered}/${shown.length} answered · ${what}`;
  return theme.fg("accent", fitTo(line, width));
}

function layout(input: ViewInput, width: number, height: number): Layout {
  const { spec, theme } = input;
  const hints = input.hints ?? DEFAULT_HINTS;
  const position = formPosition(input.snapshot);
  // A folded form is one line (`foldedLine`), laid out by no frame.
  if (position.kind === "folded") return { ...EMPTY_LAYOUT, pinned: [foldedLine(input, width)] };
  const context = input.snapshot.context;
  const tabbed = isTabbed(spec);

  const header: string[] = [];
  const headerHits: Hit[] = [];
  if (spec.title)
    header.push(...wrapClipped(sanitize(spec.title), width, 3, " ").map((l) => theme.bold(theme.fg("accent", l))));
  if (spec.description)
    header.push(...wrapClipped(sanitize(spec.description), width, 3, " ").map((l) => theme.fg("muted", l)));
  if (input.notice) header.push(...wrap(input.notice, width, " ").map((l) => theme.fg("success", l)));
  if (tabbed && spec.questions.length > 0 && position.kind !== "waiting" && position.kind !== "done") {
    const active = position.kind === "review" ? -1 : position.q;
    const bar = tabBar(spec, context, active, theme, width);
    headerHits.push(...bar.hits.map((h) => ({ ...h, line: h.line + header.length })));
    header.push(...bar.lines);
  }
  const asking = discarding(position);
  const message = asking ? discardQuestion(spec, context) : input.message;
  const status = message ? wrap(message, width, " ").map((l) => theme.fg("warning", l)) : [];
  if (input.timeoutMs !== undefined && position.kind !== "waiting" && position.kind !== "done")
    status.push(...wrap(timeoutLine(spec, input.timeoutMs), width, " ").map((l) => theme.fg("warning", l)));
  const base = { header, headerHits, status, above: 0, below: 0, focus: 0 };
  const discardFooter = () => footerOf(discardHelp(hints), theme, width);

  if (position.kind === "question") {
    const q = spec.questions[position.q];
    // While Esc asks whether to discard, the question stays as it was, the editor closed.
    const mode = position.mode === "discarding" ? "choosing" : position.mode;
    const footer = asking
      ? discardFooter()
      : footerOf(questionHelp(q, mode, tabbed, hints, hasInput(spec, context)), theme, width);
    const pinned = questionHead(q, theme, width);
    if (q.kind === "text") {
      return { ...base, pinned, footer, ...textBlocks(q, context.drafts[position.q], input.editor, theme, width) };
    }
    if (hasPreviews(q) && width >= PREVIEW_BESIDE_WIDTH) {
      // The list takes the left part, the highlighted option's preview the rest.
      const listWidth = Math.min(60, Math.floor((width - SIDE_GAP) * 0.45));
      const rows = rowBlocks(q, position.q, context, mode, input.editor, theme, listWidth, height, false);
      const preview = rows.highlighted?.preview;
      const lines = preview ? previewLines(preview, width - listWidth - SIDE_GAP, 2 * PREVIEW_LINES, theme) : [];
      return { ...base, pinned, footer, ...rows, side: { lines, listWidth } };
    }
    return {
      ...base,
      pinned,
      footer,
      ...rowBlocks(q, position.q, context, mode, input.editor, theme, width, height, true),
    };
  }
  if (position.kind === "review") {
    const mode = position.mode === "discarding" ? "reviewing" : position.mode;
    const footer = asking
      ? discardFooter()
      : footerOf(
          reviewHelp(
            spec.additionalNotes === true,
            mode,
            hints,
            hasInput(spec, context),
            spec.declinable === true,
            spec.questions.length > 0,
          ),
          theme,
          width,
        );
    return { ...base, footer, ...reviewBlocks(spec, context, mode, input.editor, theme, width) };
  }
  if (position.kind === "waiting") {
    const seconds = Math.max(0, Math.ceil((input.remainingMs ?? 0) / 1000));
    const lines = wrap(`A question is coming in ${seconds}s (questions are spaced out by a cooldown).`, width, " ");
    return {
      ...base,
      pinned: lines.map((l) => theme.fg("muted", l)),
      blocks: [],
      footer: footerOf([`${hints.cancel} cancel`], theme, width),
    };
  }
  const done = {
    submitted: " Submitted.",
    cancelled: " Cancelled.",
    declined: " Declined.",
    timed_out: " Timed out.",
  }[position.outcome];
  return { ...base, pinned: [theme.fg("muted", fitTo(done, width))], blocks: [], footer: [] };
}

/** The answer clock: how long is left, what happens then, and that any key stops it. */
function timeoutLine(spec: FormSpec, ms: number): string {
  const seconds = Math.max(0, Math.ceil(ms / 1000));
  const recommended = spec.questions.some((q) => q.options.some((o) => o.recommended));
  const then = recommended ? " with the recommended answers" : "";
  return `◷ Closes in ${seconds}s${then}; press any key to take your time.`;
}

function footerOf(groups: string[], theme: FormTheme, width: number): string[] {
  return helpLines(groups, width).map((l) => theme.fg("dim", l));
}

function tabBar(spec: FormSpec, context: FormContext, active: number, theme: FormTheme, width: number) {
  const shown = shownQuestions(spec, context);
  const answeredCount = shown.filter((i) => context.answered[i]).length;
  const items = shown.map((i) => {
    const done = context.answered[i];
    const text = ` ${done ? "■" : "□"} ${displayText(spec.questions[i].label, 200).replace(/\s+/g, " ")} `;
    const styled =
      i === active ? theme.bg("selectedBg", theme.fg("text", text)) : theme.fg(done ? "success" : "muted", text);
    return { text, styled, target: { kind: "tab" as const, q: i } };
  });
  // Ticked like an answered question once the form can be submitted, and not before.
  const ready = canSubmit(spec, context);
  const submitText = ready ? " ✓ Submit " : " □ Submit ";
  const submitColor: FormColor = ready ? "success" : "dim";
  items.push({
    text: submitText,
    styled: active === -1 ? theme.bg("selectedBg", theme.fg("text", submitText)) : theme.fg(submitColor, submitText),
    target: { kind: "submit" } as never,
  });
  const counter = ` ${answeredCount}/${shown.length}`;
  items.push({ text: counter, styled: theme.fg("dim", counter), target: undefined as never });

  // Lay the tabs out left to right, wrapping to a new line when one does not fit.
  const lines: string[] = [];
  const hits: Hit[] = [];
  let line = "";
  let used = 0;
  for (const item of items) {
    const w = visibleWidth(item.text);
    if (used > 0 && used + w > width) {
      lines.push(line);
      line = "";
      used = 0;
    }
    line += w > width ? fitTo(item.styled, width) : item.styled;
    if (item.target) hits.push({ line: lines.length, from: used, to: used + Math.min(w, width), target: item.target });
    used += Math.min(w, width);
  }
  if (line) lines.push(line);
  return { lines, hits };
}

/** A labelled block of model-written text: `Context: …`, wrapped under its label. */
function labelled(
  label: string,
  text: string | undefined,
  color: FormColor,
  theme: FormTheme,
  width: number,
): string[] {
  if (!text) return [];
  return wrap(`${label}${sanitize(text)}`, width, " ", "   ").map((l) => theme.fg(color, l));
}

/** The question and what the author wrote around it: the part of the screen that stays put. */
function questionHead(q: QuestionSpec, theme: FormTheme, width: number): string[] {
  return [
    ...wrap(sanitize(q.prompt), width, " ").map((l) => theme.bold(theme.fg("text", l))),
    ...labelled("", q.body, "text", theme, width),
    ...labelled("Context: ", q.context, "muted", theme, width),
    ...labelled("★ Recommendation: ", q.recommendation, "success", theme, width),
    ...labelled("⚠ Caveats: ", q.caveats, "warning", theme, width),
    "",
  ];
}

/** The editor's lines placed after `indent`, each fitting the width. */
function editorLines(editor: EditorRender | undefined, indent: string, width: number): string[] {
  if (!editor) return [];
  // pi-tui's editor cannot lay out a wide character in fewer than two columns:
  // give it at least EDITOR_MIN_WIDTH and cut its lines to what is really there.
  const room = Math.max(EDITOR_MIN_WIDTH, width - visibleWidth(indent));
  return editor(room).map((l) => fitTo(`${indent}${l}`, width));
}

type QuestionMode = "choosing" | "typing" | "noting";

/** One block per row of the list; only the rows near the cursor are laid out when the list is very long. */
function rowBlocks(
  q: QuestionSpec,
  k: number,
  context: FormContext,
  mode: QuestionMode,
  editor: EditorRender | undefined,
  theme: FormTheme,
  width: number,
  height: number,
  previewUnder: boolean,
): Pick<Layout, "blocks" | "focus" | "above" | "below"> & { highlighted?: RowModel } {
  const count = rowCount(q, context.typed[k]);
  const cursor = context.cursors[k];
  // A list of 10,000 options costs what a screenful costs.
  const span = Math.max(20, height);
  const first = count > 3 * span ? Math.max(0, Math.min(cursor - span, count - 2 * span)) : 0;
  const last = count > 3 * span ? Math.min(count, first + 2 * span) : count;
  const rows = questionRows(q, k, context, first, last);
  const blocks = rows.map((row) => reusedRowBlock(q, row, mode, editor, theme, width, previewUnder));
  const highlighted = rows.find((row) => row.highlighted);
  return { blocks, focus: cursor - first, above: first, below: count - last, highlighted };
}

type DrawnRow = { row: RowModel; theme: FormTheme; width: number; previewUnder: boolean; block: Block };
/** The last block drawn for each row of a question. */
const drawnRows = new WeakMap<QuestionSpec, Map<number, DrawnRow>>();
/** The same fields with the same values (strings come from the spec and the memoized sanitizers, so mostly the same objects). */
function sameRow(a: RowModel, b: RowModel): boolean {
  let fields = 0;
  for (const key in a) {
    if (a[key as keyof RowModel] !== b[key as keyof RowModel]) return false;
    fields++;
  }
  for (const _ in b) fields--;
  return fields === 0;
}

/**
 * A row's block, drawn again only when something it shows changed: a key
 * changes one or two rows of a list, and the others need no new strings (nor
 * the garbage collections those would cost). A row holding an open editor
 * is always drawn.
 */
function reusedRowBlock(
  q: QuestionSpec,
  row: RowModel,
  mode: QuestionMode,
  editor: EditorRender | undefined,
  theme: FormTheme,
  width: number,
  previewUnder: boolean,
): Block {
  if (row.highlighted && mode !== "choosing") return rowBlock(row, mode, editor, theme, width, previewUnder);
  let drawn = drawnRows.get(q);
  if (!drawn) {
    drawn = new Map();
    drawnRows.set(q, drawn);
  }
  const last = drawn.get(row.row);
  if (
    last &&
    last.theme === theme &&
    last.width === width &&
    last.previewUnder === previewUnder &&
    sameRow(last.row, row)
  )
    return last.block;
  const block = rowBlock(row, mode, editor, theme, width, previewUnder);
  drawn.set(row.row, { row, theme, width, previewUnder, block });
  return block;
}

function rowBlock(
  row: RowModel,
  mode: QuestionMode,
  editor: EditorRender | undefined,
  theme: FormTheme,
  width: number,
  previewUnder: boolean,
): Block {
  const prefix = `${row.highlighted ? "› " : "  "}${row.box}${row.number}`;
  const indent = " ".repeat(Math.min(visibleWidth(prefix), Math.max(0, width - 1)));
  const color: FormColor = row.highlighted ? "accent" : row.chosen ? "success" : "text";
  const lines = wrapClipped(rowText(row), width, VALUE_LINES, prefix, indent).map((l) => theme.fg(color, l));
  const under = (text: string | undefined, c: FormColor, lead = "") => {
    if (text)
      lines.push(
        ...wrapClipped(`${lead}${text}`, width, VALUE_LINES, indent, `${indent}${lead ? "  " : ""}`).map((l) =>
          theme.fg(c, l),
        ),
      );
  };
  under(row.description, "muted");
  under(row.details, "dim");
  if (previewUnder && row.highlighted && row.preview) {
    const room = Math.max(1, width - indent.length);
    for (const l of previewLines(row.preview, room, PREVIEW_LINES, theme)) lines.push(fitTo(`${indent}${l}`, width));
  }
  // The author's note and the person's own note look different on purpose.
  under(row.authorNote, "dim", "» From the author: ");
  const noting = row.highlighted && mode === "noting" && row.kind === "option";
  if (noting) {
    lines.push(theme.fg("accent", fitTo(`${indent}✎ Your note:`, width)), ...editorLines(editor, indent, width));
  } else {
    under(row.ownNote, "accent", "✎ Your note: ");
  }
  const typing = row.highlighted && mode === "typing" && row.kind === "other";
  if (typing) lines.push(...editorLines(editor, indent, width));
  return { lines, row: true, target: { kind: "row", row: row.row }, editor: noting || typing };
}

/** The empty editor line with a dimmed hint after the caret, cut to the width. */
function withPlaceholder(line: string, placeholder: string, theme: FormTheme, width: number): string {
  const caret = line.trimEnd();
  const room = width - visibleWidth(caret) - 1;
  if (room < 3) return line;
  const hint = fitTo(displayLine(placeholder, 400), room);
  return `${caret} ${theme.fg("dim", hint)}`;
}

/** A typed-answer question: the editor (or, while it is closed, its text), a placeholder hint, and the checks that fail right now. */
function textBlocks(q: QuestionSpec, draft: string, editor: EditorRender | undefined, theme: FormTheme, width: number) {
  // A new array: the closed field's lines are a memoized wrap that other screens share.
  const lines = editor
    ? editorLines(editor, " ", width)
    : [...wrapClipped(displayText(draft), width, VALUE_LINES, " ")];
  // An empty field shows its hint inside itself, dimmed, after the caret: the line an answer would take.
  if (draft === "" && q.placeholder && editor && lines.length >= 3)
    lines[1] = withPlaceholder(lines[1], q.placeholder, theme, width);
  const problems = draft === "" ? [] : textProblems(q.text!, draft);
  for (const problem of problems)
    lines.push(...wrap(sanitize(problem), width, " ✗ ", "   ").map((l) => theme.fg("error", l)));
  if (draft !== "" && problems.length === 0) {
    // A number written another way than the number itself says what it reads as: what the answer will hold.
    const reading = numberReading(q.text!, draft);
    const good = reading === undefined ? "Looks good." : `Looks good: reads as ${reading}.`;
    lines.push(...wrap(good, width, " ✓ ", "   ").map((l) => theme.fg("success", l)));
  }
  return { blocks: [{ lines, editor: true }], focus: 0 };
}

function reviewBlocks(
  spec: FormSpec,
  context: FormContext,
  mode: "reviewing" | "writing",
  editor: EditorRender | undefined,
  theme: FormTheme,
  width: number,
): Pick<Layout, "blocks" | "focus" | "pinned"> {
  // A form without questions is a confirmation: nothing to review.
  const confirmation = spec.questions.length === 0;
  const pinned = confirmation ? [] : [theme.bold(theme.fg("accent", fitTo(" Review your answers", width))), ""];
  const blocks: Block[] = [];
  const entries = reviewEntries(spec, context);
  for (const entry of entries) {
    const prefix = ` ${entry.number}. ${entry.label}: `;
    const color: FormColor = entry.status === "answered" ? "text" : entry.status === "unanswered" ? "warning" : "muted";
    const lines = wrapClipped(entry.text, width, VALUE_LINES, prefix, "    ").map((l) => theme.fg(color, l));
    blocks.push({ lines, row: true, target: { kind: "entry", k: entry.k, number: entry.number } });
  }
  blocks.push({ lines: [""] });
  if (spec.additionalNotes) {
    if (mode === "writing") {
      const lines = [theme.fg("accent", fitTo(" Additional notes:", width)), ...editorLines(editor, " ", width)];
      blocks.push({ lines, editor: true });
      return { pinned, blocks, focus: blocks.length - 1 };
    }
    const notes = context.additionalText.trim();
    const lines = notes
      ? wrapClipped(`Additional notes: ${displayText(notes)}`, width, VALUE_LINES, " ", "   ")
      : [theme.fg("muted", fitTo(" Additional notes: none (n to add)", width))];
    blocks.push({ lines: [...lines, ""] });
  }
  const missing = entries.filter((e) => e.status === "unanswered").map((e) => e.label);
  const status = missing.length
    ? wrap(`Unanswered: ${missing.join(", ")}. Answer them to submit.`, width, " ").map((l) => theme.fg("warning", l))
    : wrap(confirmation ? "Press Enter to confirm." : "Ready. Press Enter to submit.", width, " ").map((l) =>
        theme.fg("success", l),
      );
  blocks.push({ lines: status });
  if (spec.declinable)
    blocks.push({
      lines: wrap("✗ Decline: press d to refuse and send nothing.", width, " ").map((l) => theme.fg("muted", l)),
    });
  return { pinned, blocks, focus: blocks.length - 1 };
}
