/** `ask_form` once called: the JSON Schema as a form, the result as MCP's action with the submitted content. */
import type { FormResult } from "../../machines/context.js";
import type { FormSpec } from "../../machines/spec.js";
import { checkAsWritten } from "../../schemas/aliases-check.js";
import { type CheckedAskForm, checkFoldedAskForm } from "../../schemas/ask-form-check.js";
import { type AskFormDetails, askForm as manifest } from "../ask-form.js";
import { jsonLine, timedOutHeadline } from "./answer-text.js";
import { defineFormTool } from "./form-tool.js";
import { cancelledSentence, failureOutcome, partialSentence } from "./outcome.js";
import { elicitResult, schemaForm } from "./schema-form.js";

export function fieldName(name: string): string {
  return /^[A-Za-z_][\w.-]{0,199}$/.test(name) ? name : jsonLine(name);
}

/** What was declined, by its title (else its message) and the fields it asked for. */
function declinedText(args: CheckedAskForm): string {
  const named = args.title ?? args.form.title ?? args.message;
  const what = jsonLine(named.length > 200 ? `${named.slice(0, 199)}…` : named);
  const fields = args.form.fields.map((f) => fieldName(f.name));
  return fields.length
    ? `User declined the form ${what}: they chose not to give ${fields.join(", ")}.`
    : `User declined ${what}: they did not confirm it.`;
}

function text(args: CheckedAskForm, details: AskFormDetails): string {
  if (details.action === "decline") return declinedText(args);
  if (details.action === "cancel") return cancelledSentence("form", false);
  const content = details.content ?? {};
  const open = args.form.fields.filter((field) => !Object.hasOwn(content, field.name)).map((f) => fieldName(f.name));
  const lines = args.form.fields.map((field) => {
    const has = Object.hasOwn(content, field.name);
    return `${fieldName(field.name)}: ${has ? jsonLine(content[field.name]) : "(no answer)"}`;
  });
  return [details.outcome === "partial" ? partialSentence(open) : "User submitted the form:", ...lines].join("\n");
}

function answer(args: CheckedAskForm, spec: FormSpec, result: FormResult) {
  if (result.timedOut) {
    const details: AskFormDetails = { action: "cancel", outcome: "timed_out" };
    return { text: timedOutHeadline(spec), details };
  }
  const details: AskFormDetails = elicitResult(args.form, result);
  return { text: text(args, details), details };
}

export const askForm = defineFormTool<CheckedAskForm, AskFormDetails>(manifest, {
  check: checkAsWritten(checkFoldedAskForm),
  form: (args): FormSpec => schemaForm(args.form, args.message, args.title),
  timeoutSeconds: (args) => args.timeout,
  answer: (args, spec, result) => answer(args, spec, result),
  failure: (failure) => ({ action: "cancel", outcome: failureOutcome(failure.category), error: failure.category }),
});
