/**
 * `ask_form`: a form built from a JSON Schema (MCP elicitation's form
 * subset); the model gets back values typed as the schema says.
 *
 * Contract:
 * - text for the model: the action, then on `accept` one line per field,
 *   `name: value`, the value written as JSON (strings quoted and escaped, so
 *   no answer can forge a line or another field; numbers, booleans and lists
 *   as JSON), a field left empty as `name: (no answer)`; a name that is not a
 *   plain identifier is written as JSON too;
 * - `details`: `{action, content?}` (content only on `accept`, validated
 *   against the schema), plus `error` when no form could open.
 */
import type { FormResult } from "../machines/context.js";
import type { FormSpec } from "../machines/spec.js";
import { prepareWith } from "../schemas/aliases.js";
import { ASK_FORM_FOLDS, AskFormParameters, type CheckedAskForm, checkAskFormArgs } from "../schemas/ask-form.js";
import type { ElicitContent } from "../schemas/elicit.js";
import { jsonLine, timedOutHeadline } from "./answer-text.js";
import { defineFormTool } from "./form-tool.js";
import { type ElicitAction, elicitResult, schemaForm } from "./schema-form.js";

export interface AskFormDetails {
  action: ElicitAction;
  content?: ElicitContent;
  /** The form closed at its timeout: nobody pressed a key, nothing was submitted (`action` is cancel). */
  outcome?: "timed_out";
  /** Set when the form could not open: a stable category. */
  error?: string;
}

/** A field name as written in the model's text: bare when it cannot be mistaken for anything else. */
export function fieldName(name: string): string {
  return /^[A-Za-z_][\w.-]{0,199}$/.test(name) ? name : jsonLine(name);
}

function text(args: CheckedAskForm, details: AskFormDetails): string {
  if (details.action === "decline")
    return "User declined the form: they chose not to give this information. Continue without it; ask again only if it is essential.";
  if (details.action === "cancel") return "User cancelled the form without submitting it. Treat this as no answer.";
  const content = details.content ?? {};
  const lines = args.form.fields.map((field) => {
    const has = Object.hasOwn(content, field.name);
    return `${fieldName(field.name)}: ${has ? jsonLine(content[field.name]) : "(no answer)"}`;
  });
  return ["User submitted the form:", ...lines].join("\n");
}

function answer(args: CheckedAskForm, spec: FormSpec, result: FormResult) {
  if (result.timedOut) {
    const details: AskFormDetails = { action: "cancel", outcome: "timed_out" };
    return { text: `${timedOutHeadline(spec)} Treat this as no answer.`, details };
  }
  const outcome = elicitResult(args.form, result);
  const details: AskFormDetails =
    outcome.action === "accept" ? { action: "accept", content: outcome.content } : { action: outcome.action };
  return { text: text(args, details), details };
}

function summary(raw: unknown): string {
  const a = (raw ?? {}) as { title?: unknown; message?: unknown; schema?: unknown };
  const schema = (typeof a.schema === "object" && a.schema !== null ? a.schema : {}) as { properties?: unknown };
  const properties =
    typeof schema.properties === "object" && schema.properties !== null ? Object.keys(schema.properties) : [];
  const head = typeof a.title === "string" ? a.title : typeof a.message === "string" ? a.message : "";
  if (properties.length === 0) return head;
  const shown = properties.slice(0, 8).join(", ") + (properties.length > 8 ? ", …" : "");
  return `${head} (${properties.length} field${properties.length === 1 ? "" : "s"}: ${shown})`;
}

export const askForm = defineFormTool<CheckedAskForm, AskFormDetails>({
  name: "ask_form",
  label: "Form",
  description:
    "Ask the user to fill in a form described by a JSON Schema (MCP elicitation's form subset) and get back typed values " +
    "that validate against it. Fields: string (length, RE2 pattern, format email/uri/date/date-time), number or integer " +
    "(minimum/maximum), boolean (yes/no), single choice (enum or oneOf const/title), multiple choice (array of enum or " +
    "anyOf const/title, minItems/maxItems); defaults are pre-filled, required fields must be filled. The result's action " +
    "is accept (details.content holds the values), decline (the user refused) or cancel.",
  searchHint: "a JSON Schema form",
  promptSnippet:
    "Ask the user to fill in a typed form from a JSON Schema (text, email, numbers in range, yes/no, choices)",
  promptGuidelines: [
    "Use ask_form when you need typed values from the user (a name, an email address, a number in a range, yes/no, one or several of fixed values) rather than a decision; use question when the user must choose between alternatives you explain.",
    "Give ask_form a flat schema: one property per value, each with a short title, required for the values you cannot do without, and a default where there is a sensible one.",
    "If ask_form comes back declined, continue without that information and do not ask for it again unless it is essential.",
  ],
  parameters: AskFormParameters,
  prepareArguments: prepareWith(...ASK_FORM_FOLDS),
  check: checkAskFormArgs,
  form: (args): FormSpec => schemaForm(args.form, args.message, args.title),
  timeoutSeconds: (args) => args.timeout,
  answer: (args, spec, result) => answer(args, spec, result),
  failure: (failure) => ({ action: "cancel", error: failure.category }),
  callSummary: summary,
  resultSummary(d) {
    if (d.error) return { kind: "error" };
    const content = d.content ?? {};
    const answers = Object.entries(content).map(([label, value]) => ({
      label,
      value: typeof value === "string" ? value : JSON.stringify(value),
    }));
    return {
      kind: "answers",
      cancelled: d.action !== "accept",
      declined: d.action === "decline",
      timedOut: d.outcome === "timed_out",
      answers,
    };
  },
});
