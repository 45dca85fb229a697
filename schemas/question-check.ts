/** The check of `question`'s arguments: the engine's, not Pi's start (the declaration is question.ts). */
import { checkAsWritten } from "./aliases-check.js";
import { isRecord } from "./fields.js";
import { foldSingleQuestion, type QuestionArgs, QuestionParameters } from "./question.js";
import { checkItems, normalizeStrings } from "./rules.js";
import { type ArgumentError, type Checked, compileChecker } from "./validate.js";

const checkSchema = compileChecker(QuestionParameters);

/** A `type` left over from the single-question shape is not one it knows. */
function leftoverType(args: unknown): ArgumentError | undefined {
  if (!isRecord(args) || args.compat !== "single-question" || !Array.isArray(args.questions)) return undefined;
  const item = args.questions[0];
  if (!isRecord(item) || !("type" in item)) return undefined;
  return {
    category: "invalid_arguments",
    message: 'Invalid arguments: questions[0].type: must be one of "single", "multi"',
  };
}

/** Arguments already folded: the schema, line endings normalized, then the rules (one option at least). */
export function checkFoldedQuestion(raw: unknown): Checked<QuestionArgs> {
  const type = leftoverType(raw);
  if (type) return { ok: false, error: type };
  const checked = checkSchema(raw);
  if (!checked.ok) return checked;
  const args = normalizeStrings(checked.value);
  const error = checkItems(args.questions, { listName: "questions", minOptions: 1 });
  return error ? { ok: false, error } : { ok: true, value: args };
}

export const checkQuestionArgs = checkAsWritten(checkFoldedQuestion, foldSingleQuestion);
