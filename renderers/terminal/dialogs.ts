/**
 * Forms without a terminal (Pi's RPC mode): the same statechart, one host
 * dialog per step, drawn from the terminal view's presentation model.
 * Contract: a typed answer is re-asked with the reason while a check refuses
 * it; a dismissed dialog backs out one level, as Esc does; an aborted call
 * closes the form with the answers given so far.
 */
import { canSubmit, type FormContext, type FormEvent, type FormOutcome } from "../../machines/context.js";
import { discarding, editorText } from "../../machines/position.js";
import type { FormSession } from "../../machines/session.js";
import { type FormSpec, isTabbed } from "../../machines/spec.js";
import { textProblems } from "../../machines/text-rules.js";
import { displayLine, sanitize } from "../text.js";
import {
  cooldownLine,
  discardQuestion,
  droppedNotice,
  questionRows,
  type ReviewEntry,
  type RowModel,
  reviewEntries,
  rowText,
} from "./presentation.js";
import { previewLine } from "./preview.js";

/** The dialogs a host offers (Pi's `ctx.ui`). */
export interface DialogUi {
  select(title: string, options: string[], opts?: { signal?: AbortSignal }): Promise<string | undefined>;
  input(title: string, placeholder?: string, opts?: { signal?: AbortSignal }): Promise<string | undefined>;
  confirm(title: string, message: string, opts?: { signal?: AbortSignal }): Promise<boolean>;
  notify(message: string, type?: "info" | "warning" | "error"): void;
}

export interface DialogOptions {
  signal?: AbortSignal;
}

type Step = { label: string; events: FormEvent[] };

const DONE = "✓ Done";
const NEXT = "→ Next question";
const NOTE = "✎ Write a note on an option";
const SUBMIT_NOTES = "✎ Additional notes";
const CANCEL_WAIT = "✗ Cancel this question";
const DECLINE = "✗ Decline (send nothing)";

/** A row as one select entry, as the terminal draws it: `[x] 2. Staging ★ recommended — One region`. */
function rowLabel(row: RowModel): string {
  const under = [
    row.description,
    row.details,
    row.authorNote && `» From the author: ${row.authorNote}`,
    row.ownNote && `✎ Your note: ${row.ownNote}`,
    row.preview && `Preview: ${previewLine(row.preview)}`,
  ]
    .filter((t): t is string => !!t)
    .map((t) => ` — ${displayLine(t, 400)}`);
  return `${row.box}${row.number}${rowText(row)}${under.join("")}`;
}

/** A review entry as one line: `1. Target: Staging`. */
function entryLine(entry: ReviewEntry): string {
  return `${entry.number}. ${entry.label}: ${entry.text}`;
}

function summary(spec: FormSpec, c: FormContext): string {
  const lines = reviewEntries(spec, c).map(entryLine);
  if (c.additionalText.trim()) lines.push(`Additional notes: ${displayLine(c.additionalText)}`);
  return lines.join("\n");
}

function questionSteps(spec: FormSpec, k: number, c: FormContext): Step[] {
  const q = spec.questions[k];
  const steps: Step[] = questionRows(q, k, c).map((row) => ({
    label: rowLabel(row),
    events: [{ type: "SELECT", row: row.row }],
  }));
  // Done confirms from an option row: on the free-text row Enter would open the editor instead.
  if (q.kind === "multi") steps.push({ label: DONE, events: [{ type: "MOVE_TO", to: "first" }, { type: "CONFIRM" }] });
  if (q.notes && q.options.length) steps.push({ label: NOTE, events: [] });
  if (isTabbed(spec)) steps.push({ label: NEXT, events: [{ type: "NEXT_TAB" }] });
  return steps;
}

function title(spec: FormSpec, k: number): string {
  const q = spec.questions[k];
  const where = isTabbed(spec) ? `(${k + 1}/${spec.questions.length}) ` : "";
  const extra = [
    q.body,
    q.context && `Context: ${q.context}`,
    q.recommendation && `Recommendation: ${q.recommendation}`,
    q.caveats && `Caveats: ${q.caveats}`,
  ]
    .filter((t): t is string => !!t)
    .map((t) => ` — ${displayLine(t)}`);
  return `${where}${displayLine(q.prompt)}${extra.join("")}`;
}

/** The countdown before a throttled form, as a dialog the client can dismiss to cancel. */
async function countdown(ui: DialogUi, session: FormSession, signal: AbortSignal | undefined) {
  const { spec } = session;
  const over = new AbortController();
  const ended = new Promise<void>((resolve) => {
    const unwatch = session.watch(() => {
      if (!session.closed && session.position.kind === "waiting") return;
      unwatch();
      over.abort();
      resolve();
    });
  });
  const both = signal ? AbortSignal.any([signal, over.signal]) : over.signal;
  const choice = await ui.select(cooldownLine(spec.waitMs ?? 0), [CANCEL_WAIT], { signal: both });
  if (choice === CANCEL_WAIT && session.position.kind === "waiting") session.send({ type: "CANCEL" });
  await ended;
}

async function step(ui: DialogUi, session: FormSession, signal: AbortSignal | undefined): Promise<void> {
  const { spec, position } = session;
  const c = session.snapshot.context;
  const opts = { signal };
  const send = (...events: FormEvent[]) => {
    for (const e of events) session.send(e);
  };

  if (discarding(position)) {
    const discard = await ui.confirm("Discard what you entered?", summary(spec, c) || discardQuestion(spec, c), opts);
    return send(discard ? { type: "CANCEL" } : { type: "RESUME" });
  }
  if (position.kind === "waiting") return countdown(ui, session, signal);
  // Dialogs show no countdown and see no keys: a form with a timeout waits for its answers here.
  if (c.clock === "running") return send({ type: "STOP_CLOCK" });
  if (position.kind === "review") {
    if (position.mode === "writing") {
      const text = await ui.input("Additional notes for the answers (optional)", c.additionalText || undefined, opts);
      if (text === undefined) return send({ type: "CANCEL" });
      return send({ type: "TYPE", text }, { type: "SUBMIT_TEXT", text });
    }
    const entries = reviewEntries(spec, c);
    const left = entries.filter((e) => e.status === "skipped").map((e) => e.label);
    const submitTitle = left.length
      ? `Open: ${left.join(", ")}. Submit with ${left.length === 1 ? "it" : "them"} open?`
      : "Submit these answers?";
    if (canSubmit(spec, c) && (await ui.confirm(submitTitle, summary(spec, c), opts))) {
      return send({ type: "CONFIRM" });
    }
    if (signal?.aborted) return;
    const open = entries.filter((e) => e.status === "unanswered").map((e) => e.label);
    const changes: Step[] = entries.map((e) => ({
      label: `Change ${entryLine(e)}`,
      events: [{ type: "SELECT", row: e.number - 1 }],
    }));
    if (spec.additionalNotes) changes.push({ label: SUBMIT_NOTES, events: [{ type: "NOTE" }] });
    if (spec.declinable) changes.push({ label: DECLINE, events: [{ type: "DECLINE" }] });
    if (canSubmit(spec, c)) changes.unshift({ label: "Submit", events: [{ type: "CONFIRM" }] });
    const heading = open.length ? `Unanswered: ${open.join(", ")}. Which question?` : "Review your answers";
    const picked = await ui.select(
      heading,
      changes.map((s) => s.label),
      opts,
    );
    const chosen = changes.find((s) => s.label === picked);
    return chosen ? send(...chosen.events) : send({ type: "CANCEL" });
  }
  if (position.kind !== "question") return;
  const k = position.q;
  const q = spec.questions[k];

  if (position.mode !== "choosing") {
    const current = editorText(position, c);
    const problems = q.kind === "text" && current ? textProblems(q.text!, current) : [];
    const prompt =
      position.mode === "noting"
        ? `Your note on "${displayLine(q.options[c.cursors[k]]?.label ?? "")}"`
        : `${title(spec, k)}${problems.length ? ` — ${problems.join(" ")}` : ""}`;
    const text = await ui.input(prompt, sanitize(current) || (q.placeholder && displayLine(q.placeholder)), opts);
    if (text === undefined) return send({ type: "CANCEL" });
    // A typed answer the checks refuse stays in its editor: the next round asks again and says why.
    return send({ type: "TYPE", text }, { type: "SUBMIT_TEXT", text });
  }

  const steps = questionSteps(spec, k, c);
  const picked = await ui.select(
    title(spec, k),
    steps.map((s) => s.label),
    opts,
  );
  const chosen = steps.find((s) => s.label === picked);
  if (!chosen) return send({ type: "CANCEL" });
  if (chosen.label === NOTE) {
    const options = q.options.map((o, i) => `${i + 1}. ${displayLine(o.label)}`);
    const which = await ui.select("A note on which option?", options, opts);
    const index = options.indexOf(which ?? "");
    if (index < 0) return;
    return send({ type: "MOVE", delta: index - c.cursors[k] }, { type: "NOTE" });
  }
  send(...chosen.events);
}

/** The session through the host's dialogs, one step at a time, until it closes or the call is aborted. */
export async function runDialogs(
  ui: DialogUi,
  session: FormSession,
  options: DialogOptions = {},
): Promise<FormOutcome> {
  const { spec } = session;
  const { signal } = options;
  const onAbort = () => session.abort();
  signal?.addEventListener("abort", onAbort, { once: true });
  try {
    if (session.notice) ui.notify(session.notice, "info");
    const heading = [spec.title, spec.description].filter((t): t is string => !!t).map((t) => displayLine(t, 600));
    if (heading.length) ui.notify(heading.join(" — "), "info");
    // An error inside the statechart closes the session (the loop sees it closed) instead of reaching Pi.
    let said: unknown;
    while (!session.closed && !signal?.aborted) {
      await step(ui, session, signal);
      // A change that hid answered questions says what it dropped, as the terminal's screen does.
      const { dropped } = session.snapshot.context;
      if (dropped.length && dropped !== said) ui.notify(droppedNotice(spec, session.snapshot.context)!, "warning");
      said = dropped;
    }
    session.abort();
  } finally {
    signal?.removeEventListener("abort", onAbort);
  }
  return session.outcome;
}
