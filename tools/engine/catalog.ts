/** Every form tool as the engine runs it, keyed on the manifests' names: a manifest without its behaviour does not compile. */
import { valueKind } from "../../renderers/text.js";
import { MANIFESTS, type ToolName } from "../catalog.js";
import { readFormText } from "../form-files.js";
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

type FileCall = { ok: true; tool: AnyFormTool; raw: unknown } | { ok: false; message: string };

/** A form file's JSON, `{"tool": "<name>", "arguments": {...}}` or bare `question` arguments, as a call. */
export function formFileCall(content: unknown): FileCall {
  const wrapped = content && typeof content === "object" && "tool" in content && "arguments" in content;
  const name = wrapped ? (content as { tool: unknown }).tool : "question";
  const raw = wrapped ? (content as { arguments: unknown }).arguments : content;
  if (typeof name !== "string")
    return { ok: false, message: `"tool" must be a tool name (a string) such as "question"; got ${valueKind(name)}` };
  const tool = formTool(name);
  if (!tool)
    return {
      ok: false,
      message: `unknown tool "${name.slice(0, 60)}" (one of ${FORM_TOOLS.map((t) => t.name).join(", ")})`,
    };
  return { ok: true, tool, raw };
}

/** The call in a form file, or why there is none (the message names the file). */
export function readFormCall(file: string): FileCall {
  const read = readFormText(file);
  if (!read.ok) return read;
  let content: unknown;
  try {
    content = JSON.parse(read.text);
  } catch (error) {
    return { ok: false, message: `Cannot read a form from ${file}: ${(error as Error).message}` };
  }
  const call = formFileCall(content);
  return call.ok ? call : { ok: false, message: `${file}: ${call.message}` };
}

/** A form file's form outside Pi: a throttled form shows its full cooldown. */
export function prepareFormFile(
  content: unknown,
): { ok: true; tool: string; form: PreparedForm } | { ok: false; message: string } {
  const call = formFileCall(content);
  if (!call.ok) return call;
  const prepared = prepareForm(call.tool, call.raw, { waitMs: fullCooldown(call.tool) });
  if (!prepared.ok) return { ok: false, message: `${prepared.error.message} [${prepared.error.category}]` };
  return { ok: true, tool: call.tool.name, form: prepared.form };
}
