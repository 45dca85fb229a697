/**
 * /rich-questions against a scripted model: the forced tool call, the JSON
 * text fallback, a malformed extraction (one repair, then a notice) and cancel.
 */

import type { Api, AssistantMessage, Context, JsonObject, Model } from "@earendil-works/pi-ai";
import { describe, expect, it } from "@jest/globals";
import { createFormchart } from "../tools/index.js";
import {
  type CompleteFn,
  extractQuestions,
  forcedToolChoice,
  parseJsonReply,
  SUBMIT_TOOL,
} from "../tools/rich-command.js";
import { DEFAULT_SETTINGS, saveSettings, settingsPath } from "../tools/settings.js";
import { KEY } from "./helpers/fake-host.js";
import { fakePi, fakeUiContext } from "./helpers/fake-pi.js";
import { tempAgentDir } from "./helpers/temp.js";

const model = (api: string) =>
  ({
    id: "m",
    name: "m",
    api,
    provider: "p",
    baseUrl: "",
    reasoning: false,
    input: ["text"],
    cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
    contextWindow: 1,
    maxTokens: 1,
  }) as Model<Api>;

const deployArgs = {
  questions: [
    {
      id: "target",
      prompt: "Where should we deploy?",
      options: [
        { label: "Production", value: "prod" },
        { label: "Staging", value: "stage", recommended: true },
      ],
    },
  ],
};

type Reply = { text?: string; call?: unknown; stopReason?: AssistantMessage["stopReason"] };

/** A scripted model: each call returns the next reply and records what it was asked. */
function scripted(replies: Reply[]) {
  const calls: Array<{ context: Context; options: Record<string, unknown> | undefined }> = [];
  const complete: CompleteFn = async (_model, context, options) => {
    calls.push({ context, options });
    const r = replies[calls.length - 1] ?? { text: "" };
    const content: AssistantMessage["content"] = [];
    if (r.text !== undefined) content.push({ type: "text", text: r.text });
    if (r.call !== undefined)
      content.push({
        type: "toolCall",
        id: `t${calls.length}`,
        name: SUBMIT_TOOL,
        arguments: r.call as JsonObject,
      });
    return {
      role: "assistant",
      content,
      api: "x",
      provider: "p",
      model: "m",
      usage: {
        input: 0,
        output: 0,
        cacheRead: 0,
        cacheWrite: 0,
        totalTokens: 0,
        cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
      },
      stopReason: r.stopReason ?? (r.call ? "toolUse" : "stop"),
      timestamp: 0,
    } as AssistantMessage;
  };
  return { complete, calls };
}

describe("extraction", () => {
  it("forces the submit_questions call where the provider supports it", async () => {
    const { complete, calls } = scripted([{ call: deployArgs }]);
    const r = await extractQuestions(
      "Where should we deploy? I suggest staging.",
      model("openai-completions"),
      complete,
    );
    expect(r).toMatchObject({ ok: true, via: "tool", attempts: 1, args: deployArgs });
    expect(calls[0].options?.toolChoice).toEqual({ type: "function", function: { name: SUBMIT_TOOL } });
    expect(calls[0].context.tools?.map((t) => t.name)).toEqual([SUBMIT_TOOL]);
  });

  it("knows each provider family's way to force a tool", () => {
    expect(forcedToolChoice("anthropic-messages")).toEqual({ type: "tool", name: SUBMIT_TOOL });
    expect(forcedToolChoice("google-generative-ai")).toBe("any");
    expect(forcedToolChoice("openai-responses")).toBeUndefined();
  });

  it("falls back to JSON text (fenced or bare) where no tool can be forced", async () => {
    const { complete, calls } = scripted([{ text: `Here you go:\n\`\`\`json\n${JSON.stringify(deployArgs)}\n\`\`\`` }]);
    const r = await extractQuestions("…", model("openai-responses"), complete);
    expect(r).toMatchObject({ ok: true, via: "text", attempts: 1 });
    expect(calls[0].options?.toolChoice).toBeUndefined();
    expect(calls[0].context.tools).toBeUndefined();
    expect(parseJsonReply(`noise ${JSON.stringify({ a: 1 })} noise`)).toEqual({ ok: true, value: { a: 1 } });
  });

  it("repairs once after a malformed answer, telling the model what was wrong", async () => {
    const bad = {
      questions: [
        {
          prompt: "Where?",
          options: [
            { label: "A", value: "x" },
            { label: "B", value: "x" },
          ],
        },
      ],
    };
    const { complete, calls } = scripted([{ call: bad }, { call: deployArgs }]);
    const r = await extractQuestions("…", model("openai-completions"), complete);
    expect(r).toMatchObject({ ok: true, attempts: 2 });
    const repair = calls[1].context.messages.at(-1) as { role: string; content: Array<{ text: string }> };
    expect(repair.role).toBe("toolResult");
    expect(repair.content[0].text).toContain('questions[0].options[1].value: "x" repeats the value of options[0]');
  });

  it("gives up after a second malformed answer with a clear reason", async () => {
    const { complete } = scripted([{ text: "no json here" }, { text: "{ still: not json" }]);
    const r = await extractQuestions("…", model("openai-completions"), complete, { mode: "text" });
    expect(r).toEqual({ ok: false, reason: "the model's answer was malformed twice (the reply is not a JSON object)" });
  });

  it.each([
    ["a forced call", "openai-completions", { call: { questions: [] } }, "tool"],
    ["JSON text", "openai-responses", { text: '{"questions": []}' }, "text"],
  ] as const)("an empty questions list (%s) is an answer, not a malformed one", async (_name, api, reply, via) => {
    const { complete, calls } = scripted([reply, { call: deployArgs }]);
    const r = await extractQuestions("Done: the tests pass.", model(api), complete);
    expect(r).toEqual({ ok: true, via, attempts: 1, args: { questions: [] } });
    expect(calls).toHaveLength(1);
  });

  it("a model that never calls the tool is asked once more, then refused", async () => {
    const { complete, calls } = scripted([{ text: "sure" }, { text: "ok" }]);
    const r = await extractQuestions("…", model("anthropic-messages"), complete);
    expect(r).toEqual({
      ok: false,
      reason: `the model's answer was malformed twice (the model did not call ${SUBMIT_TOOL})`,
    });
    expect(calls).toHaveLength(2);
  });
});

describe("/rich-questions command", () => {
  function setup(replies: Reply[], richExtraction: "auto" | "text" = "auto", complete?: CompleteFn) {
    const dir = tempAgentDir();
    saveSettings(settingsPath(dir), { ...DEFAULT_SETTINGS, richExtraction });
    const pi = fakePi();
    const sent: Array<{ message: { content: string; customType: string }; options: unknown }> = [];
    (pi.api as { sendMessage: unknown }).sendMessage = (message: never, options: unknown) =>
      sent.push({ message, options });
    const script = scripted(replies);
    createFormchart({ agentDir: dir, complete: complete ?? script.complete })(pi.api);
    return { command: pi.commands.get("rich-questions")!, sent, calls: script.calls };
  }

  function commandContext(keys: string[], notices: string[]) {
    const { ctx } = fakeUiContext((c) =>
      keys.forEach((k) => {
        c.handleInput(k);
      }),
    );
    return {
      ...ctx,
      ui: { ...ctx.ui, notify: (text: string) => notices.push(text) },
      model: model("openai-completions"),
      modelRegistry: { getApiKeyAndHeaders: async () => ({ ok: true, apiKey: "k", headers: {} }) },
      sessionManager: {
        getBranch: () => [
          { type: "message", message: { role: "user", content: [{ type: "text", text: "deploy?" }] } },
          {
            type: "message",
            message: {
              role: "assistant",
              content: [{ type: "text", text: "Where should we deploy? I recommend staging." }],
            },
          },
        ],
      },
    };
  }

  it("opens the form and sends the contract text on submit", async () => {
    const { command, sent, calls } = setup([{ call: deployArgs }]);
    const notices: string[] = [];
    await command.handler(
      "",
      commandContext([KEY.down, "n", ..."After smoke tests", KEY.enter, KEY.enter, KEY.enter], notices),
    );
    expect((calls[0].context.messages[0] as { content: Array<{ text: string }> }).content[0].text).toContain(
      "Where should we deploy? I recommend staging.",
    );
    expect(sent).toHaveLength(1);
    expect(sent[0].message.customType).toBe("rich-questions");
    expect(sent[0].message.content).toContain(
      "  2. Staging\n     Value: stage\n     Selected: yes\n     Recommended: yes\n     User note: After smoke tests",
    );
    expect(sent[0].options).toEqual({ triggerTurn: true });
  });

  it("uses JSON text when the settings ask for it", async () => {
    const { command, sent, calls } = setup([{ text: JSON.stringify(deployArgs) }], "text");
    await command.handler("", commandContext(["1", KEY.enter], []));
    expect(calls[0].options?.toolChoice).toBeUndefined();
    expect(sent).toHaveLength(1);
  });

  it("cancel sends nothing", async () => {
    const { command, sent } = setup([{ call: deployArgs }]);
    const notices: string[] = [];
    await command.handler("", commandContext([KEY.esc], notices));
    expect(sent).toEqual([]);
    expect(notices.at(-1)).toBe("Form cancelled; nothing was sent.");
  });

  it("no open questions: one model call, a notice, no form and nothing sent", async () => {
    const { command, sent, calls } = setup([{ call: { questions: [] } }, { call: deployArgs }]);
    const notices: string[] = [];
    const ctx = commandContext([], notices);
    let opened = 0;
    ctx.ui.custom = (() => {
      opened++;
      return Promise.resolve(undefined);
    }) as never;
    await command.handler("", ctx);
    expect(calls).toHaveLength(1);
    expect(opened).toBe(0);
    expect(sent).toEqual([]);
    expect(notices.at(-1)).toBe("/rich-questions: no open questions found in the last assistant message.");
  });

  it("a model request that throws ends in a notice, not an exception", async () => {
    const { command, sent } = setup([], "auto", async () => {
      throw new Error("connect ECONNREFUSED 127.0.0.1:9");
    });
    const notices: string[] = [];
    await expect(command.handler("", commandContext([], notices))).resolves.toBeUndefined();
    expect(notices.at(-1)).toBe(
      "/rich-questions could not build a form: the model request failed (connect ECONNREFUSED 127.0.0.1:9).",
    );
    expect(sent).toEqual([]);
  });

  it("an API key lookup that throws ends in a notice, not an exception", async () => {
    const { command, sent, calls } = setup([{ call: deployArgs }]);
    const notices: string[] = [];
    const ctx = {
      ...commandContext([], notices),
      modelRegistry: {
        getApiKeyAndHeaders: async () => {
          throw new Error("auth.json is not valid JSON");
        },
      },
    };
    await expect(command.handler("", ctx)).resolves.toBeUndefined();
    expect(notices.at(-1)).toBe("/rich-questions: no API key for m (auth.json is not valid JSON).");
    expect(calls).toHaveLength(0);
    expect(sent).toEqual([]);
  });

  it("a malformed extraction opens nothing and says why", async () => {
    const { command, sent } = setup([{ call: { questions: "x" } }, { call: { nope: 1 } }]);
    const notices: string[] = [];
    await command.handler("", commandContext([], notices));
    expect(sent).toEqual([]);
    expect(notices.at(-1)).toMatch(
      /^\/rich-questions could not build a form: the model's answer was malformed twice \(Invalid arguments: /,
    );
  });
});
