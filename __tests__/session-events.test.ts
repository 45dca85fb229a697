/**
 * The session's lifetime: `session_shutdown` closes open forms and leaves
 * nothing running (in a real child process: shutdown-process.test.ts), and a session name
 * someone else gave or cleared is left alone (`session_info_changed`).
 */
import { getEventListeners } from "node:events";
import type { Api, Model } from "@earendil-works/pi-ai";
import { describe, expect, it } from "@jest/globals";
import { normalizeForm } from "../machines/spec.js";
import type { FormComponent } from "../renderers/terminal/component.js";
import { showAndKeep } from "../tools/engine/run.js";
import { WARM_UP_DELAY_MS, warmUp } from "../tools/events.js";
import { createFormchart } from "../tools/index.js";
import { FormchartState } from "../tools/state.js";
import { fakePi, fakeUiContext } from "./helpers/fake-pi.js";
import { tempAgentDir } from "./helpers/temp.js";

const two = [{ label: "A" }, { label: "B" }];

function setup() {
  const pi = fakePi();
  createFormchart({ agentDir: tempAgentDir() })(pi.api);
  return pi;
}

const shutdown = { type: "session_shutdown", reason: "quit" };

describe("session_shutdown", () => {
  it("closes a form waiting out its countdown, as cancelled, and stops its actor", async () => {
    const pi = setup();
    const first = fakeUiContext((c) => c.handleInput("1"));
    await pi.tools.get("question")!.execute("a", { question: "First?", options: two }, undefined, undefined, first.ctx);
    let form: FormComponent | undefined;
    const waiting = fakeUiContext((c) => {
      form = c as FormComponent;
    });
    const pending = pi.tools
      .get("question_throttle")!
      .execute("b", { question: "Later?", options: two, cooldown: 3600 }, undefined, undefined, waiting.ctx);
    await new Promise((r) => setTimeout(r, 50));
    expect(form?.session.position.kind).toBe("waiting");
    await pi.fire("session_shutdown", shutdown);
    expect((await pending).details).toMatchObject({ answer: null, throttled: true, cancelled: true });
    expect(form?.session.snapshot.status).not.toBe("active");
  });

  it("keeps what was entered in an open form as a draft", async () => {
    const pi = setup();
    const { ctx } = fakeUiContext((c) => c.handleInput("1"));
    const args = {
      questions: [
        { id: "a", prompt: "First?", options: two },
        { id: "b", prompt: "Second?", options: two },
      ],
    };
    const pending = pi.tools.get("questionnaire")!.execute("a", args, undefined, undefined, ctx);
    await new Promise((r) => setTimeout(r, 50));
    await pi.fire("session_shutdown", shutdown);
    expect((await pending).details).toMatchObject({ cancelled: true, answers: [{ id: "a", label: "A" }] });
    expect(pi.entries.map((e) => e.customType)).toEqual(["pi-formchart-draft"]);
  });

  it("closes a form asked through dialogs", async () => {
    const pi = setup();
    const asked: string[] = [];
    const ctx = {
      hasUI: true,
      sessionManager: { getBranch: () => [] },
      ui: {
        custom: async () => undefined,
        notify: () => {},
        // A dialog the person never answers: it ends only when its signal aborts.
        select: (title: string, _options: string[], opts?: { signal?: AbortSignal }) => {
          asked.push(title);
          return new Promise<undefined>((resolve) =>
            opts?.signal?.addEventListener("abort", () => resolve(undefined), { once: true }),
          );
        },
      },
    };
    const pending = pi.tools
      .get("question")!
      .execute("a", { question: "Which?", options: two }, undefined, undefined, ctx);
    await new Promise((r) => setTimeout(r, 50));
    expect(asked).toEqual(["Which?"]);
    await pi.fire("session_shutdown", shutdown);
    expect((await pending).details).toMatchObject({ answer: null, cancelled: true, outcome: "cancelled" });
  });

  it("closes any number of open forms, none of which listens on the session's own signal", async () => {
    const state = new FormchartState(tempAgentDir());
    const spec = normalizeForm({ questions: [{ prompt: "Which?", options: two }] });
    let opened = 0;
    const { ctx } = fakeUiContext(() => {
      opened++;
    });
    // Calls without an abort signal of their own: the session's is the only one there is.
    const pending = Array.from({ length: 25 }, () => showAndKeep(state, ctx as never, { spec }, undefined));
    await new Promise((r) => setTimeout(r, 50));
    expect(opened).toBe(25);
    // More than ten listeners on one signal is what Node reports as a possible leak.
    expect(getEventListeners(state.closed, "abort").length).toBeLessThanOrEqual(10);
    await state.shutdown();
    const outcomes = await Promise.all(pending);
    expect(outcomes.every((o) => o.kind === "done" && o.result.cancelled)).toBe(true);
  });

  it("leaves nothing on the call's signal once a form closes, and closes the form when that signal aborts", async () => {
    const state = new FormchartState(tempAgentDir());
    const spec = normalizeForm({ questions: [{ prompt: "Which?", options: two }] });
    // Pi hands every tool call of a run the same signal.
    const run = new AbortController();
    const { ctx } = fakeUiContext((c) => c.handleInput("1"));
    for (let i = 0; i < 12; i++) {
      const outcome = await showAndKeep(state, ctx as never, { spec }, run.signal);
      expect(outcome.kind === "done" && outcome.result.cancelled).toBe(false);
    }
    expect(getEventListeners(run.signal, "abort")).toHaveLength(0);
    const open = fakeUiContext(() => {});
    const pending = showAndKeep(state, open.ctx as never, { spec }, run.signal);
    await new Promise((r) => setTimeout(r, 20));
    run.abort();
    const outcome = await pending;
    expect(outcome.kind === "done" && outcome.result.cancelled).toBe(true);
  });

  it("forms open together on one call's signal share one listener on it, and all close when it aborts", async () => {
    const state = new FormchartState(tempAgentDir());
    const spec = normalizeForm({ questions: [{ prompt: "Which?", options: two }] });
    const run = new AbortController();
    const open = fakeUiContext(() => {});
    const pending = [1, 2, 3].map(() => showAndKeep(state, open.ctx as never, { spec }, run.signal));
    await new Promise((r) => setTimeout(r, 20));
    expect(open.opened()).toBe(3);
    expect(getEventListeners(run.signal, "abort")).toHaveLength(1);
    run.abort();
    const outcomes = await Promise.all(pending);
    expect(outcomes.map((o) => o.kind === "done" && o.result.cancelled)).toEqual([true, true, true]);
    expect(getEventListeners(run.signal, "abort")).toHaveLength(0);
  });

  it("a host dialog that ignores its abort signal does not hold the shutdown", async () => {
    const pi = setup();
    const ctx = {
      hasUI: true,
      sessionManager: { getBranch: () => [] },
      ui: { custom: async () => undefined, notify: () => {}, select: () => new Promise<undefined>(() => {}) },
    };
    void pi.tools.get("question")!.execute("a", { question: "Which?", options: two }, undefined, undefined, ctx);
    await new Promise((r) => setTimeout(r, 50));
    const started = Date.now();
    await pi.fire("session_shutdown", shutdown);
    expect(Date.now() - started).toBeLessThan(5000);
  });

  it("no form opens after the session shut down", async () => {
    const pi = setup();
    await pi.fire("session_shutdown", shutdown);
    const { ctx, opened } = fakeUiContext(() => {});
    const result = await pi.tools
      .get("question")!
      .execute("a", { question: "Which?", options: two }, undefined, undefined, ctx);
    expect(opened()).toBe(0);
    expect(result.details).toMatchObject({ answer: null, cancelled: true, outcome: "cancelled" });
  });

  it("/rich-questions stops waiting for the model", async () => {
    const pi = fakePi();
    let signal: AbortSignal | undefined;
    createFormchart({
      agentDir: tempAgentDir(),
      complete: (_model, _context, options) => {
        signal = options?.signal;
        return new Promise((_resolve, reject) =>
          options?.signal?.addEventListener("abort", () => reject(new Error("aborted")), { once: true }),
        );
      },
    })(pi.api);
    const notices: string[] = [];
    const ctx = {
      hasUI: true,
      ui: { notify: (text: string) => notices.push(text) },
      model: { id: "m", api: "openai-completions" } as Model<Api>,
      modelRegistry: { getApiKeyAndHeaders: async () => ({ ok: true, apiKey: "k" }) },
      sessionManager: {
        getBranch: () => [
          { type: "message", message: { role: "assistant", content: [{ type: "text", text: "A or B?" }] } },
        ],
      },
    };
    const running = pi.commands.get("rich-questions")!.handler("", ctx);
    await new Promise((r) => setTimeout(r, 20));
    expect(signal?.aborted).toBe(false);
    await pi.fire("session_shutdown", shutdown);
    await running;
    expect(signal?.aborted).toBe(true);
    expect(notices.at(-1)).toBe("/rich-questions could not build a form: cancelled.");
  });
});

describe("the engine's warm-up after session_start", () => {
  const wait = (ms: number) => new Promise((r) => setTimeout(r, ms));

  it("runs each tool's check once the delay has passed", async () => {
    const checked: unknown[] = [];
    warmUp(new AbortController().signal, 5, async () => void checked.push({}));
    for (let i = 0; i < 100 && checked.length === 0; i++) await wait(20);
    expect(checked).toEqual([{}]);
  });

  it("never starts when the session shuts down first, so nothing loads after it ended", async () => {
    const checked: unknown[] = [];
    const session = new AbortController();
    warmUp(session.signal, 30, async () => void checked.push({}));
    session.abort();
    warmUp(session.signal, 0, async () => void checked.push({}));
    await wait(300);
    expect(checked).toEqual([]);
  });

  it("is cleared by Pi's session_shutdown", async () => {
    const pi = setup();
    const { ctx } = fakeUiContext(() => {});
    const { setTimeout: set, clearTimeout: clear } = globalThis;
    const warmUps: unknown[] = [];
    const cleared: unknown[] = [];
    globalThis.setTimeout = ((fn: () => void, ms?: number) => {
      const handle = set(fn, ms);
      if (ms === WARM_UP_DELAY_MS) warmUps.push(handle);
      return handle;
    }) as typeof setTimeout;
    globalThis.clearTimeout = ((handle: Parameters<typeof clearTimeout>[0]) => {
      cleared.push(handle);
      clear(handle);
    }) as typeof clearTimeout;
    try {
      await pi.fire("session_start", { type: "session_start" }, ctx);
      expect(warmUps).toHaveLength(1);
      await pi.fire("session_shutdown", shutdown);
      expect(cleared).toContain(warmUps[0]);
    } finally {
      globalThis.setTimeout = set;
      globalThis.clearTimeout = clear;
    }
  });
});

describe("session names", () => {
  const answer = async (pi: ReturnType<typeof fakePi>, id: string) => {
    const { ctx } = fakeUiContext((c) => c.handleInput("2"));
    const args = { questions: [{ id: "a", prompt: "Which?", options: two }] };
    const result = await pi.tools.get("questionnaire")!.execute(id, args, undefined, undefined, ctx);
    await pi.fire("tool_result", { toolName: "questionnaire", toolCallId: id, details: result.details });
  };

  it("a name someone gave and then cleared is not replaced", async () => {
    const pi = setup();
    await pi.fire("session_info_changed", { type: "session_info_changed", name: "Release planning" });
    await pi.fire("session_info_changed", { type: "session_info_changed", name: undefined });
    await answer(pi, "1");
    expect(pi.sessionName()).toBeUndefined();
  });

  it("its own name coming back as a change is still its own", async () => {
    const pi = setup();
    await answer(pi, "1");
    expect(pi.sessionName()).toBe("Q&A: B");
    await pi.fire("session_info_changed", { type: "session_info_changed", name: "Q&A: B" });
    await answer(pi, "2");
    expect(pi.sessionName()).toBe("Q&A: B");
  });

  it("its name cleared by the person (found at the next answer) stays cleared", async () => {
    const pi = setup();
    await answer(pi, "1");
    expect(pi.sessionName()).toBe("Q&A: B");
    (pi.api as { setSessionName(name: string): void }).setSessionName("");
    await answer(pi, "2");
    expect(pi.sessionName()).toBe("");
  });
});
