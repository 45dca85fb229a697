/** `question_throttle` once called: one multiple-choice question, not sooner than its cooldown after the last. */
import type { FormResult } from "../../machines/context.js";
import { type FormSpec, normalizeForm } from "../../machines/spec.js";
import { checkAsWritten } from "../../schemas/aliases-check.js";
import type { ThrottleArgs } from "../../schemas/qwizard.js";
import { checkThrottleArgs } from "../../schemas/qwizard-check.js";
import { questionThrottle as manifest, type ThrottleDetails } from "../question-throttle.js";
import { answerLine, byPrompt, cancelledText, chosenLabels, outcomeFields, timedOutText } from "./answer-text.js";
import { defineFormTool } from "./form-tool.js";
import { failureOutcome } from "./outcome.js";

export const DEFAULT_THROTTLE_COOLDOWN = 5;

function formOf(args: ThrottleArgs): FormSpec {
  return normalizeForm({
    questions: [
      { prompt: args.question, options: args.options, allowOther: args.allowOther, multiple: args.type === "multi" },
    ],
  });
}

function answer(spec: FormSpec, form: FormResult) {
  const q = spec.questions[0];
  // A cancel reports no answer (as its text says), whatever was picked before it.
  const given = form.answers[0];
  const outcome = form.cancelled && !form.timedOut ? { ...given, answered: false, options: [], custom: [] } : given;
  const labels = chosenLabels(q, outcome);
  const details: ThrottleDetails = {
    question: q.prompt,
    options: q.options.map((o) => o.label),
    answer: labels.length === 0 ? null : q.kind === "multi" ? labels : labels[0],
    wasCustom: outcome.custom.length > 0,
    throttled: form.waited,
    ...outcomeFields(form),
  };
  if (q.kind === "single" && outcome.options.length) details.index = outcome.options[0] + 1;
  if (form.timedOut) return { text: timedOutText(spec, form, byPrompt), details };
  return { text: form.cancelled ? cancelledText("question", []) : answerLine(q, outcome, "Answer"), details };
}

export const questionThrottle = defineFormTool<ThrottleArgs, ThrottleDetails>(manifest, {
  check: checkAsWritten(checkThrottleArgs),
  form: formOf,
  cooldownSeconds: (args) => args.cooldown ?? DEFAULT_THROTTLE_COOLDOWN,
  timeoutSeconds: (args) => args.timeout,
  answer: (_args, spec, result) => answer(spec, result),
  failure(failure, raw) {
    const r = (raw ?? {}) as { question?: unknown; options?: unknown };
    return {
      question: typeof r.question === "string" ? r.question : "",
      options: Array.isArray(r.options) ? r.options.map((o) => String((o as { label?: unknown })?.label ?? "")) : [],
      answer: null,
      wasCustom: false,
      throttled: false,
      cancelled: true,
      outcome: failureOutcome(failure.category),
      error: failure.category,
    };
  },
});
