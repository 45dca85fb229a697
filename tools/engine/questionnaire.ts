/** `questionnaire` and `question_branch` once called. */
import type { FormResult, QuestionOutcome } from "../../machines/context.js";
import { type FormSpec, normalizeForm, type QuestionInput, type QuestionSpec } from "../../machines/spec.js";
import { checkAsWritten } from "../../schemas/aliases-check.js";
import type { Condition } from "../../schemas/conditions.js";
import {
  type CheckedItem,
  type CheckedQuestionnaire,
  checkBranchArgs,
  checkQuestionnaireArgs,
} from "../../schemas/qwizard-check.js";
import type { ToolManifest } from "../manifest.js";
import { unnestBranch } from "../prepare.js";
import {
  questionBranch as branchManifest,
  type QuestionnaireAnswer,
  type QuestionnaireDetails,
  questionnaire as questionnaireManifest,
} from "../questionnaire.js";
import {
  answerLine,
  cancelledText,
  chosenLabels,
  notesLine,
  outcomeFields,
  partialLine,
  previewedOptions,
  quoted,
  timedOutText,
} from "./answer-text.js";
import { defineFormTool, type Failure, type FormTool } from "./form-tool.js";
import { failureOutcome, outcomeOf } from "./outcome.js";

export const RATING_LABELS = ["Poor", "Fair", "Good", "Very good", "Excellent"];

function optionsFor(item: CheckedItem): Array<{ label: string; description?: string }> {
  if (item.type === "yes_no") return [{ label: "Yes" }, { label: "No" }];
  if (item.type === "rating") return RATING_LABELS.map((description, i) => ({ label: String(i + 1), description }));
  return item.options;
}

export function questionnaireForm(args: CheckedQuestionnaire): FormSpec {
  return normalizeForm({
    additionalNotes: true,
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
        when: q.conditions?.map((c) => onYesNo(c, args.questions)),
        on: q.on,
      }),
    ),
  });
}

const YES_NO: Readonly<Record<string, string>> = { true: "Yes", yes: "Yes", false: "No", no: "No" };

/** On a yes/no question `true`, `"yes"` and `"YES"` mean its answer Yes (and `false`, `"no"`, No), as a model writes them. */
function onYesNo(condition: Condition, questions: readonly CheckedItem[]): Condition {
  const field = questions.find((q) => q.id === condition.field);
  if (field?.type !== "yes_no" || condition.value === undefined) return condition;
  const answer = (v: string) => YES_NO[v.trim().toLowerCase()] ?? v;
  const value = Array.isArray(condition.value) ? condition.value.map(answer) : answer(condition.value);
  return { ...condition, value };
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
  if (!result.cancelled && result.additionalText) details.additionalText = result.additionalText;
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
  if (!result.cancelled) {
    const partial = outcomeOf(result) === "partial" ? [partialLine(spec, result)] : [];
    return [...partial, ...lines, ...skipped, ...notesLine(result)].join("\n");
  }
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
    outcome: failureOutcome(failure.category),
    error: failure.category,
  };
  if (branch) Object.assign(details, { skipped: [], hidden: [] });
  return details;
}

function questionnaireTool(
  manifest: ToolManifest<QuestionnaireDetails>,
  check: FormTool<CheckedQuestionnaire, QuestionnaireDetails>["check"],
  branch: boolean,
): FormTool<CheckedQuestionnaire, QuestionnaireDetails> {
  return defineFormTool(manifest, {
    check,
    form: questionnaireForm,
    timeoutSeconds: (args) => args.timeout,
    answer: (_args, spec, result) => ({
      text: questionnaireText(spec, result),
      details: questionnaireDetails(spec, result, branch),
    }),
    failure: (failure, _raw, spec) => questionnaireFailure(failure, spec, branch),
  });
}

export const questionnaire = questionnaireTool(questionnaireManifest, checkAsWritten(checkQuestionnaireArgs), false);
export const questionBranch = questionnaireTool(branchManifest, checkAsWritten(checkBranchArgs, unnestBranch), true);
