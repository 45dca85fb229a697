/** `ask_rich_questions` once called; its result contract is docs/result-contract.md. */
import type { FormResult } from "../../machines/context.js";
import { type FormSpec, normalizeForm, type QuestionSpec } from "../../machines/spec.js";
import { checkAsWritten } from "../../schemas/aliases-check.js";
import type { RichArgs } from "../../schemas/rich.js";
import { checkRichArgs } from "../../schemas/rich-check.js";
import { questionId } from "../../schemas/rules.js";
import type { Checked } from "../../schemas/validate.js";
import {
  askRichQuestions as manifest,
  type RichAnswer,
  type RichDetails,
  type RichForm,
  type RichFormResult,
} from "../rich.js";
import { timedOutFields, timedOutText } from "./answer-text.js";
import { defineFormTool } from "./form-tool.js";
import { failureOutcome, partialSentence } from "./outcome.js";

export function normalizeRich(args: RichArgs): RichForm {
  const description = [args.description, args.context].filter((t): t is string => !!t && t.trim() !== "").join("\n\n");
  const form: RichForm = {
    questions: args.questions.map((q, i) => ({
      ...q,
      id: questionId(q.id, i),
      type: q.type ?? "radio",
      label: q.label ?? `Q${i + 1}`,
      required: q.required !== false,
      allowOther: q.type === "text" ? false : q.allowOther === true,
      options: (q.options ?? []).map((o) => ({ ...o, value: o.value ?? o.label })),
    })),
  };
  if (args.title) form.title = args.title;
  if (description) form.description = description;
  if (args.timeout !== undefined) form.timeout = args.timeout;
  return form;
}

function caveatsText(caveats: string | string[] | undefined): string | undefined {
  if (caveats === undefined) return undefined;
  const text = Array.isArray(caveats) ? caveats.join("\n") : caveats;
  return text.trim() === "" ? undefined : text;
}

export function richFormSpec(form: RichForm): FormSpec {
  return normalizeForm({
    title: form.title,
    description: form.description,
    alwaysReview: true,
    additionalNotes: true,
    questions: form.questions.map((q) => ({
      id: q.id,
      label: q.label,
      prompt: q.prompt,
      kind: q.type === "checkbox" ? "multi" : q.type === "text" ? "text" : "single",
      options: q.options,
      allowOther: q.allowOther,
      required: q.required,
      notes: true,
      placeholder: q.placeholder,
      body: q.body ?? q.details,
      context: q.context,
      recommendation: q.recommendation,
      caveats: caveatsText(q.caveats),
    })),
  });
}

export function richDetails(form: RichForm, result: FormResult): RichFormResult {
  const answers = form.questions.map((q, k): RichAnswer => {
    const outcome = result.answers[k];
    const notes = result.notes[k] ?? {};
    const optionNotes = Object.entries(notes)
      .map(([i, note]) => ({ optionIndex: Number(i), note: note.trim() }))
      .filter(
        ({ optionIndex, note }) =>
          note !== "" && Number.isInteger(optionIndex) && optionIndex >= 0 && optionIndex < q.options.length,
      )
      .sort((a, b) => a.optionIndex - b.optionIndex)
      .map(({ optionIndex, note }) => ({
        optionIndex,
        value: q.options[optionIndex].value,
        label: q.options[optionIndex].label,
        note,
      }));
    const custom = outcome.custom;
    let answer: RichAnswer;
    if (q.type === "text") {
      answer = { id: q.id, type: "text", value: custom[0] ?? "", wasCustom: true };
    } else {
      const indexes = [...outcome.options].sort((a, b) => a - b);
      const values = indexes.map((i) => q.options[i].value);
      answer = {
        id: q.id,
        type: q.type,
        value: q.type === "checkbox" ? [...values, ...custom] : (custom[0] ?? values[0] ?? ""),
        wasCustom: custom.length > 0,
        selectedOptionIndexes: indexes,
      };
      if (custom.length) answer.customValue = custom.join(", ");
    }
    if (optionNotes.length) answer.optionNotes = optionNotes;
    return answer;
  });
  // The contract keeps `cancelled` and its texts; the outcome is added beside them.
  const details: RichFormResult = {
    questions: form.questions,
    answers,
    cancelled: result.cancelled,
    ...timedOutFields(result),
  };
  if (form.title) details.title = form.title;
  if (form.description) details.description = form.description;
  if (result.additionalText) details.additionalText = result.additionalText;
  return details;
}

/**
 * `Field: value`, continuation lines indented two spaces past the field. The
 * indent of a continuation is spaces only: a list marker (`  - `) starts an
 * entry once, and a value's second line never reads as another entry.
 */
function field(indent: string, name: string, value: string): string[] {
  const [first, ...rest] = value.split("\n");
  const under = " ".repeat(indent.length + 2);
  return [`${indent}${name}: ${first}`, ...rest.map((line) => `${under}${line}`)];
}

/** A typed text answer: `(empty)` when there is none, and a typed "(empty)" quoted so the two never read alike. */
function textAnswer(value: string): string {
  if (value.trim() === "") return "(empty)";
  return value.trim() === "(empty)" ? JSON.stringify(value) : value;
}

function indented(indent: string, value: string): string[] {
  return value.split("\n").map((line) => `${indent}${line}`);
}

export function formatRichAnswers(details: RichFormResult): string {
  const out: string[] = details.outcome === "partial" ? [partialSentence()] : [];
  if (details.title) out.push(...field("", "Form", details.title));
  if (details.description) out.push(...field("", "Context", details.description));
  if (out.length) out.push("");
  details.questions.forEach((q, k) => {
    const a = details.answers[k];
    if (k > 0) out.push("");
    out.push(`Question ${k + 1} (${q.id})`, `Type: ${q.type}`, ...field("", "Q", q.prompt));
    const body = q.body ?? q.details;
    if (body) out.push(...field("", "Details", body));
    if (q.context) out.push(...field("", "Context", q.context));
    if (q.recommendation) out.push(...field("", "Recommendation", q.recommendation));
    const caveats = caveatsText(q.caveats);
    if (caveats) out.push(...field("", "Caveats", caveats));
    if (q.type === "text") {
      const value = typeof a.value === "string" ? a.value : "";
      out.push("Answer:", ...indented("  ", textAnswer(value)));
      return;
    }
    const selected = new Set(a.selectedOptionIndexes ?? []);
    const noteOf = new Map((a.optionNotes ?? []).map((n) => [n.optionIndex, n.note]));
    out.push("Presented options:");
    q.options.forEach((o, i) => {
      const [firstLine, ...moreLines] = o.label.split("\n");
      out.push(`  ${i + 1}. ${firstLine}`, ...moreLines.map((line) => `       ${line}`));
      out.push(...field("     ", "Value", o.value));
      out.push(`     Selected: ${selected.has(i) ? "yes" : "no"}`, `     Recommended: ${o.recommended ? "yes" : "no"}`);
      if (o.description) out.push(...field("     ", "Description", o.description));
      if (o.details) out.push(...field("     ", "Details", o.details));
      if (o.note) out.push(...field("     ", "Presenter note", o.note));
      const note = noteOf.get(i);
      if (note) out.push(...field("     ", "User note", note));
    });
    if (q.allowOther) {
      out.push(`  ${q.options.length + 1}. Other / custom answer`, `     Selected: ${a.wasCustom ? "yes" : "no"}`);
      if (a.customValue !== undefined) out.push(...field("     ", "Custom value", a.customValue));
    }
    out.push("Selected answer:");
    const entries: string[] = [];
    for (const i of a.selectedOptionIndexes ?? []) {
      const o = q.options[i];
      entries.push(...field("  - ", "Label", o.label), ...field("    ", "Value", o.value));
      const note = noteOf.get(i);
      if (note) entries.push(...field("    ", "User note", note));
    }
    if (a.customValue !== undefined) entries.push(...field("  - ", "Custom answer", a.customValue));
    out.push(...(entries.length ? entries : ["  (none)"]));
  });
  if (details.additionalText) out.push("", "Additional notes:", ...indented("  ", details.additionalText));
  return out.join("\n");
}

export const RICH_CANCELLED_TEXT = "User cancelled the form; nothing was submitted.";

export function checkRichForm(raw: unknown): Checked<RichForm> {
  const checked = checkRichArgs(raw);
  return checked.ok ? { ok: true, value: normalizeRich(checked.value) } : checked;
}

export const askRichQuestions = defineFormTool<RichForm, RichDetails>(manifest, {
  check: checkAsWritten(checkRichForm),
  form: richFormSpec,
  timeoutSeconds: (form) => form.timeout,
  answer(form, spec, result) {
    const details = richDetails(form, result);
    if (details.outcome === "timed_out") {
      // Each question named as the answered text names it.
      const nameOf = (q: QuestionSpec) => `Question ${spec.questions.indexOf(q) + 1} (${q.id})`;
      return { text: timedOutText(spec, result, nameOf), details };
    }
    return { text: details.cancelled ? RICH_CANCELLED_TEXT : formatRichAnswers(details), details };
  },
  // The contract's minimal shape: no UI and no questions carry no category; other refusals name theirs.
  failure: (failure) =>
    failure.category === "no_ui" || failure.category === "empty_questionnaire"
      ? { cancelled: true, outcome: failureOutcome(failure.category) }
      : { cancelled: true, outcome: "error", error: failure.category },
});
