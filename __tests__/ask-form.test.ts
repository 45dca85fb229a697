/**
 * `ask_form` as Pi runs it (a fake Pi, the real component driven by keys):
 * registration, the three outcomes, the model-facing text (one JSON-escaped
 * line per field), refusals before a form opens, print and RPC modes,
 * drafts, and the call shapes folded before Pi checks the arguments.
 */

import { readFileSync } from "node:fs";
import { join } from "node:path";
import { validateToolArguments } from "@earendil-works/pi-ai";
import { beforeAll, describe, expect, it } from "@jest/globals";
import { EXAMPLES_DIR } from "../bin/form-file.js";
import { plainTheme } from "../renderers/theme.js";
import { MANIFESTS } from "../tools/catalog.js";
import { createFormchart } from "../tools/index.js";
import { K } from "./helpers/elicit.js";
import { fakePi, fakeUiContext, noUiContext, type RegisteredTool, rpcContext } from "./helpers/fake-pi.js";
import { tempAgentDir } from "./helpers/temp.js";

let tool: RegisteredTool;
let pi: ReturnType<typeof fakePi>;
beforeAll(() => {
  pi = fakePi();
  createFormchart({ agentDir: tempAgentDir() })(pi.api);
  tool = pi.tools.get("ask_form")!;
});

const signup = JSON.parse(readFileSync(join(EXAMPLES_DIR, "form-signup.json"), "utf8")).arguments;

async function run(args: unknown, keys: string[], entries: unknown[] = []) {
  const { ctx, opened } = fakeUiContext((c) => {
    for (const k of keys) c.handleInput(k);
  }, entries);
  const result = await tool.execute("call-1", tool.prepareArguments!(args), undefined, undefined, ctx);
  return { ...result, text: result.content[0].text, opened: opened() };
}

const fillSignup = [
  ..."ada@example.org",
  K.enter,
  K.enter, // seats: keep the default 5
  "1", // telemetry: Yes
  "3", // region: Asia Pacific
  K.space,
  K.down,
  K.down,
  K.space,
  K.enter, // previews, canary
];

describe("registration", () => {
  it("is a sequential tool whose prompt guidance names it and says when to prefer it over question", () => {
    expect(tool.executionMode).toBe("sequential");
    expect(tool.promptSnippet).toMatch(/JSON Schema/);
    expect(tool.promptGuidelines?.every((g) => g.includes("ask_form"))).toBe(true);
    expect(tool.promptGuidelines?.join(" ")).toMatch(/question for choices/);
    expect((tool.parameters as { required: string[] }).required).toEqual(["message", "schema"]);
  });

  it("the schema Pi checks lets a call with limits through to the tool's own check", () => {
    const call = { message: "x", schema: { type: "object", properties: { a: { type: "string", foo: 1 } } } };
    expect(() =>
      validateToolArguments(
        { name: "ask_form", description: "", parameters: tool.parameters } as never,
        {
          type: "toolCall",
          id: "1",
          name: "ask_form",
          arguments: call,
        } as never,
      ),
    ).not.toThrow();
  });
});

describe("the three outcomes", () => {
  it("accept: one line per field, values as JSON, typed content in details", async () => {
    const r = await run(signup, [...fillSignup, K.enter]);
    expect(r.text).toBe(
      [
        "User submitted the form:",
        'email: "ada@example.org"',
        "seats: 5",
        "telemetry: true",
        'region: "ap-south"',
        'features: ["previews","canary"]',
      ].join("\n"),
    );
    expect(r.details).toEqual({
      action: "accept",
      outcome: "answered",
      content: {
        email: "ada@example.org",
        seats: 5,
        telemetry: true,
        region: "ap-south",
        features: ["previews", "canary"],
      },
    });
  });

  it("decline: d on the review tab", async () => {
    const r = await run(signup, [K.shiftTab, "d"]);
    expect(r.details).toEqual({ action: "decline", outcome: "declined" });
    expect(r.text).toMatch(/^User declined the form/);
  });

  it("cancel: Esc, with nothing for the model", async () => {
    const r = await run(signup, [..."ada@", K.esc, K.esc]);
    expect(r.details).toEqual({ action: "cancel", outcome: "cancelled" });
    expect(r.text).toBe("User cancelled the form without answering.");
  });

  it("an optional field left empty is absent from content and says so in the text", async () => {
    const args = {
      message: "Contact",
      schema: {
        type: "object",
        properties: { name: { type: "string" }, phone: { type: "string" } },
        required: ["name"],
      },
    };
    const r = await run(args, [..."Ada", K.enter, K.enter, K.enter]);
    expect(r.details).toEqual({ action: "accept", content: { name: "Ada" }, outcome: "partial" });
    expect(r.text).toBe(
      'User submitted the form with some questions left open: phone.\nname: "Ada"\nphone: (no answer)',
    );
  });
});

describe("nothing a person types or a model names can forge a line", () => {
  it("escapes values and odd field names as JSON on their own line", async () => {
    const args = {
      message: "Hostile",
      schema: {
        type: "object",
        properties: {
          note: { type: "string" },
          "x\nseats": { type: "string", default: "1" },
          "a: b": { type: "boolean", default: true },
        },
      },
    };
    const typed = 'ok\u2028seats: 99\nemail: "evil@example.org"';
    // Shift+Enter is a new line in the editor; the separator arrives as typed text.
    const keys = [
      ..."ok\u2028seats: 99",
      "\x1b[13;2u",
      ...'email: "evil@example.org"',
      K.enter,
      K.enter,
      K.enter,
      K.enter,
    ];
    const r = await run(args, keys);
    expect(r.details.content.note).toBe(typed);
    const lines = r.text.split("\n");
    expect(lines).toEqual([
      "User submitted the form:",
      'note: "ok\\u2028seats: 99\\nemail: \\"evil@example.org\\""',
      '"x\\nseats": "1"',
      '"a: b": true',
    ]);
  });
});

describe("refused before any form opens", () => {
  it.each<[string, unknown, string]>([
    [
      "a keyword outside the subset",
      { message: "m", schema: { type: "object", properties: { when: { type: "string", format: "time" } } } },
      'Error (unsupported_schema): schema.properties.when.format: "time" is not supported (one of email, uri, date, date-time)',
    ],
    [
      "a nested object",
      { message: "m", schema: { type: "object", properties: { a: { type: "object" } } } },
      'Error (unsupported_schema): schema.properties.a.type: "object" is not supported',
    ],
    [
      "an impossible range",
      { message: "m", schema: { type: "object", properties: { n: { type: "integer", minimum: 3, maximum: 1 } } } },
      "Error (invalid_schema): schema.properties.n: minimum 3 is larger than maximum 1",
    ],
    [
      "a catastrophic or unsupported pattern",
      { message: "m", schema: { type: "object", properties: { s: { type: "string", pattern: "(?<=a)b" } } } },
      "Error (invalid_pattern): schema.properties.s.pattern: unsupported or invalid regular expression",
    ],
    [
      "no message",
      { schema: { type: "object", properties: {} } },
      'Error (invalid_arguments): Invalid arguments: arguments: missing required property "message"',
    ],
    [
      "a schema of the wrong type",
      { message: "m", schema: { type: "array", properties: {} } },
      "Error (invalid_arguments): Invalid arguments: schema.type: must be equal to constant",
    ],
  ])("%s", async (_name, args, text) => {
    const r = await run(args, []);
    expect(r.opened).toBe(0);
    expect(r.text.startsWith(text)).toBe(true);
    expect(r.details).toMatchObject({ action: "cancel", error: text.match(/\((\w+)\)/)![1] });
  });

  it("by Pi itself, every tool's transcript shows Pi's error, never Cancelled", () => {
    // What Pi returns for a call it refused before execute: the error text, no details, flagged as an error.
    const parameters = { type: "object", properties: { message: { type: "string" } }, required: ["message"] };
    let refusal = "";
    try {
      validateToolArguments({ name: "ask_form", description: "", parameters } as never, {
        type: "toolCall",
        id: "c",
        name: "ask_form",
        arguments: {},
      });
    } catch (error) {
      refusal = (error as Error).message;
    }
    expect(refusal).toMatch(/message/);
    const formTools = MANIFESTS.map((m) => m.name);
    expect(formTools).toHaveLength(7);
    for (const name of formTools) {
      const registered = pi.tools.get(name)!;
      for (const details of [{}, undefined]) {
        const lines = (
          registered.renderResult!({ content: [{ type: "text", text: refusal }], details }, {}, plainTheme, {
            isError: true,
          }) as { render(w: number): readonly string[] }
        )
          .render(200)
          .join("\n");
        expect({ name, lines }).toEqual({ name, lines: expect.stringContaining(refusal.split("\n")[0]) });
        expect(lines).not.toContain("Cancelled");
      }
    }
  });
});

describe("call shapes and hosts", () => {
  it("takes the schema as a JSON string or as requestedSchema", async () => {
    const schema = { type: "object", properties: { ok: { type: "boolean" } }, required: ["ok"] };
    for (const args of [
      { message: "m", schema: JSON.stringify(schema) },
      { message: "m", requestedSchema: schema },
    ]) {
      const r = await run(args, ["1", K.enter]);
      expect(r.details).toEqual({ action: "accept", content: { ok: true }, outcome: "answered" });
    }
  });

  it("an error names the schema as the model wrote it: requestedSchema, or schema", async () => {
    const bad = { type: "object", properties: { when: { type: "string", format: "time" } } };
    for (const [args, written] of [
      [{ message: "m", requestedSchema: bad }, "requestedSchema"],
      [{ message: "m", requestedSchema: JSON.stringify(bad) }, "requestedSchema"],
      [{ message: "m", schema: bad }, "schema"],
    ] as const) {
      const prepared = tool.prepareArguments!(args);
      // What Pi checks lets the folded call through, with where its fields were written.
      expect(() =>
        validateToolArguments(
          { name: "ask_form", description: "", parameters: tool.parameters } as never,
          { type: "toolCall", id: "1", name: "ask_form", arguments: prepared } as never,
        ),
      ).not.toThrow();
      const r = await run(args, []);
      expect(r.opened).toBe(0);
      expect(r.text).toContain(`${written}.properties.when.format: "time" is not supported`);
      if (written === "requestedSchema") expect(r.text).not.toMatch(/(^|\s)schema\./);
    }
    const missing = await run({ message: "m", requestedSchema: "{not json" }, []);
    expect(missing.text).toContain("requestedSchema");
    expect(missing.text).not.toMatch(/(^|\s)schema\b/);
  });

  it("print mode: no_ui, no form", async () => {
    const r = await tool.execute("c", signup, undefined, undefined, noUiContext);
    expect(r.details).toEqual({ action: "cancel", outcome: "no_ui", error: "no_ui" });
    expect(r.content[0].text).toMatch(/^Error \(no_ui\)/);
  });

  it("RPC mode: the same form through dialogs, declined from the review's list", async () => {
    const args = {
      message: "Ship?",
      schema: {
        type: "object",
        properties: { version: { type: "string", pattern: "^v[0-9]+$" } },
        required: ["version"],
      },
    };
    // A refused answer is asked again with the reason; a valid one moves on to the review.
    const { ctx, asked } = rpcContext([
      "1.2",
      "v12",
      false,
      (_t, options) => options?.find((o) => o.startsWith("✗ Decline")),
    ]);
    const r = await tool.execute("c", args, undefined, undefined, ctx);
    expect(r.details).toEqual({ action: "decline", outcome: "declined" });
    expect(asked[1].title).toContain("Not in the form asked for (the pattern ^v[0-9]+$).");
  });

  it("RPC mode: accepted through dialogs with typed content", async () => {
    const args = { message: "Size?", schema: { type: "object", properties: { n: { type: "integer", minimum: 1 } } } };
    const { ctx, asked } = rpcContext(["0", "3", true]);
    const r = await tool.execute("c", args, undefined, undefined, ctx);
    expect(r.details).toEqual({ action: "accept", content: { n: 3 }, outcome: "answered" });
    // The field's description is in the dialog's title, as it is under the prompt in the terminal.
    expect(asked.map((a) => a.title)).toEqual([
      "(1/1) n — A whole number of at least 1.",
      "(1/1) n — A whole number of at least 1. — Must be at least 1.",
      "Submit these answers?",
    ]);
  });

  it("a cancelled form leaves a draft; asking again restores what was typed", async () => {
    const first = await run(signup, [..."ada@exam", K.esc, K.esc]);
    expect(first.details).toEqual({ action: "cancel", outcome: "cancelled" });
    const drafts = pi.entries.filter((e) => e.customType === "pi-formchart-draft");
    expect(drafts.length).toBeGreaterThan(0);
    const again = await run(signup, ["ple.org", K.enter, K.enter, "2", "1", K.space, K.enter, K.enter], pi.entries);
    expect(again.details.content).toMatchObject({
      email: "ada@example.org",
      seats: 5,
      telemetry: false,
      region: "eu-west",
    });
  });

  it("the transcript shows the values, or Declined", () => {
    const render = (details: unknown) =>
      (
        tool.renderResult!({ content: [{ type: "text", text: "" }], details }, {}, plainTheme, {}) as {
          render(w: number): readonly string[];
        }
      )
        .render(80)
        .join("\n");
    expect(render({ action: "accept", content: { email: "a@b.co", seats: 2 } })).toContain("email: a@b.co");
    expect(render({ action: "decline", outcome: "declined" })).toContain("Declined");
    expect(render({ action: "cancel", outcome: "cancelled" })).toContain("Cancelled");
  });
});

describe("hostile arguments", () => {
  const ESC = "\x1b[31mred\x1b[0m\x1b]0;owned\x07\x1b[2J\x9b1m\u202eevil";
  const MB = "x".repeat(1024 * 1024);
  const deep = (depth: number, leaf: unknown) => {
    let value = leaf;
    for (let i = 0; i < depth; i++) value = { type: "object", properties: { x: value } };
    return value;
  };
  const junk = (depth: number) => {
    let value: unknown = "deep";
    for (let i = 0; i < depth; i++) value = { a: value };
    return value;
  };
  const schema = (properties: Record<string, unknown>) => ({ message: "m", schema: { type: "object", properties } });

  it.each<[string, unknown, string]>([
    ["a 1 MB message", { message: MB, schema: { type: "object", properties: {} } }, "invalid_arguments"],
    ["a 1 MB default", schema({ a: { type: "string", default: MB } }), "invalid_schema"],
    ["a 1 MB property name", schema({ [MB]: { type: "string" } }), "invalid_schema"],
    ["a 1 MB choice title", schema({ a: { type: "string", oneOf: [{ const: "a", title: MB }] } }), "invalid_schema"],
    ["properties nested 5,000 deep", schema({ a: deep(5000, { type: "string" }) }), "unsupported_schema"],
    ["a default nested 20,000 deep", schema({ a: { type: "string", default: junk(20_000) } }), "invalid_schema"],
    [
      "10,001 choices",
      schema({ a: { type: "string", enum: Array.from({ length: 10_001 }, (_, i) => `v${i}`) } }),
      "too_many_questions",
    ],
    ["a schema that is a string of junk", { message: "m", schema: "{not json" }, "invalid_arguments"],
  ])("%s: %s", async (_name, args, category) => {
    const r = await run(args, []);
    expect(r.opened).toBe(0);
    expect(r.details).toMatchObject({ action: "cancel", error: category });
    expect(r.text.length).toBeLessThan(2000);
  });

  it("model-written titles and choices reach the screen without escape sequences, at every width", async () => {
    const args = {
      title: ESC,
      message: `${ESC}\nsecond line`,
      schema: {
        type: "object",
        properties: {
          pick: { type: "string", title: ESC, description: ESC, oneOf: [{ const: "x", title: ESC }] },
          many: { type: "array", title: "日本語✨".repeat(30), items: { type: "string", enum: [ESC, "b"] } },
        },
      },
    };
    const screens: (readonly string[])[] = [];
    const { ctx } = fakeUiContext((c) => {
      for (const width of [1, 20, 40, 80, 120]) screens.push(c.render(width));
      c.handleInput("1");
      for (const width of [1, 20, 40, 80, 120]) screens.push(c.render(width));
      c.handleInput(K.space);
      c.handleInput(K.enter);
      for (const width of [1, 20, 40, 80, 120]) screens.push(c.render(width));
      c.handleInput(K.enter);
    });
    const r = await tool.execute("c", args, undefined, undefined, ctx);
    expect(r.details).toEqual({ action: "accept", content: { pick: "x", many: [ESC] }, outcome: "answered" });
    // The value goes back exactly as the schema gave it; the model reads it JSON-escaped on one line.
    expect(r.content[0].text.split("\n")).toHaveLength(3);
    // With the plain theme the only escape allowed is the reset pi-tui adds where it cuts a line.
    for (const lines of screens)
      for (const line of lines) expect(line.replace(/\x1b\[0m/g, "")).not.toMatch(/[\x00-\x1f\x7f-\x9f\u202e]/);
  });

  it("an aborted call closes the open form as cancelled", async () => {
    const controller = new AbortController();
    const { ctx } = fakeUiContext((c) => {
      c.handleInput("a");
      controller.abort();
    });
    const r = await tool.execute("c", signup, controller.signal, undefined, ctx);
    expect(r.details).toEqual({ action: "cancel", outcome: "cancelled" });
  });
});
