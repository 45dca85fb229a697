/** Every form tool as the engine runs it, keyed on the manifests' names: a manifest without its behaviour does not compile. */
import { MANIFESTS, type ToolName } from "../catalog.js";
import { askForm } from "./ask-form.js";
import { type AnyFormTool, fullCooldown, type PreparedForm, prepareForm } from "./form-tool.js";
import { question } from "./question.js";
import { questionInput } from "./question-input.js";
import { questionThrottle } from "./question-throttle.js";
import { questionBranch, questionnaire } from "./questionnaire.js";
import { askRichQuestions } from "./rich.js";

const BEHAVIOURS: Record<ToolName, AnyFormTool> = {
  question,
  questionnaire,
  question_input: questionInput,
  question_throttle: questionThrottle,
  question_branch: questionBranch,
  ask_rich_questions: askRichQuestions,
  ask_form: askForm,
};

/** In the manifests' order. */
export const FORM_TOOLS: readonly AnyFormTool[] = MANIFESTS.map((manifest) => BEHAVIOURS[manifest.name]);

export function formTool(name: string): AnyFormTool | undefined {
  return Object.hasOwn(BEHAVIOURS, name) ? BEHAVIOURS[name as ToolName] : undefined;
}

/** `{"tool": "<name>", "arguments": {...}}`, or bare `question` arguments; a throttled form shows its full cooldown. */
export function prepareFormFile(
  content: unknown,
): { ok: true; tool: string; form: PreparedForm } | { ok: false; message: string } {
  const wrapped = content && typeof content === "object" && "tool" in content && "arguments" in content;
  const name = wrapped ? String((content as { tool: unknown }).tool) : "question";
  const raw = wrapped ? (content as { arguments: unknown }).arguments : content;
  const tool = formTool(name);
  if (!tool)
    return { ok: false, message: `unknown tool "${name}" (one of ${FORM_TOOLS.map((t) => t.name).join(", ")})` };
  const prepared = prepareForm(tool, raw, { waitMs: fullCooldown(tool) });
  if (!prepared.ok) return { ok: false, message: `${prepared.error.message} [${prepared.error.category}]` };
  return { ok: true, tool: name, form: prepared.form };
}
