/**
 * `ask_form`: a form built from a JSON Schema (MCP elicitation's form
 * subset); the model gets back values typed as the schema says.
 *
 * Contract: the text is the action, then on `accept` one `name: value` line
 * per field, the value as JSON, so no answer can forge a line or a field;
 * `details` is `{action, content?}`, content validated against the schema.
 */
import { ASK_FORM_FOLDS, AskFormParameters } from "../schemas/ask-form.js";
import type { ElicitContent } from "../schemas/elicit.js";
import type { Outcome } from "../schemas/outcome.js";
import type { ElicitAction } from "./engine/schema-form.js";
import { defineManifest } from "./manifest.js";

export interface AskFormDetails {
  action: ElicitAction;
  content?: ElicitContent;
  /** `timed_out` and `partial` beside MCP's `action`. */
  outcome: Outcome;
  error?: string;
}

/** Bare when it cannot be mistaken for anything else. */
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

export const askForm = defineManifest({
  name: "ask_form",

  label: "Form",

  description: "Ask the user to fill in a flat JSON Schema form (MCP elicitation).",
  promptSnippet: "Typed values in a JSON Schema form",
  promptGuidelines: [
    "Use ask_form for typed values (a name, a number), question for choices. Declined: ask again only if essential.",
  ],

  parameters: AskFormParameters,

  folds: ASK_FORM_FOLDS,
  callSummary: summary,
  resultSummary(d: AskFormDetails) {
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
      answers,
    };
  },
});
