/**
 * MCP elicitation against the official SDK: a real MCP server and client
 * (`@modelcontextprotocol/sdk`, in-memory transport). The server asks with
 * `elicitInput`; the client's `elicitation/create` handler answers through
 * `elicit()`, whose form is driven with key bytes on the real component; the
 * server must receive `accept` (with content its own validator accepts),
 * `decline` and `cancel` exactly as the person chose.
 */
import { afterEach, describe, expect, it } from "@jest/globals";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import {
  type ElicitRequestFormParams,
  ElicitRequestSchema,
  type ElicitResult as McpElicitResult,
} from "@modelcontextprotocol/sdk/types.js";
import { elicit } from "../tools/api.js";
import { K, loadExtension, scriptedUi } from "./helpers/elicit.js";

type Schema = ElicitRequestFormParams["requestedSchema"];

const signup: Schema = {
  type: "object",
  properties: {
    email: { type: "string", title: "Contact email", format: "email" },
    seats: { type: "integer", title: "Seats", minimum: 1, maximum: 50, default: 5 },
    telemetry: { type: "boolean", title: "Share usage data", default: false },
    region: {
      type: "string",
      title: "Region",
      oneOf: [
        { const: "eu-west", title: "Europe" },
        { const: "us-east", title: "United States" },
      ],
    },
    features: {
      type: "array",
      title: "Features",
      items: { type: "string", enum: ["previews", "rollbacks", "canary"] },
      minItems: 1,
      maxItems: 2,
    },
  },
  required: ["email", "seats", "region", "features"],
};

const open: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const close of open.splice(0)) await close();
});

/** A connected server and client whose elicitation handler answers with `keys` through `elicit()`. */
async function connect(script: string[][]) {
  loadExtension();
  const ui = scriptedUi(script);
  const server = new Server({ name: "deploy-server", version: "1.0.0" }, { capabilities: {} });
  const client = new Client({ name: "pi", version: "1.0.0" }, { capabilities: { elicitation: { form: {} } } });
  const handled: unknown[] = [];
  /** What `elicit()` resolved with, on the client's side. */
  const answered: unknown[] = [];
  client.setRequestHandler(ElicitRequestSchema, async (request, extra) => {
    handled.push(request.params);
    if (request.params.mode === "url") return { action: "decline", outcome: "declined" };
    const result = await elicit(ui.ctx, request.params, extra.signal);
    answered.push(result);
    return result;
  });
  const [serverSide, clientSide] = InMemoryTransport.createLinkedPair();
  await Promise.all([server.connect(serverSide), client.connect(clientSide)]);
  open.push(async () => {
    await client.close();
    await server.close();
  });
  const ask = (requestedSchema: Schema, message = "The deploy server needs a few details.") =>
    server.elicitInput({ message, requestedSchema });
  return { server, client, ui, ask, handled, answered };
}

const type = (text: string) => [...text];

describe("a real MCP server receives what the person chose", () => {
  it("accept: five typed fields filled with keys arrive as typed content the server's validator accepts", async () => {
    const keys = [
      ...type("ada@example.org"),
      K.enter, // email, then on to seats (default 5)
      K.backspace,
      ...type("12"),
      K.enter, // seats 12
      "1", // telemetry: Yes
      "2", // region: United States
      K.space,
      K.down,
      K.down,
      K.space,
      K.enter, // features: previews, canary
      K.enter, // submit on the review tab
    ];
    const { ask, ui } = await connect([keys]);
    const result: McpElicitResult = await ask(signup);
    expect(result).toEqual({
      action: "accept",
      outcome: "answered",
      content: {
        email: "ada@example.org",
        seats: 12,
        telemetry: true,
        region: "us-east",
        features: ["previews", "canary"],
      },
    });
    expect(typeof result.content?.seats).toBe("number");
    expect(typeof result.content?.telemetry).toBe("boolean");
    expect(ui.opened()).toBe(1);
  });

  it("accept with defaults only: Submit straight away sends the defaults, and optional fields stay out", async () => {
    const schema: Schema = {
      type: "object",
      properties: {
        name: { type: "string", title: "Name", default: "ada" },
        retries: { type: "number", title: "Retries", minimum: 0, maximum: 10, default: 2.5 },
        verbose: { type: "boolean", default: true },
        level: { type: "string", enum: ["low", "high"], enumNames: ["Low", "High"], default: "high" },
        nickname: { type: "string", title: "Nickname" },
      },
      required: ["name"],
    };
    const { ask } = await connect([[K.shiftTab, K.enter]]);
    expect(await ask(schema)).toEqual({
      action: "accept",
      outcome: "partial",
      content: { name: "ada", retries: 2.5, verbose: true, level: "high" },
    });
  });

  it("decline: d on the review tab sends decline without content", async () => {
    const { ask } = await connect([[K.shiftTab, "d"]]);
    const result = await ask(signup);
    expect(result).toEqual({ action: "decline", outcome: "declined" });
    expect("content" in result).toBe(false);
  });

  it("cancel: Esc sends cancel without content, even after typing", async () => {
    const { ask } = await connect([[...type("ada@"), K.esc, K.esc]]);
    expect(await ask(signup)).toEqual({ action: "cancel", outcome: "cancelled" });
  });

  it("cancel: a request the server gives up on closes the open form", async () => {
    const { server, ui, answered } = await connect([[...type("half")]]);
    // The SDK (1.32) ignores a cancellation of request id 0: let another request take that id first.
    await server.ping();
    const controller = new AbortController();
    const pending = server.elicitInput(
      { message: "Still there?", requestedSchema: signup },
      { signal: controller.signal, timeout: 60_000 },
    );
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(ui.opened()).toBe(1);
    expect(answered).toEqual([]);
    controller.abort("gave up");
    await expect(pending).rejects.toThrow();
    // The server's cancellation reaches the client's handler: the form closes as cancelled.
    for (let i = 0; i < 50 && answered.length === 0; i++) await new Promise((resolve) => setTimeout(resolve, 10));
    expect(answered).toEqual([{ action: "cancel", outcome: "cancelled" }]);
  });

  it("a one-field form and a confirmation with no fields", async () => {
    const { ask } = await connect([[...type("OPS-12"), K.enter, K.enter], [K.enter], ["d"]]);
    const ticket: Schema = {
      type: "object",
      properties: { ticket: { type: "string", minLength: 3, maxLength: 20 } },
      required: ["ticket"],
    };
    expect(await ask(ticket)).toEqual({ action: "accept", content: { ticket: "OPS-12" }, outcome: "answered" });
    const confirmation: Schema = { type: "object", properties: {} };
    expect(await ask(confirmation, "Drop the staging database?")).toEqual({
      action: "accept",
      content: {},
      outcome: "answered",
    });
    expect(await ask(confirmation, "Drop it again?")).toEqual({ action: "decline", outcome: "declined" });
  });

  it("formats, ranges and counts: a refused answer is never sent, the corrected one is", async () => {
    const schema: Schema = {
      type: "object",
      properties: {
        site: { type: "string", format: "uri" },
        day: { type: "string", format: "date" },
        at: { type: "string", format: "date-time" },
        ratio: { type: "number", minimum: 0, maximum: 1 },
        tags: {
          type: "array",
          items: {
            anyOf: [
              { const: "a", title: "Alpha" },
              { const: "b", title: "Beta" },
              { const: "c", title: "Gamma" },
            ],
          },
          minItems: 2,
        },
      },
      required: ["site", "day", "at", "ratio", "tags"],
    };
    const keys = [
      ...type("example.com"),
      K.enter, // refused: not an absolute URI
      ...Array(11).fill(K.backspace),
      ...type("https://example.com"),
      K.enter,
      ...type("2023-02-29"),
      K.enter, // refused: no such day
      K.backspace,
      "8",
      K.enter,
      ...type("2025-11-25T10:00:00"),
      K.enter, // refused: no time zone
      "Z",
      K.enter,
      ...type("1.5"),
      K.enter, // refused: above the maximum
      K.backspace,
      K.backspace,
      K.backspace,
      ...type(".25"),
      K.enter,
      K.space,
      K.enter, // refused: one choice, two needed
      K.down,
      K.down,
      K.space,
      K.enter,
      K.enter,
    ];
    const { ask } = await connect([keys]);
    expect(await ask(schema)).toEqual({
      action: "accept",
      outcome: "answered",
      content: {
        site: "https://example.com",
        day: "2023-02-28",
        at: "2025-11-25T10:00:00Z",
        ratio: 0.25,
        tags: ["a", "c"],
      },
    });
  });

  it("a schema the SDK accepts but no answer could satisfy comes back to the server as an error, no form opens", async () => {
    const { ask, ui } = await connect([]);
    const impossible: Schema = {
      type: "object",
      properties: { code: { type: "string", minLength: 5, maxLength: 2 } },
    };
    await expect(ask(impossible)).rejects.toThrow(/invalid_schema: requestedSchema\.properties\.code: minLength 5/);
    expect(ui.opened()).toBe(0);
  });

  it("what the SDK's client hands on: keywords outside MCP's schema (pattern, a top-level title) are stripped", async () => {
    const { ask, handled } = await connect([[K.esc]]);
    const withPattern = {
      type: "object",
      title: "Ticket",
      properties: { code: { type: "string", pattern: "^[A-Z]+$" } },
    } as unknown as Schema;
    expect(await ask(withPattern)).toEqual({ action: "cancel", outcome: "cancelled" });
    expect(handled[0]).toEqual({
      mode: "form",
      message: "The deploy server needs a few details.",
      requestedSchema: { type: "object", properties: { code: { type: "string" } } },
    });
  });
});
