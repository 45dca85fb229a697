/**
 * The one presentation model the terminal view and the dialogs draw: rows,
 * answer summaries and review entries are computed here and nowhere else,
 * every model- or person-written string sanitized; front ends only lay them out.
 */
import { type FormContext, isVisible } from "../../machines/context.js";
import { rowAt, rowCount } from "../../machines/rows.js";
import { type FormSpec, isScaleOption, optionText, otherLabel, type QuestionSpec } from "../../machines/spec.js";
import { numberReading } from "../../machines/text-rules.js";
import { displayLine, displayText } from "../text.js";

export interface RowModel {
  row: number;
  kind: "option" | "chip" | "other";
  number: string;
  /** `[x] `, `[ ] ` or blank padding in a multi-select; empty in a single-select. */
  box: string;
  label: string;
  chosen: boolean;
  /** The confirmed single-select answer (shown with ✓). */
  answer: boolean;
  recommended: boolean;
  highlighted: boolean;
  /** Line breaks kept. */
  description?: string;
  details?: string;
  authorNote?: string;
  ownNote?: string;
  preview?: string;
}

/** `unsaved`: the free-text row shows text typed and not saved (false while its editor is open and shows it). */
export function questionRows(
  q: QuestionSpec,
  k: number,
  context: FormContext,
  from = 0,
  to = Infinity,
  unsaved = true,
): RowModel[] {
  const picks = context.picks[k];
  const cursor = context.cursors[k];
  const rows: RowModel[] = [];
  const typed = context.typed[k];
  const end = Math.min(to, rowCount(q, typed));
  for (let r = Math.max(0, from); r < end; r++) {
    const row = rowAt(q, typed, r)!;
    const base = { row: r, kind: row.kind, number: `${r + 1}. `, highlighted: r === cursor, recommended: false };
    // Object.assign, not `{ ...base, … }`: V8 builds that spread dozens of times slower, on every row of every key.
    if (row.kind === "option") {
      const option = q.options[row.index];
      // A rating's option is its number: show "4. Very good" rather than "4. 4" over "Very good".
      const scale = isScaleOption(q, row.index);
      const chosen = picks.options.includes(row.index);
      const own = context.notes[k]?.[row.index]?.trim();
      rows.push(
        Object.assign(base, {
          box: q.kind === "multi" ? (chosen ? "[x] " : "[ ] ") : "",
          label: displayLine(scale ? option.description! : option.label),
          chosen,
          answer: q.kind === "single" && chosen && context.answered[k],
          recommended: option.recommended === true,
          description: !scale && option.description ? displayText(option.description) : undefined,
          details: option.details ? displayText(option.details) : undefined,
          authorNote: option.note ? displayText(option.note) : undefined,
          ownNote: own ? displayText(own) : undefined,
          preview: option.preview ? displayText(option.preview) : undefined,
        }),
      );
    } else if (row.kind === "chip") {
      const text = typed[row.index];
      const chosen = picks.custom.includes(text);
      rows.push(
        Object.assign(base, {
          box: chosen ? "[x] " : "[ ] ",
          label: `✎ ${displayLine(text)}`,
          chosen,
          answer: false,
        }),
      );
    } else {
      const typed = q.kind === "single" ? picks.custom[0] : undefined;
      // Text typed and not saved (a form closed with its editor open) shows where it waits, not only once opened.
      const kept = unsaved ? context.drafts[k]?.trim() : undefined;
      rows.push(
        Object.assign(base, {
          box: q.kind === "multi" ? "    " : "",
          label:
            typed !== undefined
              ? `✎ ${displayLine(typed)}`
              : kept
                ? `${otherLabel(q)} ✎ ${displayLine(kept, 200)} (not saved yet)`
                : otherLabel(q),
          chosen: typed !== undefined,
          answer: typed !== undefined && context.answered[k],
        }),
      );
    }
  }
  return rows;
}

export function hasPreviews(q: QuestionSpec): boolean {
  return q.options.some((o) => o.preview !== undefined);
}

/** A row's label with its marks: `Staging  ★ recommended ✓`. */
export function rowText(row: RowModel): string {
  return `${row.label}${row.recommended ? "  ★ recommended" : ""}${row.answer ? " ✓" : ""}`;
}

/** `Staging (note: after smoke tests), ✎ typed, note on Production: …` — question `k`'s answer on one line. */
function answerSummary(q: QuestionSpec, k: number, context: FormContext, picks = context.picks[k]): string {
  const notes = context.notes[k] ?? {};
  const noteOf = (i: number) => (notes[i]?.trim() ? displayLine(notes[i].trim(), NOTE_CHARS) : undefined);
  const parts = picks.options.map((i) => {
    const label = displayLine(isScaleOption(q, i) ? optionText(q, i) : q.options[i].label);
    const note = noteOf(i);
    return note ? `${label} (note: ${note})` : label;
  });
  for (const c of picks.custom) {
    // A number written another way than the number itself says what it reads as, wherever it is summarised.
    const reading = q.text && numberReading(q.text, c);
    parts.push(reading ? `✎ ${displayLine(c)} (reads as ${reading})` : `✎ ${displayLine(c)}`);
  }
  // A note on an option that is not chosen still says which option it is on.
  for (const i of Object.keys(notes).map(Number)) {
    const note = noteOf(i);
    if (note && !picks.options.includes(i) && q.options[i])
      parts.push(`note on ${displayLine(q.options[i].label)}: ${note}`);
  }
  return parts.join(", ");
}

const NOTE_CHARS = 200;

/**
 * What the last answer change hid and dropped, named by label and answer:
 * `Team (Platform) will no longer be asked; its answer is dropped.`
 */
export function droppedNotice(spec: FormSpec, context: FormContext): string | undefined {
  if (!context.dropped.length) return undefined;
  const named = context.dropped.map(({ q, picks }) => {
    const summary = answerSummary(spec.questions[q], q, context, picks);
    return `${displayLine(spec.questions[q].label)}${summary ? ` (${displayLine(summary, 200)})` : ""}`;
  });
  const list = named.length === 1 ? named[0] : `${named.slice(0, -1).join(", ")} and ${named.at(-1)}`;
  const one = named.length === 1;
  return `${list} will no longer be asked; ${one ? "its answer is" : "their answers are"} dropped.`;
}

export type ReviewStatus = "answered" | "unanswered" | "skipped";

export interface ReviewEntry {
  k: number;
  /** Shown questions are counted 1, 2, 3 … (what a digit key goes to). */
  number: number;
  label: string;
  status: ReviewStatus;
  text: string;
}

export function reviewEntries(spec: FormSpec, context: FormContext): ReviewEntry[] {
  const entries: ReviewEntry[] = [];
  spec.questions.forEach((q, k) => {
    if (!isVisible(spec, context, k)) return;
    const label = displayLine(q.label);
    if (context.answered[k]) {
      entries.push({
        k,
        number: entries.length + 1,
        label,
        status: "answered",
        text: answerSummary(q, k, context) || "(none of the options: confirmed with nothing ticked)",
      });
    } else {
      entries.push({
        k,
        number: entries.length + 1,
        label,
        status: q.required ? "unanswered" : "skipped",
        text: q.required ? "(unanswered)" : "(skipped, optional)",
      });
    }
  });
  return entries;
}

function counted(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? "" : "s"}`;
}

/** Whole seconds left of `ms`, never below 0: every clock a form shows counts down in these. */
export const secondsLeft = (ms: number) => Math.max(0, Math.ceil(ms / 1000));

/** The countdown before a throttled question, in words (each screen ends the sentence its own way). */
export function cooldownLine(ms: number): string {
  return `A question is coming in ${secondsLeft(ms)}s (questions are spaced out by a cooldown)`;
}

/** The answer clock, in words: when the form closes, and with what (each screen says how to stop it). */
export function closesInLine(spec: FormSpec, ms: number): string {
  const recommended = spec.questions.some((q) => q.options.some((o) => o.recommended));
  return `◷ Closes in ${secondsLeft(ms)}s${recommended ? " with the recommended answers" : ""}`;
}

/** How a closed form ended, in words. */
export const DONE_WORDS = {
  submitted: "Submitted.",
  cancelled: "Cancelled.",
  declined: "Declined.",
  timed_out: "Timed out.",
} as const;

/**
 * What Esc asks once something was entered: the whole form goes, its answers and notes counted.
 * `closing` says what closes it on the screen asking (the terminal's keys, a page's button).
 */
export function discardQuestion(spec: FormSpec, context: FormContext, closing = "Esc or Enter closes"): string {
  const answers = spec.questions.filter((_, k) => context.answered[k] && isVisible(spec, context, k)).length;
  const notes =
    context.notes.reduce((n, byOption) => n + Object.values(byOption).filter((t) => t.trim() !== "").length, 0) +
    (context.additionalText.trim() !== "" ? 1 : 0);
  const parts = [...(answers ? [counted(answers, "answer")] : []), ...(notes ? [counted(notes, "note")] : [])];
  const what = parts.length ? `its ${parts.join(" and ")}` : "what you typed or ticked";
  return `Discard what you entered? ${closing} the whole form and discards ${what}; any other key goes back.`;
}
