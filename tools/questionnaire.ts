/**
 * `questionnaire`: up to four related questions as tabs with a progress
 * indicator and a Submit tab; types `single`, `multi`, `yes_no` (Yes/No
 * generated) and `rating` (1–5 generated, Poor to Excellent).
 *
 * `details`: `{questions: [{id, label, prompt}], answers: [{id, value, label,
 * wasCustom, index?, previewed?}], cancelled}`; `value`/`label` are arrays for
 * multi-select, `index` is 1-based. `question_branch` (question-branch.ts)
 * shares all of this and adds `skipped` (the questions its conditions hid
 * while the person moved through the form) and `hidden` (the ones hidden
 * when the form closed: they were not asked).
 */
import type { FormResult, QuestionOutcome } from "../machines/context.js";
import { type FormSpec, normalizeForm, type QuestionInput, type QuestionSpec } from "../machines/spec.js";
import { checkAsWritten, prepareWith } from "../schemas/aliases.js";
import {
  type CheckedItem,
  type CheckedQuestionnaire,
  checkQuestionnaireArgs,
  QuestionnaireParameters,
} from "../schemas/qwizard.js";
import {
  answerLine,
  cancelledText,
  chosenLabels,
  outcomeFields,
  previewedOptions,
  quoted,
  type TimedOutFields,
  timedOutText,
} from "./answer-text.js";
import {
  BY_TIMEOUT,
  defineFormTool,
  describeCall,
  type Failure,
  type FormTool,
  type ResultSummary,
} from "./form-tool.js";
import { optionsFromStrings } from "./prepare.js";

export const RATING_LABELS = ["Poor", "Fair", "Good", "Very good", "Excellent"];

/** The options a question type brings with it. */
function optionsFor(item: CheckedItem): Array<{ label: string; description?: string }> {
  if (item.type === "yes_no") return [{ label: "Yes" }, { label: "No" }];
  if (item.type === "rating") return RATING_LABELS.map((description, i) => ({ label: String(i + 1), description }));
  return item.options;
}

export function questionnaireForm(args: CheckedQuestionnaire): FormSpec {
  return normalizeForm({
    questions: args.questions.map(
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
  /** 1-based positions of the chosen options that had a preview. */
  previewed?: number[];
  /** Taken at the timeout: the option marked recommended, not the person's choice. */
  defaulted?: true;
}

export interface QuestionnaireDetails extends TimedOutFields {
  questions: Array<{ id: string; label: string; prompt: string }>;
  answers: QuestionnaireAnswer[];
  cancelled: boolean;
  skipped?: string[];
  hidden?: string[];
  error?: string;
}

function questionnaireAnswer(q: QuestionSpec, outcome: QuestionOutcome): QuestionnaireAnswer | undefined {
  if (!outcome.answered) return undefined;
  const labels = chosenLabels(q, outcome);
  const wasCustom = outcome.custom.length > 0;
  const previewed = previewedOptions(q, outcome);
  const answer: QuestionnaireAnswer =
    q.kind === "multi"
      ? { id: q.id, value: labels, label: labels, wasCustom }
      : { id: q.id, value: labels[0] ?? "", label: labels[0] ?? "", wasCustom };
  if (q.kind !== "multi" && !wasCustom && outcome.options.length) answer.index = outcome.options[0] + 1;
  if (previewed.length) answer.previewed = previewed;
  return answer;
}

function summaries(spec: FormSpec): QuestionnaireDetails["questions"] {
  return spec.questions.map((q) => ({ id: q.id, label: q.label, prompt: q.prompt }));
}

/** The details of a questionnaire; `branch` adds the ids its conditions hid. */
export function questionnaireDetails(spec: FormSpec, result: FormResult, branch: boolean): QuestionnaireDetails {
  const defaulted = new Set(result.defaulted ?? []);
  const details: QuestionnaireDetails = {
    questions: summaries(spec),
    answers: spec.questions.flatMap((q, i) => {
      const answer = questionnaireAnswer(q, result.answers[i]);
      if (!answer) return [];
      return defaulted.has(q.id) ? [{ ...answer, defaulted: true as const }] : [answer];
    }),
    ...outcomeFields(result),
  };
  if (branch) Object.assign(details, { skipped: result.skipped, hidden: result.hidden });
  return details;
}

export function questionnaireText(spec: FormSpec, result: FormResult): string {
  if (result.timedOut) return timedOutText(spec, result);
  const shown = spec.questions
    .map((q, i) => [q, result.answers[i]] as const)
    .filter(([q]) => !result.hidden.includes(q.id));
  const lines = shown.filter(([, a]) => !result.cancelled || a.answered).map(([q, a]) => answerLine(q, a));
  const skipped = result.hidden.length ? [`Skipped by conditions: ${result.hidden.map(quoted).join(", ")}`] : [];
  if (!result.cancelled) return [...lines, ...skipped].join("\n");
  return cancelledText("questionnaire", lines);
}

export function questionnaireFailure(
  failure: Failure,
  spec: FormSpec | undefined,
  branch: boolean,
): QuestionnaireDetails {
  const details: QuestionnaireDetails = {
    questions: spec ? summaries(spec) : [],
    answers: [],
    cancelled: true,
    error: failure.category,
  };
  if (branch) Object.assign(details, { skipped: [], hidden: [] });
  return details;
}

export function questionnaireSummary(d: QuestionnaireDetails): ResultSummary {
  if (d.error) return { kind: "error" };
  const labelOf = new Map(d.questions.map((q) => [q.id, q.label]));
  const answers = d.answers.map((a) => ({
    label: labelOf.get(a.id) ?? a.id,
    value: (Array.isArray(a.label) ? a.label.join(", ") : a.label) + (a.defaulted ? BY_TIMEOUT : ""),
  }));
  return { kind: "answers", cancelled: d.cancelled, timedOut: d.outcome === "timed_out", answers };
}

/** What sets a questionnaire-like tool apart: its name, texts, schema and check. */
type OwnParts = Pick<
  FormTool<CheckedQuestionnaire, QuestionnaireDetails>,
  | "name"
  | "label"
  | "description"
  | "searchHint"
  | "promptSnippet"
  | "promptGuidelines"
  | "parameters"
  | "prepareArguments"
  | "check"
>;

/** A tool that asks a questionnaire; `branch` adds `details.skipped` (question_branch). */
export function questionnaireTool(
  own: OwnParts,
  branch: boolean,
): FormTool<CheckedQuestionnaire, QuestionnaireDetails> {
  return defineFormTool({
    ...own,
    form: questionnaireForm,
    timeoutSeconds: (args) => args.timeout,
    answer: (_args, spec, result) => ({
      text: questionnaireText(spec, result),
      details: questionnaireDetails(spec, result, branch),
    }),
    failure: (failure, _raw, spec) => questionnaireFailure(failure, spec, branch),
    callSummary: describeCall,
    resultSummary: questionnaireSummary,
  });
}

export const questionnaire = questionnaireTool(
  {
    name: "questionnaire",
    label: "Questionnaire",
    description:
      "Ask up to 4 related questions as one tabbed questionnaire with a progress indicator and a Submit tab. " +
      "Types: single, multi, yes_no (Yes/No generated), rating (1-5 generated).",
    searchHint: "up to 4 questions, yes/no, rating",
    promptSnippet: "Ask up to 4 related questions in one tabbed questionnaire (single, multi, yes_no, rating)",
    promptGuidelines: [
      "Use questionnaire to collect up to 4 related decisions at once; use yes_no and rating types instead of listing those options yourself.",
    ],
    parameters: QuestionnaireParameters,
    prepareArguments: prepareWith(optionsFromStrings),
    check: checkAsWritten(checkQuestionnaireArgs, optionsFromStrings),
  },
  false,
);
