/**
 * A session as a web page's view: the presentation model the terminal draws
 * (rows, answer summaries, review entries, checks, the notices), as text,
 * beside the events each control sends, worked out where the terminal works
 * out a click's (`clickEvents`). Every string is sanitized here; the page
 * writes them as text only.
 */
import { canSubmit, type FormContext, type FormEvent, reviewLines, shownQuestions } from "../../machines/context.js";
import { hasInput } from "../../machines/entered.js";
import { editorText, type FormPosition } from "../../machines/position.js";
import { PAGE, rowCount } from "../../machines/rows.js";
import type { FormSession } from "../../machines/session.js";
import { isTabbed, otherLabel, type QuestionSpec, singleLine } from "../../machines/spec.js";
import { countPhrase, numberReading, type TextRule, textProblems } from "../../machines/text-rules.js";
import { clickEvents } from "../terminal/mouse.js";
import {
  closesInLine,
  cooldownLine,
  DONE_WORDS,
  discardQuestion,
  droppedNotice,
  questionRows,
  reviewEntries,
  secondsLeft,
} from "../terminal/presentation.js";
import { previewParts } from "../terminal/preview.js";
import { displayLine, displayText } from "../text.js";
import type {
  BodyView,
  ButtonView,
  EditorView,
  PageView,
  QuestionView,
  ReviewView,
  RowView,
  Send,
} from "./client/view.js";

/** Rows laid out around the highlight in a very long list: the rest is reached by moving. */
export const ROWS_SHOWN = 120;

const send = (...events: FormEvent[]): Send => events as unknown as Send;
const button = (label: string, events: Send, primary?: boolean): ButtonView =>
  primary ? { label, send: events, primary } : { label, send: events };

export function pageView(session: FormSession, version: number, waiting = false): PageView {
  const { spec } = session;
  const context = session.snapshot.context;
  const position = session.position;
  const view: PageView = {
    version,
    pageRows: PAGE,
    alerts: [],
    body: body(session, position, waiting),
  };
  if (spec.title) view.title = displayText(spec.title);
  if (spec.description) view.description = displayText(spec.description);
  if (session.notice) view.notice = displayText(session.notice);
  if (position.kind === "done") return view;
  const dropped = droppedNotice(spec, context);
  if (dropped) view.alerts.push(dropped);
  const left = session.answerLeftMs();
  if (left !== undefined && position.kind !== "waiting")
    view.clock = {
      text: `${closesInLine(spec, left)}.`,
      seconds: secondsLeft(left),
      stop: send({ type: "STOP_CLOCK" }),
    };
  const shown = shownQuestions(spec, context);
  if (isTabbed(spec) && spec.questions.length > 0 && (position.kind === "question" || position.kind === "review")) {
    const at = position.kind === "review" ? -1 : position.q;
    const tabs = { shown };
    view.tabs = [
      ...shown.map((k) => ({
        label: displayLine(spec.questions[k].label, 200),
        answered: context.answered[k],
        current: k === at,
        send: send(...clickEvents({ kind: "tab", q: k }, position, tabs)),
      })),
      {
        label: "Submit",
        answered: canSubmit(spec, context),
        current: at === -1,
        submit: true,
        send: send(...(at === -1 ? [] : clickEvents({ kind: "submit" }, position, tabs))),
      },
    ];
  }
  if (shown.length > 1 || isTabbed(spec))
    view.progress = `${shown.filter((k) => context.answered[k]).length} of ${shown.length} answered`;
  return view;
}

function previewOf(preview: string): NonNullable<RowView["preview"]> {
  return previewParts(preview).map((line) => ({
    text: line.text,
    code: line.code,
    ...(line.color === "success"
      ? { tone: "added" as const }
      : line.color === "error"
        ? { tone: "removed" as const }
        : {}),
  }));
}

/** What closes the form where it stands: a question that waits is put back (or refused); a form is cancelled. */
function closers(session: FormSession, waiting: boolean): ButtonView[] {
  // A question that waits is put back or refused where a form is cancelled.
  if (waiting) return [button("Put back", [{ type: "PUT_BACK" }]), button("Refuse to answer", [{ type: "REFUSE" }])];
  const entered = hasInput(session.spec, session.snapshot.context);
  return [button(entered ? "Cancel… (asks first)" : "Cancel", send({ type: "CANCEL" }))];
}

function body(session: FormSession, position: FormPosition, waiting: boolean): BodyView {
  const { spec } = session;
  const context = session.snapshot.context;
  switch (position.kind) {
    case "done":
      return { kind: "done", text: DONE_WORDS[position.outcome] };
    case "waiting":
      return {
        kind: "message",
        text: `${cooldownLine(session.waitLeftMs())}.`,
        buttons: [button("Cancel", send({ type: "CANCEL" }))],
      };
    case "folded": {
      const shown = shownQuestions(spec, context);
      const answered = shown.filter((k) => context.answered[k]).length;
      return {
        kind: "message",
        text: `The form is folded away in the terminal (${answered} of ${shown.length} answered).`,
        buttons: [button("Open it again", send({ type: "UNFOLD" }), true)],
      };
    }
    case "question":
    case "review":
      if (position.mode === "discarding")
        return {
          kind: "message",
          text: discardQuestion(spec, context, "Discarding closes"),
          buttons: [
            button("Discard and close", send({ type: "CONFIRM" }), true),
            button("Go back", send({ type: "RESUME" })),
          ],
        };
      return position.kind === "question"
        ? question(session, position.q, position.mode, waiting)
        : review(session, position.mode === "writing", waiting);
  }
}

function question(
  session: FormSession,
  k: number,
  mode: "choosing" | "typing" | "noting",
  waiting: boolean,
): QuestionView {
  const { spec } = session;
  const context = session.snapshot.context;
  const q = spec.questions[k];
  const tabbed = isTabbed(spec);
  const cursor = context.cursors[k];
  const count = q.kind === "text" ? 0 : rowCount(q, context.typed[k]);
  const first = count > ROWS_SHOWN ? Math.max(0, Math.min(cursor - ROWS_SHOWN / 2, count - ROWS_SHOWN)) : 0;
  const last = Math.min(count, first + ROWS_SHOWN);
  const view: QuestionView = {
    kind: "question",
    q: k,
    prompt: displayText(q.prompt),
    choice: q.kind,
    required: q.required,
    rows: [],
    above: first,
    below: count - last,
    buttons: [],
  };
  for (const [name, value] of [
    ["body", q.body],
    ["context", q.context],
    ["recommendation", q.recommendation],
    ["caveats", q.caveats],
  ] as const)
    if (value) view[name] = displayText(value);
  const phrase = q.kind === "multi" ? countPhrase(q) : "";
  if (phrase) view.count = `Choose ${phrase}.`;
  if (q.kind !== "text") {
    for (const row of questionRows(q, k, context, first, last, mode !== "typing")) {
      const r = row.row;
      view.rows.push({
        kind: row.kind,
        label: row.label,
        chosen: q.kind === "multi" ? row.chosen : row.answer || (row.chosen && row.kind === "other"),
        recommended: row.recommended,
        highlighted: row.highlighted,
        ...(row.description ? { description: row.description } : {}),
        ...(row.details ? { details: row.details } : {}),
        ...(row.authorNote ? { authorNote: row.authorNote } : {}),
        // The note being written shows in its editor, not again above it.
        ...(row.ownNote && !(mode === "noting" && row.highlighted) ? { ownNote: row.ownNote } : {}),
        ...(row.preview && row.highlighted ? { preview: previewOf(row.preview) } : {}),
        select: mode === "choosing" ? send({ type: "SELECT", row: r }) : [],
        focus: mode === "choosing" && r !== cursor ? send({ type: "MOVE", delta: r - cursor }) : [],
        ...(q.notes && row.kind === "option" && mode === "choosing"
          ? { note: send(...(r === cursor ? [] : [{ type: "MOVE" as const, delta: r - cursor }]), { type: "NOTE" }) }
          : {}),
      });
    }
  }
  if (mode === "typing" || mode === "noting" || q.kind === "text") {
    view.editor = editor(session, q, k, mode);
    if (q.kind !== "text") view.editorAt = cursor - first;
  }
  if (mode === "choosing" && q.kind === "multi") {
    view.buttons.push(button("Confirm", send({ type: "CONFIRM" }), true));
    if ((q.count?.max ?? Number.POSITIVE_INFINITY) >= q.options.length)
      view.buttons.push(button("Tick all or none", send({ type: "TOGGLE_ALL" })));
    view.buttons.push(button("Invert the ticks", send({ type: "INVERT" })));
  }
  if (count > ROWS_SHOWN && mode === "choosing")
    view.buttons.push(
      button("First option", send({ type: "MOVE_TO", to: "first" })),
      button("Last option", send({ type: "MOVE_TO", to: "last" })),
    );
  if (tabbed && mode !== "noting")
    view.buttons.push(button("Previous", send({ type: "PREV_TAB" })), button("Next", send({ type: "NEXT_TAB" })));
  if (mode === "choosing" || q.kind === "text") view.buttons.push(...closers(session, waiting));
  return view;
}

function editor(session: FormSession, q: QuestionSpec, k: number, mode: "choosing" | "typing" | "noting"): EditorView {
  const context = session.snapshot.context;
  const own = mode === "noting" ? "noting" : "typing";
  const value = editorText({ kind: "question", q: k, mode: own }, context);
  const view: EditorView = {
    id: `${own}:${k}${mode === "noting" ? `:${context.cursors[k]}` : ""}`,
    label: mode === "noting" ? "Your note" : q.kind === "text" ? displayLine(q.label, 200) : otherLabel(q),
    text: value,
    multiline: mode === "noting" || !singleLine(q),
    problems: [],
    save: mode === "noting" ? "Keep the note" : q.kind === "text" && !isTabbed(session.spec) ? "Submit" : "Save",
  };
  if (mode === "noting") return view;
  if (q.kind !== "text") view.close = "Back to the options";
  if (q.placeholder) view.placeholder = displayLine(q.placeholder, 400);
  if (q.kind !== "text") return view;
  const rule = q.text!;
  view.rule = ruleWords(rule);
  if (value !== "") {
    view.problems = textProblems(rule, value).map((p) => displayText(p));
    if (view.problems.length === 0) {
      const reading = numberReading(rule, value);
      view.good = reading === undefined ? "Looks good." : `Looks good: reads as ${reading}.`;
    }
  }
  return view;
}

/** What a typed answer must be, in words. */
export function ruleWords(rule: TextRule): string {
  const parts: string[] = [rule.required ? "Required" : "Optional"];
  const kind = {
    text: undefined,
    number: rule.integer ? "a whole number" : "a number",
    email: "an email address",
    date: "a date written YYYY-MM-DD",
  }[rule.type];
  if (kind) parts.push(kind);
  if (rule.minimum !== undefined && rule.maximum !== undefined) parts.push(`from ${rule.minimum} to ${rule.maximum}`);
  else if (rule.minimum !== undefined) parts.push(`at least ${rule.minimum}`);
  else if (rule.maximum !== undefined) parts.push(`at most ${rule.maximum}`);
  if (rule.format) parts.push(`in the ${rule.format} format`);
  if (rule.minLength !== undefined && rule.maxLength !== undefined)
    parts.push(`${rule.minLength} to ${rule.maxLength} characters`);
  else if (rule.minLength !== undefined) parts.push(`at least ${rule.minLength} characters`);
  else if (rule.maxLength !== undefined) parts.push(`at most ${rule.maxLength} characters`);
  const words = rule.patternText?.replace(/\s+/g, " ").trim();
  if (words) parts.push(displayLine(words, 300));
  else if (rule.pattern) parts.push(`matching ${displayLine(rule.pattern, 300)}`);
  return `${parts.join(", ")}.`;
}

function review(session: FormSession, writing: boolean, waiting: boolean): ReviewView {
  const { spec } = session;
  const context: FormContext = session.snapshot.context;
  const position: FormPosition = { kind: "review", mode: writing ? "writing" : "reviewing" };
  const lines = reviewLines(spec, context);
  const at = lines.indexOf(context.reviewCursor);
  const entries = reviewEntries(spec, context);
  const missing = entries.filter((e) => e.status === "unanswered").map((e) => e.label);
  const open = entries.filter((e) => e.status === "skipped").map((e) => e.label);
  const confirmation = spec.questions.length === 0;
  const view: ReviewView = {
    kind: "review",
    entries: entries.map((entry) => ({
      label: entry.label,
      text: entry.text,
      status: entry.status,
      highlighted: !writing && context.reviewCursor === entry.k,
      select: writing
        ? []
        : send(...clickEvents({ kind: "entry", k: entry.k, number: entry.number }, position, { shown: [] })),
      focus: writing || lines.indexOf(entry.k) === at ? [] : send({ type: "MOVE", delta: lines.indexOf(entry.k) - at }),
    })),
    ready: missing.length === 0,
    status: missing.length
      ? `Unanswered: ${missing.join(", ")}. Answer them to submit.`
      : open.length
        ? `Open: ${open.join(", ")}. Submitting leaves ${open.length === 1 ? "it" : "them"} open.`
        : confirmation
          ? "Confirm to go on."
          : "Ready to submit.",
    buttons: [],
  };
  if (spec.additionalNotes) {
    const notes = context.additionalText.trim();
    if (notes) view.notes = displayText(notes);
    if (writing)
      view.editor = {
        id: "writing",
        label: "Additional notes",
        text: editorText(position, context),
        multiline: true,
        problems: [],
        save: "Keep the notes",
      };
  }
  if (writing) return view;
  view.buttons.push(
    button(
      confirmation ? "Confirm" : "Submit",
      send(...clickEvents({ kind: "submit" }, position, { shown: [] })),
      true,
    ),
  );
  if (spec.additionalNotes)
    view.buttons.push(button(context.additionalText.trim() ? "Edit the notes" : "Add notes", send({ type: "NOTE" })));
  if (spec.declinable) view.buttons.push(button("Decline (send nothing)", send({ type: "DECLINE" })));
  if (isTabbed(spec) && spec.questions.length > 0) view.buttons.push(button("Previous", send({ type: "PREV_TAB" })));
  view.buttons.push(...closers(session, waiting));
  return view;
}
