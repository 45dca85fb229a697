/**
 * `questionnaire`: up to four related questions as tabs; `question_branch`,
 * the same with questions that depend on earlier answers. Its `details` add
 * `skipped` (hidden while the person moved through the form) and `hidden`
 * (hidden when it closed: not asked).
 */
import { BranchParameters, QuestionnaireParameters } from "../schemas/qwizard.js";
import type { OutcomeFields } from "./engine/answer-text.js";
import { BY_TIMEOUT, defineManifest, describeCall, type ResultSummary } from "./manifest.js";
import { optionsFromStrings } from "./prepare.js";

export interface QuestionnaireAnswer {
  id: string;
  value: string | string[];
  label: string | string[];
  wasCustom: boolean;
  index?: number;
  /** 1-based. */
  previewed?: number[];
  /** Taken at the timeout: the option marked recommended, not the person's choice. */
  defaulted?: true;
}

export interface QuestionnaireDetails extends OutcomeFields {
  questions: Array<{ id: string; label: string; prompt: string }>;
  answers: QuestionnaireAnswer[];
  cancelled: boolean;
  skipped?: string[];
  hidden?: string[];
  /** Submitted forms only. */
  additionalText?: string;
  error?: string;
}

function questionnaireSummary(d: QuestionnaireDetails): ResultSummary {
  if (d.error) return { kind: "error" };
  const labelOf = new Map(d.questions.map((q) => [q.id, q.label]));
  const answers = d.answers.map((a) => ({
    label: labelOf.get(a.id) ?? a.id,
    value: (Array.isArray(a.label) ? a.label.join(", ") : a.label) + (a.defaulted ? BY_TIMEOUT : ""),
  }));
  return { kind: "answers", cancelled: d.cancelled, answers };
}

export const questionnaire = defineManifest({
  name: "questionnaire",
  label: "Questionnaire",
  description:
    "Up to 4 related questions in tabs; yes_no and rating (1-5) need no options. allowOther, required, autoAdvance: default true.",
  promptSnippet: "Tabbed questionnaire of up to 4 questions",
  promptGuidelines: [],
  parameters: QuestionnaireParameters,
  folds: [optionsFromStrings],
  callSummary: describeCall,
  resultSummary: questionnaireSummary,
});

export const questionBranch = defineManifest({
  name: "question_branch",
  label: "Branching questions",
  description: "Up to 4 questions; one with when shows only if it holds for earlier answers.",
  promptSnippet: "Questions with conditional follow-ups",
  promptGuidelines: [],
  parameters: BranchParameters,
  // A nested `branch` is unnested by the check (tools/engine/questionnaire.ts), after Pi's: Pi would name a
  // wrong type in it by the unnested path, which the model never wrote.
  folds: [optionsFromStrings],
  callSummary: describeCall,
  resultSummary: questionnaireSummary,
});
