/**
 * `elicit()` for other extensions, directly and over Pi's event bus: MCP's
 * request and result shapes, errors with a category, aborts, drafts kept by
 * the loaded extension, and exactly one form per request on the bus.
 */

import type { ExtensionContext } from "@earendil-works/pi-coding-agent";
import { describe, expect, it } from "@jest/globals";
import type { ElicitRequestFormParams, ElicitResult as McpElicitResult } from "@modelcontextprotocol/sdk/types.js";
import {
  ELICIT_CHANNEL,
  ElicitError,
  type ElicitEventRequest,
  type ElicitFailure,
  type ElicitRequest,
  type ElicitResult,
  elicit,
} from "../tools/api.js";
import { elicitWith } from "../tools/elicit.js";
import { FormchartState } from "../tools/state.js";
import { K, loadExtension, scriptedUi } from "./helpers/elicit.js";
import { noUiContext } from "./helpers/fake-pi.js";
import { tempAgentDir } from "./helpers/temp.js";

const request: ElicitRequest = {
  message: "Which environment?",
  requestedSchema: {
    type: "object",
    properties: {
      env: { type: "string", title: "Environment", enum: ["staging", "production"] },
      reason: { type: "string", title: "Reason", minLength: 3 },
    },
    required: ["env"],
  },
};

describe("the types are MCP's", () => {
  it("an SDK request is an elicit() request, an elicit() result an SDK result", () => {
    const fromSdk: ElicitRequestFormParams = {
      mode: "form",
      message: "m",
      requestedSchema: { type: "object", properties: {} },
    };
    const asked: ElicitRequest = fromSdk;
    const answered: ElicitResult = {
      action: "accept",
      content: { a: 1, b: "x", c: true, d: ["y"] },
      outcome: "answered",
    };
    const toSdk: McpElicitResult = answered;
    expect([asked.message, toSdk.action]).toEqual(["m", "accept"]);
  });
});

describe("elicit()", () => {
  it("accepts with the values, keeping what the person typed out of optional fields they left empty", async () => {
    loadExtension();
    const ui = scriptedUi([["2", K.enter, K.enter]]);
    expect(await elicit(ui.ctx, request)).toEqual({
      action: "accept",
      content: { env: "production" },
      outcome: "partial",
    });
  });

  it("uses the loaded extension's drafts: a cancelled form is offered back", async () => {
    const pi = loadExtension();
    const first = scriptedUi([["2", ..."becau", K.esc, K.esc]]);
    expect(await elicit(first.ctx, request)).toEqual({ action: "cancel", outcome: "cancelled" });
    expect(pi.entries.some((e) => e.customType === "pi-formchart-draft")).toBe(true);
    // The restored form opens on its first field, the choice already made, the reason's draft in its editor.
    const again = scriptedUi([[K.enter, ..."se", K.enter, K.enter]], pi.entries);
    expect(await elicit(again.ctx, request)).toEqual({
      action: "accept",
      content: { env: "production", reason: "because" },
      outcome: "answered",
    });
  });

  it("an aborted signal closes the form as cancelled; one aborted before never opens it", async () => {
    loadExtension();
    const controller = new AbortController();
    const open = scriptedUi([["2"]]);
    const pending = elicit(open.ctx, request, controller.signal);
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(open.opened()).toBe(1);
    controller.abort();
    expect(await pending).toEqual({ action: "cancel", outcome: "cancelled" });
    const never = scriptedUi([]);
    expect(await elicit(never.ctx, request, AbortSignal.abort())).toEqual({ action: "cancel", outcome: "cancelled" });
    expect(never.opened()).toBe(0);
  });

  it.each<[string, unknown, string]>([
    [
      "a schema outside the subset",
      { message: "m", requestedSchema: { type: "object", properties: { a: { type: "string", format: "ipv4" } } } },
      "unsupported_schema",
    ],
    ["URL mode", { mode: "url", message: "m", url: "https://example.com", elicitationId: "e1" }, "invalid_arguments"],
    ["no schema", { message: "m" }, "invalid_arguments"],
  ])("rejects %s with an ElicitError and opens nothing", async (_name, raw, category) => {
    loadExtension();
    const ui = scriptedUi([]);
    const error = await elicit(ui.ctx, raw as ElicitRequest).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ElicitError);
    expect((error as ElicitError).category).toBe(category);
    expect(ui.opened()).toBe(0);
  });

  const schema = () => ({ type: "object", properties: { a: { type: "string" } } }) as Record<string, unknown>;
  const throwing = Object.defineProperty(schema(), "properties", {
    enumerable: true,
    get() {
      throw new Error("no properties today");
    },
  });
  const trapped = new Proxy(schema(), {
    get() {
      throw new Error("trap");
    },
    ownKeys() {
      throw new Error("trap");
    },
  });
  const cyclic = schema();
  cyclic.properties = { a: cyclic };
  it.each<[string, unknown]>([
    ["a schema whose getter throws", { message: "m", requestedSchema: throwing }],
    ["a schema behind a proxy that throws", { message: "m", requestedSchema: trapped }],
    [
      "a schema whose toJSON throws",
      {
        message: "m",
        requestedSchema: {
          ...schema(),
          toJSON: () => {
            throw new Error("no JSON today");
          },
        },
      },
    ],
    ["a cyclic schema", { message: "m", requestedSchema: cyclic }],
    ["a BigInt in the schema", { message: "m", requestedSchema: { ...schema(), minProperties: 1n } }],
    [
      "a request whose message getter throws",
      Object.defineProperty({ requestedSchema: schema() }, "message", {
        enumerable: true,
        get() {
          throw "not even an Error";
        },
      }),
    ],
  ])("rejects %s with an ElicitError (invalid_arguments) and opens nothing", async (_name, raw) => {
    loadExtension();
    const ui = scriptedUi([]);
    const error = await elicit(ui.ctx, raw as ElicitRequest).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ElicitError);
    expect(error).toMatchObject({ category: "invalid_arguments", message: expect.stringContaining("JSON data") });
    expect(ui.opened()).toBe(0);
  });

  it("rejects with an ElicitError when the form itself fails", async () => {
    const state = new FormchartState(tempAgentDir());
    state.track = async () => {
      throw new TypeError("the form broke");
    };
    const error = await elicitWith(state, scriptedUi([]).ctx, request).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ElicitError);
    expect(error).toMatchObject({ category: "invalid_arguments", message: expect.stringContaining("the form broke") });
  });

  it("rejects with no_ui where Pi has no interactive UI", async () => {
    loadExtension();
    const error = await elicit(noUiContext as unknown as ExtensionContext, request).catch((e: unknown) => e);
    expect(error).toMatchObject({ name: "ElicitError", category: "no_ui" });
  });
});

describe(`over pi.events on "${ELICIT_CHANNEL}"`, () => {
  function ask(bus: ReturnType<typeof loadExtension>["bus"], ctx: ExtensionContext, raw: unknown = request) {
    const event = {} as ElicitEventRequest;
    const answer = new Promise<{ result?: ElicitResult; error?: ElicitFailure }>((resolve) => {
      Object.assign(event, {
        ctx,
        request: raw,
        reply: (result: ElicitResult) => resolve({ result }),
        fail: (error: ElicitFailure) => resolve({ error }),
      });
    });
    bus.emit(ELICIT_CHANNEL, event);
    return { event, answer };
  }

  it("is claimed before emit returns and answered through reply", async () => {
    const { bus } = loadExtension();
    const ui = scriptedUi([["1", K.enter, K.enter]]);
    const { event, answer } = ask(bus, ui.ctx);
    expect(event.claimed).toBe(true);
    expect(await answer).toEqual({ result: { action: "accept", content: { env: "staging" }, outcome: "partial" } });
  });

  it("decline and cancel come back the same way", async () => {
    const { bus } = loadExtension();
    const ui = scriptedUi([[K.shiftTab, "d"], [K.esc]]);
    expect(await ask(bus, ui.ctx).answer).toEqual({ result: { action: "decline", outcome: "declined" } });
    expect(await ask(bus, ui.ctx).answer).toEqual({ result: { action: "cancel", outcome: "cancelled" } });
  });

  it("a refused request is answered through fail, with the category", async () => {
    const { bus } = loadExtension();
    const ui = scriptedUi([]);
    const raw = { message: "m", requestedSchema: { type: "object", properties: { a: { type: "null" } } } };
    const { error } = await ask(bus, ui.ctx, raw).answer;
    expect(error).toEqual({
      category: "unsupported_schema",
      message: expect.stringContaining('requestedSchema.properties.a.type: "null" is not supported'),
    });
    expect(ui.opened()).toBe(0);
  });

  it("a request without the caller's context fails instead of hanging", async () => {
    const { bus } = loadExtension();
    const { error } = await ask(bus, undefined as unknown as ExtensionContext).answer;
    expect(error?.message).toMatch(/ctx/);
  });

  it("two copies of the extension on one bus open one form, not two", async () => {
    const { bus, api } = loadExtension();
    // A second copy registered on the same bus.
    const { createFormchart } = await import("../tools/index.js");
    const { tempAgentDir } = await import("./helpers/temp.js");
    createFormchart({ agentDir: tempAgentDir() })({ ...(api as object), events: bus } as never);
    const ui = scriptedUi([["1", K.enter, K.enter]]);
    expect(await ask(bus, ui.ctx).answer).toEqual({
      result: { action: "accept", content: { env: "staging" }, outcome: "partial" },
    });
    expect(ui.opened()).toBe(1);
  });

  it("with no listener the request stays unclaimed, so a caller can tell", () => {
    const bus = loadExtension().bus;
    bus.clear();
    const { event } = ask(bus, scriptedUi([]).ctx);
    expect(event.claimed).toBeUndefined();
  });
});
