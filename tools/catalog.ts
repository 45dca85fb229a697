/**
 * Every tool's form, without Pi: arguments → checked → `FormSpec`, and a
 * `FormResult` → the tool's text and `details`. The demo (`npm start`), the
 * visualizer and the example path tests run any tool's arguments through this
 * table; the registered tools use the same functions.
 */
import type { FormResult } from "../machines/form.js";
import type { FormSpec } from "../machines/spec.js";
import { checkQuestionArgs } from "../schemas/question.js";
import { checkBranchArgs, checkInputArgs, checkQuestionnaireArgs, checkThrottleArgs } from "../schemas/qwizard.js";
import { checkRichArgs } from "../schemas/rich.js";
import type { ArgumentError } from "../schemas/validate.js";
import { questionDetails, questionFormSpec, questionText } from "./question.js";
import {
  DEFAULT_THROTTLE_COOLDOWN,
  inputResult,
  inputSpec,
  questionnaireDetails,
  questionnaireSpec,
  questionnaireText,
  throttleResult,
  throttleSpec,
} from "./qwizard.js";
import { formatRichAnswers, normalizeRich, RICH_CANCELLED_TEXT, richDetails, richFormSpec } from "./rich.js";

export interface PreparedForm {
  spec: FormSpec;
  /** The tool's text and details for a result of this form. */
  answer(result: FormResult): { text: string; details: unknown };
}

/** A registered tool's `{content, details}` as the catalog's `{text, details}`. */
const asAnswer = (r: { content: Array<{ text: string }>; details: unknown }) => ({
  text: r.content[0].text,
  details: r.details,
});

type Prepare = (args: unknown) => { ok: true; form: PreparedForm } | { ok: false; error: ArgumentError };

export const TOOL_FORMS: Record<string, Prepare> = {
  question(args) {
    const c = checkQuestionArgs(args);
    if (!c.ok) return c;
    const spec = questionFormSpec(c.value);
    const single = c.value.compat === "single-question";
    return {
      ok: true,
      form: { spec, answer: (r) => ({ text: questionText(spec, r), details: questionDetails(spec, r, single) }) },
    };
  },
  questionnaire(args) {
    const c = checkQuestionnaireArgs(args);
    if (!c.ok) return c;
    const spec = questionnaireSpec(c.value);
    return {
      ok: true,
      form: {
        spec,
        answer: (r) => ({ text: questionnaireText(spec, r), details: questionnaireDetails(spec, r, false) }),
      },
    };
  },
  question_branch(args) {
    const c = checkBranchArgs(args);
    if (!c.ok) return c;
    const spec = questionnaireSpec(c.value);
    return {
      ok: true,
      form: {
        spec,
        answer: (r) => ({ text: questionnaireText(spec, r), details: questionnaireDetails(spec, r, true) }),
      },
    };
  },
  question_input(args) {
    const c = checkInputArgs(args);
    if (!c.ok) return c;
    const spec = inputSpec(c.value);
    return { ok: true, form: { spec, answer: (r) => asAnswer(inputResult(spec, r)) } };
  },
  question_throttle(args) {
    const c = checkThrottleArgs(args);
    if (!c.ok) return c;
    // Outside Pi there is no earlier question: show the full cooldown.
    const spec = { ...throttleSpec(c.value), waitMs: (c.value.cooldown ?? DEFAULT_THROTTLE_COOLDOWN) * 1000 };
    return { ok: true, form: { spec, answer: (r) => asAnswer(throttleResult(spec, r)) } };
  },
  ask_rich_questions(args) {
    const c = checkRichArgs(args);
    if (!c.ok) return c;
    const rich = normalizeRich(c.value);
    const spec = richFormSpec(rich);
    return {
      ok: true,
      form: {
        spec,
        answer: (r) => {
          const details = richDetails(rich, r);
          return { text: details.cancelled ? RICH_CANCELLED_TEXT : formatRichAnswers(details), details };
        },
      },
    };
  },
};

/**
 * A form file: `{"tool": "<name>", "arguments": {...}}`, or bare `question`
 * arguments. Returns the prepared form or a message saying what is wrong.
 */
export function prepareFormFile(
  content: unknown,
): { ok: true; tool: string; form: PreparedForm } | { ok: false; message: string } {
  const wrapped = content && typeof content === "object" && "tool" in content && "arguments" in content;
  const tool = wrapped ? String((content as { tool: unknown }).tool) : "question";
  const args = wrapped ? (content as { arguments: unknown }).arguments : content;
  const prepare = Object.hasOwn(TOOL_FORMS, tool) ? TOOL_FORMS[tool] : undefined;
  if (!prepare) return { ok: false, message: `unknown tool "${tool}" (one of ${Object.keys(TOOL_FORMS).join(", ")})` };
  const prepared = prepare(args);
  if (!prepared.ok) return { ok: false, message: `${prepared.error.message} [${prepared.error.category}]` };
  return { ok: true, tool, form: prepared.form };
}
