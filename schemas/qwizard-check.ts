/**
 * The checks of qwizard's tools (declared in qwizard.ts). Limits that carry
 * an error category (more than four questions, fewer than two options …) are
 * rules after the schema, so the model gets the category, not a bare failure.
 */
import type { Condition } from "./conditions.js";
import { parseWhen } from "./conditions-check.js";
import { compilePattern } from "./patterns.js";
import {
  BranchParameters,
  type InputArgs,
  InputParameters,
  type QuestionnaireItemArgs,
  QuestionnaireParameters,
  type QwizardType,
  type ThrottleArgs,
  ThrottleParameters,
} from "./qwizard.js";
import { checkItems, normalizeStrings, questionId } from "./rules.js";
import { type Checked, compileChecker } from "./validate.js";

export const MAX_QUESTIONS = 4;

export interface CheckedItem extends Omit<QuestionnaireItemArgs, "when"> {
  conditions?: Condition[];
}

export interface CheckedQuestionnaire {
  questions: CheckedItem[];
  timeout?: number;
}

const checkQuestionnaireSchema = compileChecker(QuestionnaireParameters);
const checkBranchSchema = compileChecker(BranchParameters);
const checkInputSchema = compileChecker(InputParameters);
const checkThrottleSchema = compileChecker(ThrottleParameters);

const isGenerated = (type: QwizardType | undefined) => type === "yes_no" || type === "rating";

function checkItemsOf(items: QuestionnaireItemArgs[], timeout: number | undefined): Checked<CheckedQuestionnaire> {
  const error = checkItems(
    items.map((q) => ({ id: q.id, prompt: q.prompt, options: q.options, generatedOptions: isGenerated(q.type) })),
    { listName: "questions", maxQuestions: MAX_QUESTIONS, minOptions: 2, uniquePrompts: true },
  );
  if (error) return { ok: false, error };
  const ids = items.map((q, i) => questionId(q.id, i));
  const out: CheckedItem[] = [];
  for (const [i, q] of items.entries()) {
    const { when, ...rest } = q;
    const item: CheckedItem = rest;
    if (when !== undefined && q.on === undefined) {
      const parsed = parseWhen(when, i, ids);
      if (!Array.isArray(parsed)) return { ok: false, error: parsed };
      item.conditions = parsed;
    }
    out.push(item);
  }
  if (out.every((q) => q.on === false)) {
    return {
      ok: false,
      error: { category: "empty_questionnaire", message: "questions: every question is switched off (on: false)" },
    };
  }
  return { ok: true, value: timeout === undefined ? { questions: out } : { questions: out, timeout } };
}

export function checkQuestionnaireArgs(raw: unknown): Checked<CheckedQuestionnaire> {
  const checked = checkQuestionnaireSchema(raw);
  if (!checked.ok) return checked;
  const args = normalizeStrings(checked.value);
  return checkItemsOf(args.questions, args.timeout);
}

export function checkBranchArgs(raw: unknown): Checked<CheckedQuestionnaire> {
  const checked = checkBranchSchema(raw);
  if (!checked.ok) return checked;
  const args = normalizeStrings(checked.value);
  return checkItemsOf(args.questions, args.timeout);
}

export function checkInputArgs(raw: unknown): Checked<InputArgs> {
  const checked = checkInputSchema(raw);
  if (!checked.ok) return checked;
  const args = normalizeStrings(checked.value);
  if (args.minLength !== undefined && args.maxLength !== undefined && args.minLength > args.maxLength) {
    return {
      ok: false,
      error: {
        category: "invalid_arguments",
        message: `minLength: ${args.minLength} is larger than maxLength ${args.maxLength}`,
      },
    };
  }
  if ((args.min !== undefined || args.max !== undefined) && args.type !== "number") {
    return {
      ok: false,
      error: {
        category: "invalid_arguments",
        message: `${args.min !== undefined ? "min" : "max"}: a range applies to type "number" only`,
      },
    };
  }
  if (args.min !== undefined && args.max !== undefined && args.min > args.max) {
    return {
      ok: false,
      error: { category: "invalid_arguments", message: `min: ${args.min} is larger than max ${args.max}` },
    };
  }
  if (args.pattern !== undefined) {
    const compiled = compilePattern(args.pattern);
    if (!compiled.ok)
      return { ok: false, error: { category: "invalid_pattern", message: `pattern: ${compiled.reason}` } };
  }
  return { ok: true, value: args };
}

export function checkThrottleArgs(raw: unknown): Checked<ThrottleArgs> {
  const checked = checkThrottleSchema(raw);
  if (!checked.ok) return checked;
  const args = normalizeStrings(checked.value);
  const error = checkItems([{ prompt: args.question, options: args.options }], {
    listName: "questions",
    minOptions: 1,
  });
  if (error) return { ok: false, error: { ...error, message: error.message.replace(/^questions\[0\]\./, "") } };
  return { ok: true, value: args };
}
