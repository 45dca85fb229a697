/**
 * One outcome vocabulary: every tool and elicit() end in one of the words of
 * schemas/outcome.ts, each with its own neutral sentence, and the table in
 * docs/result-contract.md is the one the tools make.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "@jest/globals";
import { type FormContext, formResult, initialContext } from "../machines/context.js";
import type { FormSpec } from "../machines/spec.js";
import { OUTCOMES, type Outcome } from "../schemas/outcome.js";
import { FORM_TOOLS } from "../tools/engine/catalog.js";
import { type AnyFormTool, failureText, NO_UI, prepareForm } from "../tools/engine/form-tool.js";
import { elicitResult } from "../tools/engine/schema-form.js";

const two = [{ label: "Staging" }, { label: "Production" }];

/** A call of each tool with a required question and, where the tool has them, an optional one. */
const SAMPLES: Record<string, unknown> = {
  question: {
    questions: [
      { id: "target", label: "Target", prompt: "Where?", options: two },
      { id: "window", label: "Window", prompt: "When?", options: [{ label: "Now" }, { label: "Tonight" }] },
    ],
  },
  questionnaire: {
    questions: [
      { id: "ok", label: "OK", prompt: "Ship it?", options: [{ label: "Yes" }, { label: "No" }] },
      { id: "target", label: "Target", prompt: "Where?", options: two, required: false },
    ],
  },
  question_input: { question: "Release name?", required: false },
  question_throttle: { question: "Where?", options: two },
  question_branch: {
    questions: [
      { id: "ok", label: "OK", prompt: "Ship it?", options: [{ label: "Yes" }, { label: "No" }] },
      { id: "target", label: "Target", prompt: "Where?", options: two, required: false },
    ],
  },
  ask_rich_questions: {
    questions: [
      { id: "target", prompt: "Where?", options: two },
      { id: "notes", type: "text", prompt: "Anything else?", required: false },
    ],
  },
  ask_form: {
    message: "Deploy details",
    schema: {
      type: "object",
      properties: { env: { type: "string", enum: ["staging", "prod"] }, reason: { type: "string" } },
      required: ["env"],
    },
  },
};

/** The form's context as it closes with `outcome`; `answer` says which questions have an answer. */
function closedAs(spec: FormSpec, outcome: FormContext["outcome"], answer: (i: number) => boolean): FormContext {
  const context = initialContext(spec);
  spec.questions.forEach((q, i) => {
    if (!answer(i)) return;
    context.answered[i] = true;
    context.picks[i] = q.kind === "text" ? { options: [], custom: ["Ada"] } : { options: [0], custom: [] };
  });
  return { ...context, outcome };
}

/** The contexts a form can close in for each outcome, or none where this form cannot end so. */
function contextFor(spec: FormSpec, outcome: Outcome): FormContext | undefined {
  const optional = spec.questions.findIndex((q) => !q.required);
  switch (outcome) {
    case "answered":
      return closedAs(spec, "submitted", () => true);
    case "partial":
      return optional < 0 ? undefined : closedAs(spec, "submitted", (i) => i !== optional);
    case "timed_out":
      return spec.timeoutMs ? closedAs(spec, "timed_out", () => false) : undefined;
    case "declined":
      return spec.declinable ? closedAs(spec, "declined", () => false) : undefined;
    case "cancelled":
      return closedAs(spec, "cancelled", (i) => i === 0);
    default:
      return undefined;
  }
}

interface Row {
  text: string;
  details: Record<string, unknown>;
}

/** What a tool gives for each outcome: through its own mapping of a closed form, or its failure. */
function rowsOf(tool: AnyFormTool): Partial<Record<Outcome, Row>> {
  const raw = { ...(SAMPLES[tool.name] as object), timeout: 30 };
  const prepared = prepareForm(tool, raw);
  if (!prepared.ok) throw new Error(`${tool.name}: ${prepared.error.message}`);
  const { spec } = prepared.form;
  const rows: Partial<Record<Outcome, Row>> = {};
  for (const outcome of OUTCOMES) {
    const context = contextFor(spec, outcome);
    if (!context) continue;
    const answer = prepared.form.answer(formResult(spec, context)) as { text: string; details: Row["details"] };
    rows[outcome] = answer;
  }
  rows.no_ui = { text: failureText(NO_UI), details: tool.failure(NO_UI, raw, spec) };
  const refused = prepareForm(tool, { nonsense: true });
  if (refused.ok) throw new Error(`${tool.name} took a call without its arguments`);
  rows.error = { text: failureText(refused.error), details: tool.failure(refused.error, {}) };
  return rows;
}

/** `elicit()`'s results: MCP's, with the outcome beside `action`. It has no text, and refusals are thrown. */
function elicitRows(): Partial<Record<Outcome, Row>> {
  const askForm = FORM_TOOLS.find((t) => t.name === "ask_form")!;
  const prepared = prepareForm(askForm, SAMPLES.ask_form);
  if (!prepared.ok) throw new Error(prepared.error.message);
  const { spec } = prepared.form;
  const rows: Partial<Record<Outcome, Row>> = {};
  for (const outcome of OUTCOMES) {
    const context = contextFor(spec, outcome);
    if (!context) continue;
    rows[outcome] = { text: "", details: elicitResult(prepared.args.form, formResult(spec, context)) };
  }
  return rows;
}

/** A `details` object as the table shows it: plain values as they are, lists and objects by their key. */
function detailsCell(details: Record<string, unknown>): string {
  return Object.entries(details)
    .map(([key, value]) => (value === null || typeof value !== "object" ? `${key}: ${JSON.stringify(value)}` : key))
    .join(", ");
}

const cell = (text: string) => (text ? `\`${text.replace(/\|/g, "\\|")}\`` : "—");

function table(): string {
  const lines = ["| tool | outcome | text (first line) | `details` |", "| --- | --- | --- | --- |"];
  const all: Array<[string, Partial<Record<Outcome, Row>>]> = [
    ...FORM_TOOLS.map((t) => [`\`${t.name}\``, rowsOf(t)] as [string, Partial<Record<Outcome, Row>>]),
    ["`elicit()`", elicitRows()],
  ];
  for (const [name, rows] of all) {
    for (const outcome of OUTCOMES) {
      const row = rows[outcome];
      if (!row) continue;
      lines.push(`| ${name} | \`${outcome}\` | ${cell(row.text.split("\n")[0])} | ${cell(detailsCell(row.details))} |`);
    }
  }
  return lines.join("\n");
}

const tables = () => FORM_TOOLS.map((tool) => [tool.name, rowsOf(tool)] as const);

describe("one outcome vocabulary", () => {
  it("every tool reports each way a form ends in details.outcome", () => {
    for (const [name, rows] of tables()) {
      for (const [outcome, row] of Object.entries(rows)) {
        expect({ name, outcome: row?.details.outcome }).toEqual({ name, outcome });
      }
    }
  });

  it("elicit() says the same beside MCP's action", () => {
    const rows = elicitRows();
    expect(Object.entries(rows).map(([outcome, row]) => [outcome, row?.details.action, row?.details.outcome])).toEqual([
      ["answered", "accept", "answered"],
      ["partial", "accept", "partial"],
      ["declined", "decline", "declined"],
      ["cancelled", "cancel", "cancelled"],
    ]);
  });

  it("no text tells the model to treat an ending as something else or to go on by its own judgment", () => {
    for (const [name, rows] of tables()) {
      for (const row of Object.values(rows)) {
        expect({ name, text: row?.text }).not.toEqual({
          name,
          text: expect.stringMatching(/treat this|judg|proceed/i),
        });
      }
    }
  });

  it("each outcome reads differently from the others in every tool", () => {
    for (const [name, rows] of tables()) {
      const firstLines = Object.entries(rows)
        .filter(([outcome]) => outcome !== "answered")
        .map(([, row]) => row?.text.split("\n")[0]);
      expect({ name, distinct: new Set(firstLines).size }).toEqual({ name, distinct: firstLines.length });
    }
  });

  it("docs/result-contract.md holds the table the tools make", async () => {
    const doc = readFileSync(new URL("../docs/result-contract.md", import.meta.url), "utf8");
    const start = doc.indexOf("<!-- outcome-table -->");
    const end = doc.indexOf("<!-- /outcome-table -->");
    // OUTCOME_TABLE_OUT=file writes the table the tools make, to paste into the page after a change.
    if (process.env.OUTCOME_TABLE_OUT) (await import("node:fs")).writeFileSync(process.env.OUTCOME_TABLE_OUT, table());
    expect(start).toBeGreaterThan(-1);
    expect(doc.slice(start + "<!-- outcome-table -->".length, end).trim()).toBe(table());
  });
});
