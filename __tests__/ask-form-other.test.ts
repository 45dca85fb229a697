/**
 * `ask_form` choices that take other text: an `anyOf` of `{const, title}`
 * choices with one open `{"type": "string"}` branch offers a typed answer
 * (a single choice) or typed choices (a multiple choice), kept while the
 * person moves between fields and returned as typed; choices without an
 * open branch offer only their own values.
 */
import { beforeAll, describe, expect, it, jest } from "@jest/globals";
import { plainText } from "../renderers/text.js";
import { createFormchart } from "../tools/index.js";
import { K } from "./helpers/elicit.js";
import { fakePi, fakeUiContext, type RegisteredTool, rpcContext } from "./helpers/fake-pi.js";
import { tempAgentDir } from "./helpers/temp.js";

let tool: RegisteredTool;
jest.setTimeout(5000);
beforeAll(() => {
  const pi = fakePi();
  createFormchart({ agentDir: tempAgentDir() })(pi.api);
  tool = pi.tools.get("ask_form")!;
});

const OPEN = { type: "string", title: "Somewhere else" };
const region = {
  type: "string",
  title: "Region",
  anyOf: [{ const: "eu-west", title: "Europe" }, { const: "us-east", title: "United States" }, OPEN],
};
const tags = {
  type: "array",
  title: "Tags",
  items: { anyOf: [{ const: "web", title: "Web" }, { const: "cli", title: "CLI" }, { type: "string" }] },
};
const form = (properties: Record<string, unknown>) => ({ message: "Where?", schema: { type: "object", properties } });

/** Run the tool, pressing `keys`, keeping the screen seen after them at each width asked for, then `finish`. */
async function run(args: unknown, keys: string[], widths: number[] = [], finish: string[] = [K.enter]) {
  const screens: string[] = [];
  const { ctx } = fakeUiContext((c) => {
    for (const k of keys) c.handleInput(k);
    for (const w of widths) screens.push(c.render(w).map(plainText).join("\n"));
    for (const k of finish) c.handleInput(k);
  });
  const result = await tool.execute("call-1", tool.prepareArguments!(args), undefined, undefined, ctx);
  return { details: result.details as { action: string; content?: unknown }, text: result.content[0].text, screens };
}

describe("ask_form choices with an open branch", () => {
  it("a single choice takes a typed answer and returns it as typed", async () => {
    const r = await run(form({ region }), [K.down, K.down, K.enter, ..."Mars", K.enter]);
    expect(r.details).toEqual({ action: "accept", outcome: "answered", content: { region: "Mars" } });
    expect(r.text).toContain('region: "Mars"');
  });

  it("a single choice still returns a choice's value", async () => {
    const r = await run(form({ region }), ["2"]);
    expect(r.details).toEqual({ action: "accept", outcome: "answered", content: { region: "us-east" } });
  });

  it("a multiple choice returns the ticked values, then the typed ones", async () => {
    const r = await run(form({ tags }), [K.down, K.space, K.down, K.enter, ..."tui", K.enter, K.enter]);
    expect(r.details).toEqual({ action: "accept", outcome: "answered", content: { tags: ["cli", "tui"] } });
  });

  it("a typed value that is a ticked choice's value or title folds into that choice, with no duplicate", async () => {
    const ticked = await run(form({ tags }), [K.down, K.space, K.down, K.enter, ..."cli", K.enter, K.enter]);
    expect(ticked.details).toEqual({ action: "accept", outcome: "answered", content: { tags: ["cli"] } });
    const title = await run(form({ tags }), [K.space, K.down, K.down, K.enter, ..."Web", K.enter, K.enter]);
    expect(title.details).toEqual({ action: "accept", outcome: "answered", content: { tags: ["web"] } });
  });

  it("a default outside the choices starts as the typed answer", async () => {
    const r = await run(form({ region: { ...region, default: "ap-south" } }), [], [100], [K.shiftTab, K.enter]);
    expect(r.screens[0]).toContain("✎ ap-south");
    expect(r.details).toEqual({ action: "accept", outcome: "answered", content: { region: "ap-south" } });
  });

  it("keeps what was typed when the person goes to another field and back, at 60, 100 and 120 columns", async () => {
    const keys = [K.down, K.down, K.enter, ..."Mars", K.tab, K.shiftTab];
    const r = await run(form({ region, tags }), keys, [60, 100, 120], [K.esc, K.esc, K.esc]);
    expect(r.screens).toHaveLength(3);
    for (const screen of r.screens) expect(screen).toContain("Mars");
    expect(r.details.action).toBe("cancel");
  });

  it("without an open branch the field offers only its values", async () => {
    const closed = { ...region, anyOf: region.anyOf.slice(0, 2) };
    const r = await run(form({ closed }), [], [100], [K.esc]);
    expect(r.screens[0]).toContain("United States");
    expect(r.screens[0]).not.toContain("Type something.");
    const enumField = await run(form({ e: { type: "string", enum: ["a", "b"] } }), [], [100], [K.esc]);
    expect(enumField.screens[0]).not.toContain("Type something.");
  });

  it.each<[string, unknown, string]>([
    [
      "two open branches",
      { ...region, anyOf: [...region.anyOf, { type: "string" }] },
      'schema.properties.f.anyOf[3]: one open {"type": "string"} branch is enough (the first is at [2])',
    ],
    [
      "an open branch alone",
      { type: "string", anyOf: [OPEN] },
      'schema.properties.f.anyOf: an open {"type": "string"} branch needs {const, title} choices beside it',
    ],
    [
      "an open branch with limits",
      {
        type: "string",
        anyOf: [
          { const: "a", title: "A" },
          { type: "string", minLength: 2 },
        ],
      },
      'schema.properties.f.anyOf[1]: must be {"const": "<value>", "title": "<shown text>"} with string values',
    ],
  ])("refuses %s with a message that names it", async (_, f, message) => {
    const r = await run(form({ f }), []);
    expect(r.text).toBe(`Error (unsupported_schema): ${message}`);
  });
});

describe("ask_form choices with an open branch in RPC dialogs", () => {
  it("offer the typed answer among the options and return what was typed", async () => {
    const { ctx, asked } = rpcContext([
      (_t, options) => options?.find((o) => o.includes("Type something")),
      "Mars",
      true,
    ]);
    const r = await tool.execute("c", form({ region }), undefined, undefined, ctx);
    expect(asked.map((a) => a.kind)).toEqual(["select", "input", "confirm"]);
    expect(asked[0].options?.some((o) => o.includes("Type something"))).toBe(true);
    expect(r.details).toEqual({ action: "accept", outcome: "answered", content: { region: "Mars" } });
  });
});
