/**
 * Every form tool as the engine runs it, in the order of their manifests
 * (tools/catalog.ts, what Pi registers). Tool calls, the demo (`npm start`),
 * the visualizer, the review pages and the example path tests prepare forms
 * through these.
 */
import { askForm } from "./ask-form.js";
import { type AnyFormTool, fullCooldown, type PreparedForm, prepareForm } from "./form-tool.js";
import { question } from "./question.js";
import { questionInput } from "./question-input.js";
import { questionThrottle } from "./question-throttle.js";
import { questionBranch, questionnaire } from "./questionnaire.js";
import { askRichQuestions } from "./rich.js";

export const FORM_TOOLS: readonly AnyFormTool[] = [
  question,
  questionnaire,
  questionInput,
  questionThrottle,
  questionBranch,
  askRichQuestions,
  askForm,
];

export function formTool(name: string): AnyFormTool | undefined {
  return FORM_TOOLS.find((t) => t.name === name);
}

/**
 * A form file: `{"tool": "<name>", "arguments": {...}}`, or bare `question`
 * arguments. Returns the prepared form or a message saying what is wrong.
 * Outside Pi there is no earlier question: a throttled form shows its full cooldown.
 */
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
