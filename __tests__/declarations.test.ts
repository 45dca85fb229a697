/**
 * What the model is told against what the tools take: every call shape
 * docs/api.md documents passes Pi's own check of the declared (short) schema
 * after the tool's argument folds, and then the tool's own check, which opens
 * the form. A declared property is one the tool takes, and the call shapes
 * the reach line gives for undeclared tools name only declared properties.
 */
import { validateToolArguments } from "@earendil-works/pi-ai";
import { beforeAll, describe, expect, it } from "@jest/globals";
import { lenientSchema } from "../schemas/lenient.js";
import { MANIFESTS } from "../tools/catalog.js";
import { createFormchart } from "../tools/index.js";
import { signatureLine } from "../tools/loadout.js";
import { KEY } from "./helpers/fake-host.js";
import { fakePi, fakeUiContext, type RegisteredTool } from "./helpers/fake-pi.js";
import { tempAgentDir } from "./helpers/temp.js";

let tools: Map<string, RegisteredTool>;
beforeAll(() => {
  const pi = fakePi();
  createFormchart({ agentDir: tempAgentDir() })(pi.api);
  tools = pi.tools;
});

const options = [{ label: "A", description: "first", preview: "```ts\nconst a = 1;\n```", recommended: true }, "B"];

/** One call of every shape docs/api.md documents, per tool. */
const CALLS: Array<[string, string, unknown]> = [
  ["question", "questions", { questions: [{ prompt: "Which?", options, id: "w", label: "W", multiple: true }] }],
  [
    "question",
    "no typed answer, a timeout",
    { questions: [{ prompt: "Which?", options, allowOther: false }], timeout: 30 },
  ],
  [
    "question",
    "the single-question shape",
    { question: "Which?", options: ["A", "B"], allowOther: true, type: "multi" },
  ],
  [
    "questionnaire",
    "every type",
    {
      questions: [
        { id: "a", prompt: "Pick", options, type: "single", allowOther: false, required: false, autoAdvance: false },
        { id: "b", prompt: "Ship?", options: [], type: "yes_no" },
        { id: "c", prompt: "How good?", options: [], type: "rating", label: "Rate" },
        { id: "d", prompt: "Which?", options: ["x", "y"], type: "multi" },
      ],
      timeout: 60,
    },
  ],
  [
    "question_branch",
    "when as text, object and list; on; a nested branch",
    {
      questions: [
        { id: "go", prompt: "Deploy?", options: ["Yes", "No"] },
        { id: "where", prompt: "Where?", options: ["staging", "prod"], when: "go equals Yes" },
        {
          id: "both",
          prompt: "Sure?",
          options: ["y", "n"],
          when: [{ field: "go", operator: "equals", value: "Yes" }, "where equals prod"],
        },
        { id: "never", prompt: "Hidden", options: ["n", "m"], on: false, branch: { when: "go is_not_empty" } },
      ],
    },
  ],
  [
    "question_input",
    "every field",
    {
      question: "How many?",
      type: "number",
      min: 1,
      max: 9,
      required: true,
      placeholder: "1-9",
      minLength: 1,
      maxLength: 2,
      pattern: "^[0-9]+$",
      timeout: 30,
    },
  ],
  ["question_input", "prompt for question", { prompt: "Your name?" }],
  [
    "question_throttle",
    "every field",
    { question: "Still fine?", options, cooldown: 2, allowOther: false, type: "single", timeout: 5 },
  ],
  ["question_throttle", "prompt and string options", { prompt: "Still fine?", options: ["Yes", "No"] }],
  [
    "ask_rich_questions",
    "every field",
    {
      title: "Plan",
      description: "The plan",
      questions: [
        {
          id: "db",
          type: "radio",
          label: "DB",
          prompt: "Which database?",
          body: "We need one.",
          context: "Today: none",
          recommendation: "Postgres: known",
          caveats: ["cost", "ops"],
          required: true,
          allowOther: true,
          options: [
            { label: "Postgres", value: "pg", description: "SQL", details: "more", note: "mine", recommended: true },
            "SQLite",
          ],
        },
        { prompt: "Anything else?", type: "text", placeholder: "notes", caveats: "none" },
      ],
      timeout: 120,
    },
  ],
  [
    "ask_rich_questions",
    "context for description, details for body",
    { context: "The plan", questions: [{ prompt: "Go?", details: "Why", options: ["yes", "no"] }] },
  ],
  [
    "ask_form",
    "every field kind",
    {
      title: "Contact",
      message: "Who to tell",
      schema: {
        type: "object",
        properties: {
          name: { type: "string", title: "Name", minLength: 1 },
          email: { type: "string", format: "email" },
          n: { type: "integer", minimum: 1, maximum: 5, default: 2 },
          ok: { type: "boolean" },
          size: { type: "string", enum: ["s", "m"] },
          tags: { type: "array", items: { type: "string", enum: ["a", "b"] } },
        },
        required: ["name"],
      },
      timeout: 30,
    },
  ],
  [
    "ask_form",
    "requestedSchema, and the schema as a JSON string",
    { message: "Name?", requestedSchema: { type: "object", properties: { name: { type: "string" } } } },
  ],
  [
    "ask_form",
    "the schema as a JSON string",
    { message: "Name?", schema: '{"type":"object","properties":{"n":{"type":"string"}}}' },
  ],
];

describe("every documented call shape passes Pi's check of the declaration and the tool's own", () => {
  it.each(CALLS)("%s: %s", async (name, _shape, raw) => {
    const tool = tools.get(name)!;
    const prepared = tool.prepareArguments ? tool.prepareArguments(raw) : raw;
    // Pi's own check of what is declared: throws Pi's text when the declaration refuses the call.
    const args = validateToolArguments(
      { name, description: "", parameters: tool.parameters as never },
      { type: "toolCall", id: "1", name, arguments: prepared as never },
    );
    const { ctx, opened } = fakeUiContext((c) => c.handleInput(KEY.esc));
    const result = await tool.execute("1", args, undefined, undefined, ctx);
    expect((result.details as { error?: string }).error).toBeUndefined();
    expect(opened()).toBe(1);
  });

  it.each(CALLS)(
    "%s: %s, asked with wait: false, is put to the person and returns at once",
    async (name, _shape, raw) => {
      const tool = tools.get(name)!;
      const called = { ...(raw as object), wait: false };
      const prepared = tool.prepareArguments ? tool.prepareArguments(called) : called;
      const args = validateToolArguments(
        { name, description: "", parameters: tool.parameters as never },
        { type: "toolCall", id: "1", name, arguments: prepared as never },
      );
      const { ctx } = fakeUiContext(() => {});
      const ui = { ...ctx.ui, setWidget: () => {} };
      const result = await tool.execute("1", args, undefined, undefined, {
        ...ctx,
        ui,
        mode: "tui",
        isIdle: () => true,
      });
      expect(result.details).toEqual({ outcome: "pending", id: expect.stringMatching(/^ask-\d+$/) });
    },
  );

  it("covers every tool", () => {
    expect(new Set(CALLS.map(([name]) => name))).toEqual(new Set(MANIFESTS.map((tool) => tool.name)));
  });
});

type Node = { properties?: Record<string, Node>; items?: Node; type?: unknown };

/** Every property path a schema declares, `questions[].options` style. */
function paths(node: Node | undefined, at = ""): string[] {
  if (!node) return [];
  const own = Object.entries(node.properties ?? {}).flatMap(([key, child]) => [
    `${at}${key}`,
    ...paths(child, `${at}${key}.`),
  ]);
  return node.items ? [...own, ...paths(node.items, `${at.replace(/\.$/, "")}[].`)] : own;
}

describe("a declaration names only what the tool takes", () => {
  it.each(MANIFESTS.map((tool) => [tool.name, tool] as const))("%s", (_name, tool) => {
    const accepted = new Set(paths(tool.parameters as Node));
    const declared = paths(lenientSchema(tool.parameters) as Node);
    expect(declared.length).toBeGreaterThan(0);
    expect(declared.filter((path) => !accepted.has(path))).toEqual([]);
  });

  it("the call shapes given for undeclared tools name declared properties only", () => {
    for (const tool of MANIFESTS) {
      const line = signatureLine([tool])!;
      let inner = line.slice(line.indexOf("(") + 1, line.lastIndexOf(")"));
      while (/\[[^[\]{}]*\]|\{[^[\]{}]*\}/.test(inner)) inner = inner.replace(/\[[^[\]{}]*\]|\{[^[\]{}]*\}/g, "");
      const named = inner.split(", ").map((field) => field.replace(/[?:].*$/, ""));
      expect(named).toEqual(Object.keys((lenientSchema(tool.parameters) as Node).properties ?? {}));
      expect(named.length).toBeGreaterThan(0);
    }
  });
});
