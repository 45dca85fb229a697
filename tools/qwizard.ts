/**
 * Facades of `questionnaire`, `question_branch`, `question_input` and
 * `question_throttle`: each maps its arguments onto the one form engine and
 * the engine's `FormResult` onto its own `details` and text.
 *
 * Result shapes (see docs/api.md):
 * - questionnaire: `{questions: [{id, label, prompt}], answers: [{id, value, label, wasCustom, index?}], cancelled}`;
 *   `value`/`label` are arrays for multi-select, `index` is 1-based;
 * - question_branch: the same plus `skipped` (ids hidden by their conditions);
 * - question_input: `{question, answer, validationErrors?, cancelled}`;
 * - question_throttle: `{question, options, answer, wasCustom, index?, throttled, cancelled}`.
 * A call that cannot open a form adds `error` (a stable category) and says why in the text.
 */
import type { ExtensionAPI, ExtensionContext } from "@mariozechner/pi-coding-agent";
import { Text } from "@mariozechner/pi-tui";
import type { TSchema } from "typebox";
import type { FormResult, QuestionOutcome } from "../machines/form.js";
import { type FormSpec, normalizeForm, type QuestionInput, type QuestionSpec } from "../machines/spec.js";
import { sanitize, sanitizeLine } from "../renderers/text.js";
import type { FormTheme } from "../renderers/theme.js";
import {
  branchParameters,
  type CheckedItem,
  checkBranchArgs,
  checkInputArgs,
  checkQuestionnaireArgs,
  checkThrottleArgs,
  inputParameters,
  questionnaireParameters,
  type ThrottleArgs,
  throttleParameters,
} from "../schemas/qwizard.js";
import type { Checked } from "../schemas/validate.js";
import { answerLine, NO_UI_MESSAGE } from "./question.js";
import type { FormchartState } from "./state.js";

export const RATING_LABELS = ["Poor", "Fair", "Good", "Very good", "Excellent"];

/** The options a question type brings with it. */
export function optionsFor(item: CheckedItem): Array<{ label: string; description?: string }> {
  if (item.type === "yes_no") return [{ label: "Yes" }, { label: "No" }];
  if (item.type === "rating") return RATING_LABELS.map((description, i) => ({ label: String(i + 1), description }));
  return item.options;
}

export function questionnaireSpec(items: CheckedItem[]): FormSpec {
  return normalizeForm({
    questions: items.map(
      (q): QuestionInput => ({
        id: q.id,
        label: q.label,
        prompt: q.prompt,
        options: optionsFor(q),
        // A typed answer to a yes/no or a rating is rarely wanted: off unless asked for.
        allowOther: q.allowOther ?? (q.type === "yes_no" || q.type === "rating" ? false : undefined),
        multiple: q.type === "multi",
        required: q.required,
        autoAdvance: q.autoAdvance,
        when: q.conditions,
        on: q.on,
      }),
    ),
  });
}

export interface QuestionnaireAnswer {
  id: string;
  value: string | string[];
  label: string | string[];
  wasCustom: boolean;
  index?: number;
}

export interface QuestionnaireDetails {
  questions: Array<{ id: string; label: string; prompt: string }>;
  answers: QuestionnaireAnswer[];
  cancelled: boolean;
  skipped?: string[];
  error?: string;
}

/** An answer's chosen option labels in option order, then its typed values; empty when unanswered. */
function chosenLabels(q: QuestionSpec, outcome: QuestionOutcome): string[] {
  return outcome.answered ? [...outcome.options.map((i) => q.options[i].label), ...outcome.custom] : [];
}

function questionnaireAnswer(q: QuestionSpec, outcome: QuestionOutcome): QuestionnaireAnswer | undefined {
  if (!outcome.answered) return undefined;
  const labels = chosenLabels(q, outcome);
  const wasCustom = outcome.custom.length > 0;
  if (q.kind === "multi") return { id: q.id, value: labels, label: labels, wasCustom };
  const answer: QuestionnaireAnswer = { id: q.id, value: labels[0] ?? "", label: labels[0] ?? "", wasCustom };
  if (!wasCustom && outcome.options.length) answer.index = outcome.options[0] + 1;
  return answer;
}

function questionSummaries(spec: FormSpec): QuestionnaireDetails["questions"] {
  return spec.questions.map((q) => ({ id: q.id, label: q.label, prompt: q.prompt }));
}

export function questionnaireDetails(spec: FormSpec, result: FormResult, branch: boolean): QuestionnaireDetails {
  const details: QuestionnaireDetails = {
    questions: questionSummaries(spec),
    answers: spec.questions.flatMap((q, i) => questionnaireAnswer(q, result.answers[i]) ?? []),
    cancelled: result.cancelled,
  };
  if (branch) details.skipped = result.skipped;
  return details;
}

export function questionnaireText(spec: FormSpec, result: FormResult): string {
  const shown = spec.questions
    .map((q, i) => [q, result.answers[i]] as const)
    .filter(([q]) => !result.skipped.includes(q.id));
  const lines = shown.filter(([, a]) => !result.cancelled || a.answered).map(([q, a]) => answerLine(q, a));
  const skipped = result.skipped.length ? [`Skipped by conditions: ${result.skipped.join(", ")}`] : [];
  if (!result.cancelled) return [...lines, ...skipped].join("\n");
  if (lines.length === 0) return "User cancelled the questionnaire without answering. Treat this as a declined answer.";
  return ["User cancelled the questionnaire. Answers given before cancelling:", ...lines].join("\n");
}

export interface InputDetails {
  question: string;
  answer: string | null;
  validationErrors?: string[];
  cancelled: boolean;
  error?: string;
}

export interface ThrottleDetails {
  question: string;
  options: string[];
  answer: string | string[] | null;
  wasCustom: boolean;
  index?: number;
  throttled: boolean;
  cancelled: boolean;
  error?: string;
}

type ToolResult<D> = { content: Array<{ type: "text"; text: string }>; details: D };

function result<D>(text: string, details: D): ToolResult<D> {
  return { content: [{ type: "text", text }], details };
}

/** Run a checked form: wait as the question clock says, open it, and hand back the result or why it did not open. */
async function ask(
  state: FormchartState,
  ctx: ExtensionContext,
  spec: FormSpec,
  toolCallId: string,
  signal: AbortSignal | undefined,
  ownCooldownSeconds = 0,
): Promise<{ ok: true; result: FormResult } | { ok: false; category: string; message: string }> {
  const waited = { ...spec, waitMs: state.waitFor(toolCallId, ownCooldownSeconds) };
  const outcome = await state.runForm(ctx, waited, signal);
  if (outcome.kind === "no-ui") return { ok: false, category: "no_ui", message: NO_UI_MESSAGE };
  return { ok: true, result: outcome.result };
}

function errorText(category: string, message: string): string {
  return `Error (${category}): ${message}`;
}

function questionnaireTool(pi: ExtensionAPI, state: FormchartState, branch: boolean): void {
  const name = branch ? "question_branch" : "questionnaire";
  const check: (raw: unknown) => Checked<CheckedItem[]> = branch ? checkBranchArgs : checkQuestionnaireArgs;
  pi.registerTool({
    name,
    label: branch ? "Branching questions" : "Questionnaire",
    description: branch
      ? "Ask up to 4 questions where later questions depend on earlier answers (when: 'field_id operator value'; on: true/false). " +
        "Hidden questions are skipped and listed in details.skipped."
      : "Ask up to 4 related questions as one tabbed questionnaire with a progress indicator and a Submit tab. " +
        "Types: single, multi, yes_no (Yes/No generated), rating (1-5 generated).",
    promptSnippet: branch
      ? "Ask up to 4 questions where later ones depend on earlier answers"
      : "Ask up to 4 related questions in one tabbed questionnaire (single, multi, yes_no, rating)",
    promptGuidelines: branch
      ? ["Use question_branch when a follow-up question only makes sense for some answers to an earlier question."]
      : [
          "Use questionnaire to collect up to 4 related decisions at once; use yes_no and rating types instead of listing those options yourself.",
        ],
    parameters: (branch ? branchParameters : questionnaireParameters) as unknown as TSchema,
    executionMode: "sequential",
    async execute(toolCallId, params, signal, _onUpdate, ctx) {
      const checked = check(params);
      if (!checked.ok) {
        const details: QuestionnaireDetails = {
          questions: [],
          answers: [],
          cancelled: true,
          error: checked.error.category,
        };
        if (branch) details.skipped = [];
        return result(errorText(checked.error.category, checked.error.message), details);
      }
      const spec = questionnaireSpec(checked.value);
      const asked = await ask(state, ctx, spec, toolCallId, signal);
      if (!asked.ok) {
        const details: QuestionnaireDetails = {
          questions: questionSummaries(spec),
          answers: [],
          cancelled: true,
          error: asked.category,
        };
        if (branch) details.skipped = [];
        return result(errorText(asked.category, asked.message), details);
      }
      return result(questionnaireText(spec, asked.result), questionnaireDetails(spec, asked.result, branch));
    },
    renderCall: (args, theme) => new Text(callLine(name, args, theme), 0, 0),
    renderResult: (r, _options, theme) =>
      new Text(resultLine(r.details as Record<string, unknown> | undefined, r.content, theme), 0, 0),
  });
}

export function inputSpec(args: {
  question: string;
  placeholder?: string;
  required?: boolean;
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  type?: "text" | "number" | "email" | "date";
}): FormSpec {
  return normalizeForm({
    questions: [
      {
        prompt: args.question,
        options: [],
        kind: "text",
        required: args.required,
        placeholder: args.placeholder,
        text: {
          type: args.type ?? "text",
          minLength: args.minLength,
          maxLength: args.maxLength,
          pattern: args.pattern,
        },
      },
    ],
  });
}

export function inputResult(spec: FormSpec, form: FormResult): ToolResult<InputDetails> {
  const question = spec.questions[0].prompt;
  if (form.cancelled) {
    return result<InputDetails>("User cancelled the question without answering. Treat this as a declined answer.", {
      question,
      answer: null,
      cancelled: true,
    });
  }
  const answer = form.answers[0].custom[0] ?? "";
  return result<InputDetails>(answer === "" ? "User left the answer empty." : `User answered: ${answer}`, {
    question,
    answer,
    cancelled: false,
  });
}

function inputTool(pi: ExtensionAPI, state: FormchartState): void {
  pi.registerTool({
    name: "question_input",
    label: "Question (typed answer)",
    description:
      "Ask the user for a typed answer, checked while they type: type text, number, email or date (YYYY-MM-DD), " +
      "minLength/maxLength and pattern on the trimmed answer. Enter is refused until the answer is valid.",
    promptSnippet: "Ask the user for a typed, validated answer (text, number, email, date)",
    promptGuidelines: [
      "Use question_input when the answer is free text (a name, a number, a date) rather than a choice between options.",
    ],
    parameters: inputParameters as unknown as TSchema,
    executionMode: "sequential",
    async execute(toolCallId, params, signal, _onUpdate, ctx) {
      const checked = checkInputArgs(params);
      const question =
        typeof (params as { question?: unknown })?.question === "string"
          ? (params as { question: string }).question
          : "";
      if (!checked.ok) {
        return result<InputDetails>(errorText(checked.error.category, checked.error.message), {
          question,
          answer: null,
          validationErrors: [checked.error.message],
          cancelled: true,
          error: checked.error.category,
        });
      }
      const spec = inputSpec(checked.value);
      const asked = await ask(state, ctx, spec, toolCallId, signal);
      if (!asked.ok)
        return result<InputDetails>(errorText(asked.category, asked.message), {
          question,
          answer: null,
          cancelled: true,
          error: asked.category,
        });
      return inputResult(spec, asked.result);
    },
    renderCall: (args, theme) => new Text(callLine("question_input", args, theme), 0, 0),
    renderResult: (r, _options, theme) =>
      new Text(resultLine(r.details as Record<string, unknown> | undefined, r.content, theme), 0, 0),
  });
}

export const DEFAULT_THROTTLE_COOLDOWN = 5;

/** The form of a throttled question; `waitMs` is set by whoever knows how long to wait. */
export function throttleSpec(args: ThrottleArgs): FormSpec {
  return normalizeForm({
    questions: [
      { prompt: args.question, options: args.options, allowOther: args.allowOther, multiple: args.type === "multi" },
    ],
  });
}

export function throttleResult(spec: FormSpec, form: FormResult): ToolResult<ThrottleDetails> {
  const q = spec.questions[0];
  const outcome = form.answers[0];
  const labels = chosenLabels(q, outcome);
  const details: ThrottleDetails = {
    question: q.prompt,
    options: q.options.map((o) => o.label),
    answer: labels.length === 0 ? null : q.kind === "multi" ? labels : labels[0],
    wasCustom: outcome.custom.length > 0,
    throttled: form.waited,
    cancelled: form.cancelled,
  };
  if (q.kind === "single" && outcome.options.length) details.index = outcome.options[0] + 1;
  const text = form.cancelled
    ? "User cancelled the question. Treat this as a declined answer."
    : answerLine({ ...q, label: "Answer" }, outcome);
  return result(text, details);
}

function throttleTool(pi: ExtensionAPI, state: FormchartState): void {
  pi.registerTool({
    name: "question_throttle",
    label: "Question (throttled)",
    description:
      "Ask one multiple-choice question, but not sooner than cooldown seconds (default 5) after the previous question; " +
      "the user sees a countdown they can cancel. details.throttled tells whether it waited.",
    promptSnippet: "Ask one multiple-choice question, spaced out from the previous one by a cooldown",
    promptGuidelines: [
      "Use question_throttle for check-in questions in a long task so the user is not asked questions back to back.",
    ],
    parameters: throttleParameters as unknown as TSchema,
    executionMode: "sequential",
    async execute(toolCallId, params, signal, _onUpdate, ctx) {
      const checked = checkThrottleArgs(params);
      const raw = (params ?? {}) as { question?: unknown; options?: Array<{ label?: unknown }> };
      const fallback: ThrottleDetails = {
        question: typeof raw.question === "string" ? raw.question : "",
        options: Array.isArray(raw.options) ? raw.options.map((o) => String(o?.label ?? "")) : [],
        answer: null,
        wasCustom: false,
        throttled: false,
        cancelled: true,
      };
      if (!checked.ok)
        return result(errorText(checked.error.category, checked.error.message), {
          ...fallback,
          error: checked.error.category,
        });
      const args = checked.value;
      const spec = throttleSpec(args);
      const asked = await ask(state, ctx, spec, toolCallId, signal, args.cooldown ?? DEFAULT_THROTTLE_COOLDOWN);
      if (!asked.ok) return result(errorText(asked.category, asked.message), { ...fallback, error: asked.category });
      return throttleResult(spec, asked.result);
    },
    renderCall: (args, theme) => new Text(callLine("question_throttle", args, theme), 0, 0),
    renderResult: (r, _options, theme) =>
      new Text(resultLine(r.details as Record<string, unknown> | undefined, r.content, theme), 0, 0),
  });
}

function callLine(name: string, args: unknown, theme: FormTheme): string {
  const a = (args ?? {}) as { question?: unknown; questions?: Array<{ label?: unknown; id?: unknown }> };
  const title = theme.fg("accent", theme.bold(`${name} `));
  if (typeof a.question === "string") return title + theme.fg("muted", sanitizeLine(a.question).slice(0, 200));
  if (Array.isArray(a.questions)) {
    const labels = a.questions.map((q, i) => sanitizeLine(String(q?.label ?? q?.id ?? `Q${i + 1}`))).join(", ");
    return (
      title +
      theme.fg(
        "muted",
        `${a.questions.length} question${a.questions.length === 1 ? "" : "s"} (${labels.slice(0, 200)})`,
      )
    );
  }
  return title;
}

function resultLine(
  details: Record<string, unknown> | undefined,
  content: Array<{ type: string; text?: string }>,
  theme: FormTheme,
): string {
  const text = sanitize(content.find((c) => c.type === "text")?.text ?? "");
  if (!details || details.error) return theme.fg("error", text);
  if (details.cancelled) return theme.fg("warning", text);
  return theme.fg("success", "✓ ") + text;
}

export function registerQwizard(pi: ExtensionAPI, state: FormchartState, enabled: (name: string) => boolean): void {
  if (enabled("questionnaire")) questionnaireTool(pi, state, false);
  if (enabled("question_input")) inputTool(pi, state);
  if (enabled("question_throttle")) throttleTool(pi, state);
  if (enabled("question_branch")) questionnaireTool(pi, state, true);
}
