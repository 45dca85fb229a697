import { type FormContext, SUBMIT_LINE } from "../../machines/context.js";
import type { FormSpec } from "../../machines/spec.js";
import { displayText, fitTo, wrap, wrapClipped } from "../text.js";
import type { FormColor, FormTheme } from "../theme.js";
import type { Block, Layout } from "./frame.js";
import { reviewEntries } from "./presentation.js";

import { type EditorRender, editorLines, VALUE_LINES } from "./question-blocks.js";

export function reviewBlocks(
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
  // The cursor's line is marked as a list's highlighted row is; the screen keeps it in view.
  let focus = -1;
  for (const entry of entries) {
    const here = context.reviewCursor === entry.k && mode === "reviewing";
    const prefix = `${here ? "›" : " "} ${entry.number}. ${entry.label}: `;
    const color: FormColor = here
      ? "accent"
      : entry.status === "answered"
        ? "text"
        : entry.status === "unanswered"
          ? "warning"
          : "muted";
    const lines = wrapClipped(entry.text, width, VALUE_LINES, prefix, "    ").map((l) => theme.fg(color, l));
    if (here) focus = blocks.length;
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
  const open = entries.filter((e) => e.status === "skipped").map((e) => e.label);
  // The submit line: where the cursor starts, and what Enter there does.
  const onSubmit = context.reviewCursor === SUBMIT_LINE;
  const ready = open.length
    ? `Open: ${open.join(", ")}. ${onSubmit ? "Press Enter" : "Enter here"} to submit with ${open.length === 1 ? "it" : "them"} open.`
    : confirmation
      ? "Press Enter to confirm."
      : onSubmit
        ? "Ready. Press Enter to submit."
        : "Ready. Enter here submits.";
  const lead = confirmation ? " " : onSubmit && mode === "reviewing" ? "› " : "  ";
  const status = missing.length
    ? wrap(`Unanswered: ${missing.join(", ")}. Answer them to submit.`, width, lead, "  ").map((l) =>
        theme.fg("warning", l),
      )
    : wrap(ready, width, lead, confirmation ? " " : "  ").map((l) => theme.fg("success", l));
  if (focus < 0) focus = blocks.length;
  blocks.push({ lines: status });
  if (spec.declinable)
    blocks.push({
      lines: wrap("✗ Decline: press d to decline and send nothing.", width, " ").map((l) => theme.fg("muted", l)),
    });
  return { pinned, blocks, focus };
}
