/**
 * The `question` tool's facade: its arguments → `FormSpec`, and a `FormResult`
 * → the tool's `details` and the text the model reads.
 *
 * `details` is `{questions, answers, cancelled}`: one answer per chosen option
 * or typed text, `index` 1-based as in the text the model reads and absent for
 * typed answers. A call in the single-question shape also carries
 * `question`, `options`, `answer`, `wasCustom` and `index` of that question.
 * The text groups each question's answers on one line:
 * `Scope: user selected: 1. A, 2. B, user wrote: X`.
 */
import type { ExtensionAPI } from "@mariozechner/pi-coding-agent";
import { Text } from "@mariozechner/pi-tui";
import type { TSchema } from "typebox";
import type { FormResult, QuestionOutcome } from "../machines/form.js";
import { type FormSpec, normalizeForm, optionText, type QuestionSpec } from "../machines/spec.js";
import { sanitize, sanitizeLine } from "../renderers/text.js";
import type { FormTheme } from "../renderers/theme.js";
import { checkQuestionArgs, foldSingleQuestion, type QuestionArgs, questionParameters } from "../schemas/question.js";
import type { FormchartState } from "./state.js";

export interface NormalizedQuestion {
  id: string;
  label: string;
  prompt: string;
  options: Array<{ label: string; description?: string }>;
  allowOther: boolean;
  multiple: boolean;
}

export interface QuestionAnswer {
  id: string;
  label: string;
  wasCustom: boolean;
  /** 1-based position of the chosen option; absent for typed answers. */
  index?: number;
}

export interface QuestionDetails {
  questions: NormalizedQuestion[];
  answers: QuestionAnswer[];
  cancelled: boolean;
  /** Set when the form could not open: a stable category. */
  error?: string;
  // The single-question call shape adds these:
  question?: string;
  options?: string[];
  answer?: string | string[] | null;
  wasCustom?: boolean;
  index?: number;
}

export function questionFormSpec(args: QuestionArgs): FormSpec {
  return normalizeForm({
    questions: args.questions.map((q) => ({
      id: q.id,
      label: q.label,
      prompt: q.prompt,
      options: q.options,
      allowOther: q.allowOther,
      multiple: q.multiple,
    })),
  });
}

export function normalizedQuestions(spec: FormSpec): NormalizedQuestion[] {
  return spec.questions.map((q) => ({
    id: q.id,
    label: q.label,
    prompt: q.prompt,
    options: q.options.map((o) =>
      o.description ? { label: o.label, description: o.description } : { label: o.label },
    ),
    allowOther: q.allowOther,
    multiple: q.kind === "multi",
  }));
}

function answersOf(q: QuestionSpec, outcome: QuestionOutcome): QuestionAnswer[] {
  if (!outcome.answered) return [];
  return [
    ...outcome.options.map((i) => ({ id: q.id, label: q.options[i].label, wasCustom: false, index: i + 1 })),
    ...outcome.custom.map((text) => ({ id: q.id, label: text, wasCustom: true })),
  ];
}

export function questionDetails(spec: FormSpec, result: FormResult, singleShape: boolean): QuestionDetails {
  const details: QuestionDetails = {
    questions: normalizedQuestions(spec),
    answers: spec.questions.flatMap((q, i) => answersOf(q, result.answers[i])),
    cancelled: result.cancelled,
  };
  if (singleShape) Object.assign(details, singleShapeFields(spec.questions[0], result.answers[0]));
  return details;
}

function singleShapeFields(q: QuestionSpec, outcome: QuestionOutcome | undefined) {
  const answers = outcome ? answersOf(q, outcome) : [];
  const base = { question: q.prompt, options: q.options.map((o) => o.label) };
  if (answers.length === 0) return { ...base, answer: null, wasCustom: false };
  if (q.kind === "multi") {
    return { ...base, answer: answers.map((a) => a.label), wasCustom: answers.some((a) => a.wasCustom) };
  }
  const [a] = answers;
  return a.index === undefined
    ? { ...base, answer: a.label, wasCustom: true }
    : { ...base, answer: a.label, wasCustom: false, index: a.index };
}

/** One line per question: `Label: user selected: 1. A, 2. B, user wrote: X`. */
export function answerLine(q: QuestionSpec, outcome: QuestionOutcome): string {
  if (!outcome.answered) return `${q.label}: ${q.required ? "(no answer)" : "(skipped)"}`;
  const parts: string[] = [];
  if (outcome.options.length) {
    parts.push(`user selected: ${outcome.options.map((i) => optionText(q, i)).join(", ")}`);
  }
  if (outcome.custom.length) parts.push(`user wrote: ${outcome.custom.join(", ")}`);
  return `${q.label}: ${parts.join(", ") || "(no choice)"}`;
}

export function questionText(spec: FormSpec, result: FormResult): string {
  if (!result.cancelled) return spec.questions.map((q, i) => answerLine(q, result.answers[i])).join("\n");
  const given = spec.questions.flatMap((q, i) =>
    result.answers[i].answered ? [answerLine(q, result.answers[i])] : [],
  );
  if (given.length === 0) return "User cancelled the form without answering. Treat this as a declined answer.";
  return ["User cancelled the form. Answers given before cancelling:", ...given].join("\n");
}

// ---------------------------------------------------------------------------
// Registration

export const QUESTION_DESCRIPTION =
  "Ask the user one or more multiple-choice questions in an interactive form. One question shows an option list; " +
  "several show a tabbed form with a Submit tab. Every question can also take a typed answer ('Type something.') " +
  "unless allowOther is false; multiple: true asks for one or more choices. Returns the answers as text and in details.";

export const QUESTION_GUIDELINES = [
  "Use question when you need the user to decide, pick between options, or confirm a decision, instead of ending your reply with a question in plain text.",
  "Ask all open questions in one question call, one entry per question in questions[]; they appear as tabs with a Submit tab.",
  "Give each question 2-5 short options, with a one-line description where the choice is not obvious; set multiple: true for 'which of these apply' questions.",
  "A cancelled question result means the user declined: do not re-ask unless the answer is needed for the next step, and change the question when you do.",
];

export function errorResult(category: string, message: string, singleShape = false) {
  const details: QuestionDetails = { questions: [], answers: [], cancelled: true, error: category };
  if (singleShape) Object.assign(details, { answer: null, wasCustom: false });
  return { content: [{ type: "text" as const, text: `Error (${category}): ${message}` }], details };
}

export const NO_UI_MESSAGE =
  "the interactive form needs Pi's terminal UI, which this mode (print or JSON) does not have. Ask the question in plain text instead.";

export function registerQuestion(pi: ExtensionAPI, state: FormchartState): void {
  pi.registerTool({
    name: "question",
    label: "Question",
    description: QUESTION_DESCRIPTION,
    promptSnippet: "Ask the user multiple-choice questions in an interactive form (tabs, multi-select, typed answers)",
    promptGuidelines: QUESTION_GUIDELINES,
    parameters: questionParameters as unknown as TSchema,
    executionMode: "sequential",
    prepareArguments: (args) => foldSingleQuestion(args) as never,
    async execute(toolCallId, params, signal, _onUpdate, ctx) {
      const checked = checkQuestionArgs(params);
      if (!checked.ok) return errorResult(checked.error.category, checked.error.message, isSingleShape(params));
      const singleShape = checked.value.compat === "single-question";
      const spec = { ...questionFormSpec(checked.value), waitMs: state.waitFor(toolCallId) };
      const outcome = await state.runForm(ctx, spec, signal);
      if (outcome.kind === "no-ui") return errorResult("no_ui", NO_UI_MESSAGE, singleShape);
      return {
        content: [{ type: "text", text: questionText(spec, outcome.result) }],
        details: questionDetails(spec, outcome.result, singleShape),
      };
    },
    renderCall(args, theme) {
      return new Text(callSummary(args, theme), 0, 0);
    },
    renderResult(result, _options, theme) {
      return new Text(resultSummary(result.details as QuestionDetails | undefined, result.content, theme), 0, 0);
    },
  });
}

function isSingleShape(params: unknown): boolean {
  return typeof params === "object" && params !== null && (params as { compat?: unknown }).compat === "single-question";
}

/** `question 2 questions (Scope, Checks)` or `question Which database?` */
export function callSummary(args: unknown, theme: FormTheme): string {
  const title = theme.fg("accent", theme.bold("question "));
  const questions = (args as { questions?: unknown })?.questions;
  if (!Array.isArray(questions)) return title;
  if (questions.length === 1)
    return title + theme.fg("muted", sanitizeLine(String(questions[0]?.prompt ?? "")).slice(0, 200));
  const labels = questions.map((q, i) => sanitizeLine(String(q?.label ?? `Q${i + 1}`))).join(", ");
  return title + theme.fg("muted", `${questions.length} questions (${labels.slice(0, 200)})`);
}

/** One line per answered question, or the error / cancellation. */
export function resultSummary(
  details: QuestionDetails | undefined,
  content: Array<{ type: string; text?: string }>,
  theme: FormTheme,
): string {
  if (!details || details.error) {
    const text = content.find((c) => c.type === "text")?.text ?? "";
    return theme.fg("error", sanitize(text));
  }
  const lines: string[] = [];
  if (details.cancelled) lines.push(theme.fg("warning", "Cancelled"));
  for (const q of details.questions) {
    const answers = details.answers.filter((a) => a.id === q.id);
    if (answers.length === 0) continue;
    const text = answers
      .map((a) => (a.wasCustom ? `✎ ${sanitizeLine(a.label)}` : `${a.index}. ${sanitizeLine(a.label)}`))
      .join(", ");
    lines.push(`${theme.fg("success", "✓ ")}${theme.fg("accent", sanitizeLine(q.label))}: ${text}`);
  }
  return lines.join("\n") || theme.fg("muted", "No answers");
}
