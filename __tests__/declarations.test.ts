/**
 * What the model is told against what the tools take: every call shape
 * docs/api.md documents, and every example in examples/, passes Pi's own
 * check of the declared (short) schema after the tool's argument folds, and
 * then the tool's own check, which opens the form. Both ways, on both hosts'
 * checks: whatever the tool's schema accepts, folded as Pi folds it, the
 * declaration admits (Pi never refuses a call the tool would take); and
 * whatever the declaration admits the tool's schema takes, but for the limits
 * it checks itself (lengths, counts, allowed values: refused with its own
 * error category) and what the declaration leaves to its description. A
 * declared property is one the tool takes, and the call shapes the reach line
 * gives for undeclared tools name only declared properties.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { validateToolArguments } from "@earendil-works/pi-ai";
import { beforeAll, describe, expect, it } from "@jest/globals";
import { validateToolArguments as validateOnPi073 } from "@mariozechner/pi-ai";
import { Ajv, type ErrorObject } from "ajv";
import fc from "fast-check";
import type { TSchema } from "typebox";
import { EXAMPLES_DIR, exampleNames } from "../bin/form-file.js";
import { ALIASES_KEY } from "../schemas/aliases.js";
import { lenientSchema } from "../schemas/lenient.js";
import { AJV_OPTIONS } from "../schemas/validate.js";
import { MANIFESTS } from "../tools/catalog.js";
import { createFormchart } from "../tools/index.js";
import { signatureLine } from "../tools/request-cost.js";
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

  it.each(MANIFESTS.map((tool) => [tool.name, tool] as const))(
    "%s: a copy of its schema is declared as the schema itself (a host's TypeBox copies what it wraps)",
    (_name, tool) => {
      const declared = lenientSchema(tool.parameters);
      expect(lenientSchema(structuredClone(tool.parameters))).toEqual(declared);
    },
  );

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

/** Pi's check of a call against a declaration, on Pi 1.x and on Pi 0.73: throws Pi's text when it refuses. */
const PI_CHECKS = [
  ["Pi 1.x", validateToolArguments],
  ["Pi 0.73", validateOnPi073],
] as const;

function piCheck(check: (typeof PI_CHECKS)[number][1], name: string, parameters: unknown, args: unknown): void {
  check(
    { name, description: "", parameters: parameters as never },
    { type: "toolCall", id: "1", name, arguments: structuredClone(args) as never },
  );
}

describe("every example in examples/ passes Pi's check of its tool's declaration", () => {
  it.each(exampleNames())("%s", (example) => {
    const content = JSON.parse(readFileSync(join(EXAMPLES_DIR, `${example}.json`), "utf8"));
    const wrapped = content && typeof content === "object" && "tool" in content;
    const name: string = wrapped ? content.tool : "question";
    const tool = tools.get(name)!;
    const raw: unknown = wrapped ? content.arguments : content;
    const prepared = tool.prepareArguments ? tool.prepareArguments(raw) : raw;
    for (const [, check] of PI_CHECKS) piCheck(check, name, tool.parameters, prepared);
  });
});

type SchemaNode = {
  type?: string | string[];
  properties?: Record<string, SchemaNode>;
  required?: string[];
  additionalProperties?: boolean;
  items?: SchemaNode;
  enum?: unknown[];
  const?: unknown;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  minItems?: number;
  maxItems?: number;
};

const short = (n: number | undefined, fallback: number) => Math.min(n ?? fallback, fallback);

/**
 * Values a schema node admits, within its limits: strings, numbers, lists and
 * objects of every declared type, optional properties present or not (those
 * set by folds or named only in a description too), and, where the schema
 * allows them and `others` says so, properties it does not name. A node with
 * no `type` admits any JSON value.
 */
function admitted(node: SchemaNode, others = true): fc.Arbitrary<unknown> {
  if (node.enum) return fc.constantFrom(...node.enum);
  if (node.const !== undefined) return fc.constant(node.const);
  const types = node.type === undefined ? [] : Array.isArray(node.type) ? node.type : [node.type];
  if (types.length === 0) return fc.jsonValue({ maxDepth: 2 });
  return fc.oneof(...types.map((type) => ofType(node, type, others)));
}

function ofType(node: SchemaNode, type: string, others: boolean): fc.Arbitrary<unknown> {
  switch (type) {
    case "string": {
      const minLength = node.minLength ?? 0;
      return fc.string({ minLength, maxLength: Math.max(minLength, short(node.maxLength, 8)) });
    }
    case "integer":
      return fc.integer({ min: Math.max(node.minimum ?? -1e6, -1e6), max: Math.min(node.maximum ?? 1e6, 1e6) });
    case "number":
      return fc.double({ min: node.minimum ?? -1e6, max: node.maximum ?? 1e6, noNaN: true });
    case "boolean":
      return fc.boolean();
    case "array":
      return fc.array(node.items ? admitted(node.items, others) : fc.jsonValue({ maxDepth: 1 }), {
        minLength: node.minItems ?? 0,
        maxLength: Math.max(node.minItems ?? 0, short(node.maxItems, 3)),
      });
    case "object": {
      const properties = node.properties ?? {};
      const named = fc.record(
        Object.fromEntries(Object.entries(properties).map(([key, child]) => [key, admitted(child, others)])),
        { requiredKeys: (node.required ?? []).filter((key) => key in properties) },
      );
      if (node.additionalProperties === false || !others) return named;
      const more = fc.dictionary(
        fc.string({ minLength: 1, maxLength: 6 }).filter((key) => !(key in properties) && key !== "__proto__"),
        fc.jsonValue({ maxDepth: 1 }),
        { maxKeys: 2 },
      );
      return fc.tuple(named, more).map(([a, b]) => ({ ...b, ...a }));
    }
    default:
      throw new Error(`no values for type ${type}`);
  }
}

const RUNS = Math.min(Number(process.env.FUZZ_RUNS ?? 300), 300);
const SEED = process.env.FUZZ_SEED ? Number(process.env.FUZZ_SEED) : undefined;
const toolAjv = new Ajv(AJV_OPTIONS);

/**
 * The tool's schema check, as its check runs it: the fields the folds moved,
 * which travel with the arguments, taken out first; `errors`: its last refusal.
 */
function schemaCheck(parameters: TSchema) {
  const validate = toolAjv.compile(parameters);
  const accepts = (args: unknown) => {
    const { [ALIASES_KEY]: _moved, ...rest } = args as Record<string, unknown>;
    return validate(args && typeof args === "object" && !Array.isArray(args) ? rest : args);
  };
  return Object.defineProperty(accepts, "errors", { get: () => validate.errors ?? [] }) as typeof accepts & {
    readonly errors: ErrorObject[];
  };
}

describe("what a tool's schema accepts, folded as Pi folds it, its declaration admits on both hosts", () => {
  it.each(MANIFESTS.map((manifest) => [manifest.name, manifest] as const))("%s", (name, manifest) => {
    const tool = tools.get(name)!;
    const accepts = schemaCheck(manifest.parameters);
    let accepted = 0;
    fc.assert(
      fc.property(admitted(manifest.parameters as SchemaNode), (args) => {
        if (!accepts(args)) return;
        accepted++;
        const prepared = tool.prepareArguments ? tool.prepareArguments(args) : args;
        // Folding a call already in the tool's own shape keeps it one the tool accepts.
        expect(accepts(prepared)).toBe(true);
        for (const [, check] of PI_CHECKS) piCheck(check, name, tool.parameters, prepared);
      }),
      { numRuns: RUNS, seed: SEED },
    );
    // The values were the tool's: most of them passed its schema.
    expect(accepted).toBeGreaterThan(RUNS / 2);
  });
});

/** Keywords the tool checks itself (its limits): a value the declaration admits may still break one. */
const LIMITS = new Set([
  "minLength",
  "maxLength",
  "minItems",
  "maxItems",
  "minimum",
  "maximum",
  "enum",
  "const",
  "pattern",
  "format",
]);

/**
 * Where a value the declaration admits holds something the declaration does
 * not describe: a value of a node whose shape only its description gives
 * (`{type: ["string", "object"], description}`), as JSON pointers.
 */
function undescribed(node: SchemaNode, value: unknown, at = ""): string[] {
  if (Array.isArray(value))
    return node.items ? value.flatMap((v, i) => undescribed(node.items!, v, `${at}/${i}`)) : [at];
  if (value && typeof value === "object") {
    if (!node.properties) return [at];
    return Object.entries(value).flatMap(([key, v]) =>
      node.properties![key] ? undescribed(node.properties![key], v, `${at}/${key}`) : [],
    );
  }
  return [];
}

describe("what a declaration admits, the tool's schema takes, but for the limits the tool checks itself", () => {
  it.each(MANIFESTS.map((manifest) => [manifest.name, manifest] as const))("%s", (name, manifest) => {
    const tool = tools.get(name)!;
    const declared = tool.parameters as SchemaNode;
    const accepts = schemaCheck(manifest.parameters);
    fc.assert(
      // Only the properties it declares: unknown ones are refused by the tool's own check, by design.
      fc.property(admitted(declared, false), (args) => {
        const prepared = tool.prepareArguments ? tool.prepareArguments(args) : args;
        if (accepts(prepared)) return;
        const free = undescribed(declared, args);
        const inFree = (e: ErrorObject) =>
          free.some((at) => e.instancePath === at || e.instancePath.startsWith(`${at}/`));
        const wrong = accepts.errors.filter((e) => !LIMITS.has(e.keyword) && !inFree(e));
        expect(wrong.map((e) => `${e.instancePath} ${e.message}`)).toEqual([]);
      }),
      { numRuns: RUNS, seed: SEED },
    );
  });
});
