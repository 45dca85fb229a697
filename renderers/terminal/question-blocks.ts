/** One question as blocks of lines: its head, a block per row of its list, or a typed answer's editor. */
import { visibleWidth } from "@earendil-works/pi-tui";
import type { FormContext } from "../../machines/context.js";
import { rowCount } from "../../machines/rows.js";
import type { QuestionSpec } from "../../machines/spec.js";
import { numberReading, textProblems } from "../../machines/text-rules.js";
import { displayLine, displayText, fitTo, sanitize, wrap, wrapClipped } from "../text.js";
import type { FormColor, FormTheme } from "../theme.js";
import type { Block, Layout } from "./frame.js";
import { type LineCache, type QuestionRows, rowSlot } from "./line-cache.js";
import { questionRows, type RowModel, rowText } from "./presentation.js";
import { previewLines } from "./preview.js";

export type EditorRender = (width: number) => string[];

export const PREVIEW_LINES = 12;

/** Lines a label, a note or a summary may take before it is cut. */
export const VALUE_LINES = 10;
const EDITOR_MIN_WIDTH = 8;

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

export function questionHead(q: QuestionSpec, theme: FormTheme, width: number): string[] {
  return [
    ...wrap(sanitize(q.prompt), width, " ").map((l) => theme.bold(theme.fg("text", l))),
    ...labelled("", q.body, "text", theme, width),
    ...labelled("Context: ", q.context, "muted", theme, width),
    ...labelled("★ Recommendation: ", q.recommendation, "success", theme, width),
    ...labelled("⚠ Caveats: ", q.caveats, "warning", theme, width),
    "",
  ];
}

export function editorLines(editor: EditorRender | undefined, indent: string, width: number): string[] {
  if (!editor) return [];
  // pi-tui's editor cannot lay out a wide character in fewer than two columns:
  // give it at least EDITOR_MIN_WIDTH and cut its lines to what is really there.
  const room = Math.max(EDITOR_MIN_WIDTH, width - visibleWidth(indent));
  return editor(room).map((l) => fitTo(`${indent}${l}`, width));
}

type QuestionMode = "choosing" | "typing" | "noting";

/**
 * A block per row; a very long list lays out the rows near the cursor only.
 * With a cache, while the question's selection, answer, notes and typed
 * choices are the objects they were, a row is the block it was: ↑/↓ takes two
 * blocks drawn before.
 */
export function rowBlocks(
  q: QuestionSpec,
  k: number,
  context: FormContext,
  mode: QuestionMode,
  editor: EditorRender | undefined,
  theme: FormTheme,
  width: number,
  height: number,
  previewUnder: boolean,
  cache?: LineCache,
): Pick<Layout, "blocks" | "focus" | "above" | "below"> {
  const count = rowCount(q, context.typed[k]);
  const cursor = context.cursors[k];
  // A list of 10,000 options costs what a screenful costs.
  const span = Math.max(20, height);
  const first = count > 3 * span ? Math.max(0, Math.min(cursor - span, count - 2 * span)) : 0;
  const last = count > 3 * span ? Math.min(count, first + 2 * span) : count;
  const blocks: Block[] = [];
  if (!cache) {
    for (const row of questionRows(q, k, context, first, last, mode !== "typing"))
      blocks.push(rowBlock(row, mode, editor, theme, width, previewUnder));
  } else {
    const drawn = cache.rowsOf(q);
    // Text typed and not saved shows on its row once the editor is closed.
    const unsaved = mode === "typing" ? "" : context.drafts[k];
    drawn.follow(
      context.picks[k],
      context.answered[k],
      context.notes[k],
      context.typed[k],
      unsaved,
      width,
      previewUnder,
    );
    for (let r = first; r < last; r++) {
      const highlighted = r === cursor;
      // A row holding an open editor is always drawn.
      const kept = highlighted && mode !== "choosing" ? undefined : drawn.current(rowSlot(r, highlighted));
      blocks.push(
        kept ?? reusedRowBlock(drawn, questionRows(q, k, context, r, r + 1, mode !== "typing")[0], mode, editor, theme),
      );
    }
  }
  return { blocks, focus: cursor - first, above: first, below: count - last };
}

/** Field by field: strings come from the spec and the memoized sanitizers, so mostly the same objects. */
function sameRow(a: RowModel, b: RowModel): boolean {
  let fields = 0;
  for (const key in a) {
    if (a[key as keyof RowModel] !== b[key as keyof RowModel]) return false;
    fields++;
  }
  for (const _ in b) fields--;
  return fields === 0;
}

/** A row's block, drawn again only when something it shows changed (a row with an open editor always). */
function reusedRowBlock(
  drawn: QuestionRows,
  row: RowModel,
  mode: QuestionMode,
  editor: EditorRender | undefined,
  theme: FormTheme,
): Block {
  const { width, previewUnder } = drawn;
  if (row.highlighted && mode !== "choosing") return rowBlock(row, mode, editor, theme, width, previewUnder);
  const slot = rowSlot(row.row, row.highlighted);
  const last = drawn.slots.get(slot);
  const same = last && last.width === width && last.previewUnder === previewUnder && sameRow(last.row, row);
  const block = same ? last.block : rowBlock(row, mode, editor, theme, width, previewUnder);
  drawn.slots.set(slot, { row, width, previewUnder, block, answers: drawn.answers });
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

function withPlaceholder(line: string, placeholder: string, theme: FormTheme, width: number): string {
  const caret = line.trimEnd();
  const room = width - visibleWidth(caret) - 1;
  if (room < 3) return line;
  const hint = fitTo(displayLine(placeholder, 400), room);
  return `${caret} ${theme.fg("dim", hint)}`;
}

/** A typed answer: the editor (or its text while closed), a placeholder hint, and the checks that fail now. */
export function textBlocks(
  q: QuestionSpec,
  draft: string,
  editor: EditorRender | undefined,
  theme: FormTheme,
  width: number,
) {
  // A new array: the closed field's lines are a memoized wrap that other screens share.
  const lines = editor
    ? editorLines(editor, " ", width)
    : [...wrapClipped(displayText(draft), width, VALUE_LINES, " ")];
  // The hint goes on the line an answer would take, after the caret.
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
