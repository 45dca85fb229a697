/**
 * Forms at the tools' own limits (scripts/limit-forms.ts: 50 `question`
 * questions, 20 `ask_rich_questions` questions, 4 `question_branch`
 * questions whose conditions use every operator), made as the tools make
 * them from those arguments.
 */
import type { FormSpec } from "../../machines/spec.js";
import { branchingArguments, questionArguments, richArguments } from "../../scripts/limit-forms.js";
import { prepareFormFile } from "../../tools/engine/catalog.js";

export { questionArguments } from "../../scripts/limit-forms.js";

function prepared(content: unknown): FormSpec {
  const result = prepareFormFile(content);
  if (!result.ok) throw new Error(result.message);
  return result.form.spec;
}

export function questionsAtLimit(n = 50): FormSpec {
  return prepared({ tool: "question", arguments: questionArguments(n) });
}

export function richAtLimit(n = 20): FormSpec {
  return prepared({ tool: "ask_rich_questions", arguments: richArguments(n) });
}

export function branchingWithEveryOperator(): FormSpec {
  return prepared({ tool: "question_branch", arguments: branchingArguments() });
}
