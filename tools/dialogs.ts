/**
 * Forms without a terminal: the same statechart, driven one dialog per step
 * through `ctx.ui.select`, `ctx.ui.input` and `ctx.ui.confirm` (what Pi's RPC
 * mode forwards to its client).
 *
 * Contract: a question is a select of its rows (chosen marks included); a
 * typed answer, a note or additional notes is an input, re-asked with the
 * reason while a check refuses it; a submittable form ends with a confirm; a
 * dismissed dialog backs out one level, as Esc does; an aborted call closes
 * the form with the answers given so far.
 */
import type { ExtensionContext } from "@mariozechner/pi-coding-agent";
import { type Actor, createActor, waitFor } from "xstate";
import {
  canSubmit,
  createFormMachine,
  editorText,
  type FormEvent,
  type FormMachine,
  formPosition,
  formResult,
  isVisible,
} from "../machines/form.js";
import { rowAt, rowCount } from "../machines/rows.js";
import { type FormSpec, isTabbed, OTHER_LABEL, optionText, type QuestionSpec } from "../machines/spec.js";
import { textProblems } from "../machines/text-rules.js";
import { sanitizeLine } from "../renderers/text.js";
import type { RunOptions, RunOutcome } from "./run-form.js";

type Ui = ExtensionContext["ui"];
type Step = { label: string; events: FormEvent[] };

const DONE = "✓ Done";
const NEXT = "→ Next question";
const NOTE = "✎ Write a note on an option";
const SUBMIT_NOTES = "✎ Additional notes";

function answerText(q: QuestionSpec, actor: Actor<FormMachine>, k: number): string {
  const c = actor.getSnapshot().context;
  if (!c.answered[k]) return q.required ? "(unanswered)" : "(skipped)";
  const parts = c.picks[k].options.map((i) => sanitizeLine(q.options[i].label));
  return [...parts, ...c.picks[k].custom.map((t) => `✎ ${sanitizeLine(t)}`)].join(", ") || "(no choice)";
}

function summary(spec: FormSpec, actor: Actor<FormMachine>): string {
  const c = actor.getSnapshot().context;
  const lines = spec.questions
    .map((q, k) => (isVisible(spec, c, k) ? `${k + 1}. ${sanitizeLine(q.label)}: ${answerText(q, actor, k)}` : ""))
    .filter(Boolean);
  if (c.additionalText.trim()) lines.push(`Additional notes: ${sanitizeLine(c.additionalText)}`);
  return lines.join("\n");
}

/** The rows of a question as select entries, with what each one sends. */
function questionSteps(spec: FormSpec, k: number, actor: Actor<FormMachine>): Step[] {
  const q = spec.questions[k];
  const c = actor.getSnapshot().context;
  const picks = c.picks[k];
  const steps: Step[] = [];
  for (let r = 0; r < rowCount(q, picks); r++) {
    const row = rowAt(q, picks, r)!;
    let label: string;
    if (row.kind === "option") {
      const o = q.options[row.index];
      const mark = q.kind === "multi" ? (picks.options.includes(row.index) ? "[x] " : "[ ] ") : "";
      label = `${mark}${sanitizeLine(optionText(q, row.index))}${o.recommended ? " ★ recommended" : ""}${o.description ? ` — ${sanitizeLine(o.description)}` : ""}`;
    } else if (row.kind === "chip") {
      label = `[x] ✎ ${sanitizeLine(picks.custom[row.index])}`;
    } else {
      const typed = q.kind === "single" ? picks.custom[0] : undefined;
      label = `${r + 1}. ${typed !== undefined ? `✎ ${sanitizeLine(typed)}` : OTHER_LABEL}`;
    }
    steps.push({ label, events: [{ type: "SELECT", row: r }] });
  }
  if (q.kind === "multi") steps.push({ label: DONE, events: [{ type: "CONFIRM" }] });
  if (q.notes && q.options.length) steps.push({ label: NOTE, events: [] });
  if (isTabbed(spec)) steps.push({ label: NEXT, events: [{ type: "NEXT_TAB" }] });
  return steps;
}

function title(spec: FormSpec, k: number): string {
  const q = spec.questions[k];
  const where = isTabbed(spec) ? `(${k + 1}/${spec.questions.length}) ` : "";
  const extra = [q.recommendation && `Recommendation: ${q.recommendation}`, q.caveats && `Caveats: ${q.caveats}`]
    .filter(Boolean)
    .map((t) => ` — ${sanitizeLine(t as string)}`);
  return `${where}${sanitizeLine(q.prompt)}${extra.join("")}`;
}

/** Ask one dialog for the current step and send the machine what it answered (a dismissed dialog is Esc). */
async function step(ui: Ui, spec: FormSpec, actor: Actor<FormMachine>, signal: AbortSignal | undefined): Promise<void> {
  const snapshot = actor.getSnapshot();
  const position = formPosition(snapshot.value);
  const c = snapshot.context;
  const opts = { signal };
  const send = (...events: FormEvent[]) => events.forEach((e) => actor.send(e));

  if (position.kind === "waiting") {
    await waitFor(actor, (s) => s.status !== "active" || formPosition(s.value).kind !== "waiting");
    return;
  }
  if (position.kind === "review") {
    if (position.mode === "writing") {
      const text = await ui.input("Additional notes for the answers (optional)", c.additionalText || undefined, opts);
      if (text === undefined) return send({ type: "CANCEL" });
      return send({ type: "TYPE", text }, { type: "SUBMIT_TEXT", text });
    }
    if (canSubmit(spec, c) && (await ui.confirm("Submit these answers?", summary(spec, actor), opts)))
      return send({ type: "CONFIRM" });
    if (signal?.aborted) return;
    const open = spec.questions
      .filter((q, k) => q.required && !c.answered[k] && isVisible(spec, c, k))
      .map((q) => sanitizeLine(q.label));
    const changes: Step[] = spec.questions
      .map(
        (q, k): Step => ({
          label: `Change ${k + 1}. ${sanitizeLine(q.label)}: ${answerText(q, actor, k)}`,
          events: [{ type: "SELECT", row: k }],
        }),
      )
      .filter((_, k) => isVisible(spec, c, k));
    if (spec.additionalNotes) changes.push({ label: SUBMIT_NOTES, events: [{ type: "NOTE" }] });
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
        ? `Your note on "${sanitizeLine(q.options[c.cursors[k]]?.label ?? "")}"`
        : `${title(spec, k)}${problems.length ? ` — ${problems.join(" ")}` : ""}`;
    const text = await ui.input(prompt, current || q.placeholder, opts);
    if (text === undefined) return send({ type: "CANCEL" });
    // A typed answer the checks refuse stays in its editor: the next round asks again and says why.
    return send({ type: "TYPE", text }, { type: "SUBMIT_TEXT", text });
  }

  const steps = questionSteps(spec, k, actor);
  const picked = await ui.select(
    title(spec, k),
    steps.map((s) => s.label),
    opts,
  );
  const chosen = steps.find((s) => s.label === picked);
  if (!chosen) return send({ type: "CANCEL" });
  if (chosen.label === NOTE) {
    const options = q.options.map((o, i) => `${i + 1}. ${sanitizeLine(o.label)}`);
    const which = await ui.select("A note on which option?", options, opts);
    const index = options.indexOf(which ?? "");
    if (index < 0) return;
    return send({ type: "MOVE", delta: index - c.cursors[k] }, { type: "NOTE" });
  }
  send(...chosen.events);
}

/** Drive a form through dialogs until it is submitted or cancelled. */
export async function runDialogs(
  ctx: ExtensionContext,
  spec: FormSpec,
  options: RunOptions = {},
): Promise<Extract<RunOutcome, { kind: "done" }>> {
  const actor = createActor(createFormMachine(spec, { restore: options.restore })).start();
  const { signal } = options;
  const onAbort = () => actor.send({ type: "ABORT" });
  signal?.addEventListener("abort", onAbort, { once: true });
  try {
    if (options.notice) ctx.ui.notify(options.notice, "info");
    while (actor.getSnapshot().status === "active" && !signal?.aborted) await step(ctx.ui, spec, actor, signal);
    if (actor.getSnapshot().status === "active") actor.send({ type: "ABORT" });
  } finally {
    signal?.removeEventListener("abort", onAbort);
  }
  const end = actor.getSnapshot();
  return {
    kind: "done",
    result: end.output ?? formResult(spec, { ...end.context, outcome: "cancelled" }),
    context: end.context,
  };
}
