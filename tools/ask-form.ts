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
 * What it does once called: tools/engine/ask-form.ts.
 */
import { ASK_FORM_FOLDS, AskFormParameters } from "../schemas/ask-form.js";
import type { ElicitContent } from "../schemas/elicit.js";
import type { Outcome } from "../schemas/outcome.js";
import type { ElicitAction } from "./engine/schema-form.js";
import { defineManifest } from "./manifest.js";

export interface AskFormDetails {
  action: ElicitAction;
  content?: ElicitContent;
  /** How the call ended (tools/engine/outcome.ts); `timed_out` and `partial` beside MCP's `action`. */
  outcome: Outcome;
  /** Set when the form could not open: a stable category. */
  error?: string;
}

/** A field name as written in the model's text: bare when it cannot be mistaken for anything else. */
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

export const askForm = defineManifest<AskFormDetails>({
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

  folds: ASK_FORM_FOLDS,
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
