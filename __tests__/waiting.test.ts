/**
 * Questions asked with `wait: false`: the waiting chart's routes
 * (@xstate/graph) take every state and transition of it, and each route is
 * replayed on the extension as Pi runs it (the tool call, the key on the
 * line, the form's own keys, `withdraw_question`, the timeout, the
 * session's end), which must end the way the route does.
 */

import type { Component } from "@earendil-works/pi-tui";
import { afterEach, beforeEach, describe, expect, it, jest } from "@jest/globals";
import { TestModel } from "@xstate/graph";
import { createActor } from "xstate";
import {
  openIn,
  startWaitingChart,
  stateOf,
  TIMED_OUT,
  timesOf,
  WAITING_EVENTS,
  type WaitingEvent,
  waitingMachine,
} from "../machines/waiting.js";
import { missedBy, newCoverage, recordMicrosteps } from "../renderers/inspect/coverage.js";
import { WAITING_SENDERS, waitingSection } from "../renderers/review/waiting.js";
import { escapeHtml } from "../renderers/text.js";
import { OFFER_TITLE, WALK_OPTION } from "../renderers/web/offer.js";
import { createFormchart } from "../tools/index.js";
import { KEY } from "./helpers/fake-host.js";
import { fakePi } from "./helpers/fake-pi.js";
import { tempAgentDir } from "./helpers/temp.js";
import { ALT_H, asked, extension } from "./helpers/waiting-extension.js";

/** The timeout of the question the routes replay (`asked`: 30 s). */
const input = { timeoutMs: 30_000 };

type Snap = { value: unknown; context: { closedBy?: string } };
const routes = new TestModel(waitingMachine, {
  events: [...WAITING_EVENTS, { type: TIMED_OUT }] as never,
  // A question opened again after it was put back is a node of its own, and so is one a key closed,
  // so the routes go on from there.
  serializeState: ((snapshot: Snap, _event: unknown, previous?: Snap) =>
    `${snapshot.value}${snapshot.value === "opened" && previous?.value === "putBack" ? " again" : ""}${snapshot.value === "opened" ? ` ${snapshot.context.closedBy}` : ""}`) as never,
  input,
}).getSimplePaths();

const steps = (route: (typeof routes)[number]) => route.steps.slice(1).map((s) => s.event as WaitingEvent);
// A key that closes the form (CLOSE_BY) ends it in the extension at once: the keys' own tests replay it.
const ends = routes.filter(
  (route) => route.state.status === "done" && !steps(route).some((e) => e.type === "CLOSE_BY"),
);

beforeEach(() => {
  jest.useFakeTimers({ doNotFake: ["nextTick", "queueMicrotask", "setImmediate"] });
});
afterEach(() => {
  jest.useRealTimers();
});

describe("the waiting chart's routes", () => {
  it("take every state and every transition of the chart", () => {
    const coverage = newCoverage();
    for (const route of routes) {
      const actor = createActor(waitingMachine, { input, inspect: recordMicrosteps(coverage) }).start();
      for (const event of steps(route)) actor.send(event);
      actor.stop();
    }
    const missed = missedBy(waitingMachine as never, coverage);
    expect({ states: missed.states, transitions: missed.transitions }).toEqual({ states: [], transitions: [] });
  });

  it.each(
    ends.map(
      (route) =>
        [
          route.steps
            .slice(1)
            .map((s) => s.event.type)
            .join(" → "),
          route,
        ] as const,
    ),
  )("%s ends in the extension as in the chart", async (_name, route) => {
    const x = await extension();
    expect(x.pending?.details).toEqual({ outcome: "pending", id: "ask-1" });
    expect(x.pending?.content[0].text).toBe(
      "Asked the user (ask-1): Which database? Their answer will arrive as a message; go on with work that does not depend on it (withdraw_question withdraws it).",
    );
    for (const event of steps(route)) await x.take(event);
    const end = route.state.value as string;
    const messages = x.pi.sent.map((s) => s.message.content);
    if (end === "answered") {
      expect(messages).toEqual(["Answer to ask-1 (question, asked with wait: false):\nDB: user selected: 2. SQLite"]);
      expect(x.pi.sent[0].message.details).toMatchObject({ id: "ask-1", toolName: "question", cancelled: false });
      expect(x.pi.sent[0].options).toEqual({ deliverAs: "followUp", triggerTurn: true });
    } else if (end === "timedOut") {
      expect(messages).toEqual([
        expect.stringMatching(/^Answer to ask-1 \(question, asked with wait: false\):\nThe form timed out/),
      ]);
      expect(x.pi.sent[0].message.details).toMatchObject({ id: "ask-1", outcome: "timed_out" });
    } else if (end === "refused") {
      expect(messages).toEqual([
        "Answer to ask-1 (question, asked with wait: false):\nUser declined to answer this question.",
      ]);
      expect(x.pi.sent[0].message.details).toMatchObject({ id: "ask-1", toolName: "question", outcome: "declined" });
    } else if (end === "withdrawn") {
      expect(messages).toEqual([]);
      expect(x.notices).toContain("The model withdrew its question (ask-1): Which database?");
    } else {
      expect(messages).toEqual([]);
    }
    expect(x.form()).toBeUndefined();
    // An ended question takes nothing more: no second answer, no withdrawal.
    const again = await x.call("withdraw_question", { id: "ask-1" });
    expect(again.details).toMatchObject({ outcome: "error", error: "not_waiting" });
    expect(x.pi.sent).toHaveLength(messages.length);
    // The session holds the question and, unless the session ended first, how it ended.
    const recorded = x.pi.entries.filter((e) => e.customType === "formchart-waiting").map((e) => e.data);
    expect(recorded).toEqual([
      { id: "ask-1", toolName: "question", args: expect.anything() },
      ...(end === "notAnswered" ? [] : [{ id: "ask-1", ended: end }]),
    ]);
  });
});

describe("the waiting chart's own state", () => {
  it("times out after its timeout, only while nobody has opened it", () => {
    const unopened = startWaitingChart(1000);
    const opened = startWaitingChart(1000);
    const putBack = startWaitingChart(1000);
    opened.send({ type: "OPEN", where: "terminal" });
    putBack.send({ type: "OPEN", where: "page" });
    putBack.send({ type: "PUT_BACK" });
    jest.advanceTimersByTime(999);
    expect(stateOf(unopened)).toBe("waiting");
    jest.advanceTimersByTime(1);
    expect([stateOf(unopened), stateOf(opened), stateOf(putBack)]).toEqual(["timedOut", "opened", "putBack"]);
    jest.advanceTimersByTime(86_400_000);
    expect([stateOf(opened), stateOf(putBack)]).toEqual(["opened", "putBack"]);
  });

  it("without a timeout waits on, with no deadline", () => {
    for (const chart of [startWaitingChart(), startWaitingChart(0)]) {
      jest.advanceTimersByTime(86_400_000);
      expect([stateOf(chart), timesOf(chart).deadline]).toEqual(["waiting", undefined]);
    }
  });

  it("holds when it was asked, its deadline until opened, where it is open and the key that closed it", () => {
    const since = Date.now();
    const chart = startWaitingChart(30_000);
    jest.advanceTimersByTime(5_000);
    expect([timesOf(chart), openIn(chart)]).toEqual([{ since, deadline: since + 30_000 }, undefined]);
    chart.send({ type: "OPEN", where: "page" });
    chart.send({ type: "CLOSE_BY", key: "next" });
    const { since: at, deadline } = timesOf(chart);
    expect([at, deadline, openIn(chart), chart.getSnapshot().context.closedBy]).toEqual([
      since,
      undefined,
      "page",
      "next",
    ]);
    chart.send({ type: "PUT_BACK" });
    expect(openIn(chart)).toBeUndefined();
    chart.send({ type: "OPEN", where: "terminal" });
    expect([openIn(chart), chart.getSnapshot().context.closedBy]).toEqual(["terminal", undefined]);
  });

  it("does not keep the process alive while its timeout runs, as XState's own clock would", () => {
    jest.useRealTimers();
    const timers = () => process.getActiveResourcesInfo().filter((r) => r === "Timeout").length;
    const before = timers();
    const chart = startWaitingChart(3_600_000);
    expect(timers()).toBe(before);
    const held = createActor(waitingMachine, { input: { timeoutMs: 3_600_000 } }).start();
    expect(timers()).toBe(before + 1);
    chart.stop();
    held.stop();
  });

  it("times out after the question's own timeout", async () => {
    const x = await extension();
    jest.advanceTimersByTime(29_999);
    expect(x.pi.sent).toEqual([]);
    jest.advanceTimersByTime(1);
    expect(x.pi.sent.map((s) => s.message.details)).toEqual([expect.objectContaining({ outcome: "timed_out" })]);
  });
});

describe("withdraw_question given malformed arguments", () => {
  it.each([
    ["null", null],
    ["no id", {}],
    ["a number", { id: 1 }],
    ["an empty id", { id: "" }],
  ])("%s: a specific error, and the question still waits", async (_name, args) => {
    const x = await extension();
    const refused = await x.call("withdraw_question", args);
    expect(refused.content[0].text).toMatch(/^Error \(invalid_arguments\): withdraw_question takes \{ "id"/);
    expect(refused.details).toMatchObject({ outcome: "error", error: "invalid_arguments" });
    const withdrawn = await x.call("withdraw_question", { id: "ask-1" });
    expect(withdrawn.details).toMatchObject({ outcome: "withdrawn", id: "ask-1" });
  });
});

describe("a question put back", () => {
  it("keeps what was entered and opens with it again", async () => {
    const ci = { id: "ci", label: "CI", prompt: "Which CI?", options: [{ label: "GitHub" }, { label: "Jenkins" }] };
    const x = await extension({ ...asked, questions: [...asked.questions, ci] });
    await x.take({ type: "OPEN" });
    x.form()!.handleInput("2");
    // Nothing is lost by putting it back: one Esc does it, without asking whether to discard.
    expect(x.form()!.render(100).join("\n")).toContain("Esc put back");
    await x.take({ type: "PUT_BACK" });
    expect(x.line()).toEqual([expect.stringContaining("A question waits")]);
    await x.take({ type: "OPEN" });
    const screen = x.form()!.render(80).join("\n");
    expect(screen).toContain("Restored what you entered");
    expect(screen).toContain("■ DB");
    x.form()!.handleInput(KEY.right);
    x.form()!.handleInput("1");
    expect(x.form()!.render(80).join("\n")).toContain("1. DB: SQLite");
    x.form()!.handleInput(KEY.enter);
    await x.closed();
    expect(x.pi.sent.map((m) => m.message.content)).toEqual([
      "Answer to ask-1 (question, asked with wait: false):\nDB: user selected: 2. SQLite\nCI: user selected: 1. GitHub",
    ]);
  });

  it("goes back to waiting on the fold key too, with the answer given kept", async () => {
    const ci = { id: "ci", label: "CI", prompt: "Which CI?", options: [{ label: "GitHub" }, { label: "Jenkins" }] };
    const x = await extension({ ...asked, questions: [...asked.questions, ci] });
    await x.take({ type: "OPEN" });
    x.form()!.handleInput("2");
    expect(x.form()!.render(100).join("\n")).toContain("Alt+H put back");
    x.form()!.handleInput(ALT_H);
    // Closed, not folded in place: nothing of the form is left to draw.
    expect(x.form()?.render(80).join("\n")).toBeUndefined();
    await x.closed();
    expect(x.line()).toEqual([expect.stringContaining("A question waits (0:00) · Alt+A opens ask-1")]);
    expect(x.pi.sent).toEqual([]);
    await x.take({ type: "OPEN" });
    const screen = x.form()!.render(80).join("\n");
    expect(screen).toContain("Restored what you entered");
    x.form()!.handleInput(KEY.right);
    x.form()!.handleInput("2");
    x.form()!.handleInput(KEY.enter);
    await x.closed();
    expect(x.pi.sent.map((m) => m.message.content)).toEqual([
      "Answer to ask-1 (question, asked with wait: false):\nDB: user selected: 2. SQLite\nCI: user selected: 2. Jenkins",
    ]);
  });
});

describe("a resumed session", () => {
  it("asks again each question it had waiting, under its id, and tells the model of one it cannot ask", async () => {
    const x = await extension();
    const recorded = x.pi.entries.filter((e) => e.customType === "formchart-waiting");
    // The next Pi process, resuming that session: its entries, and one question whose tool is gone.
    const next = fakePi();
    createFormchart({ agentDir: tempAgentDir() })(next.api);
    next.entries.push(...recorded, {
      type: "custom",
      customType: "formchart-waiting",
      data: { id: "ask-2", toolName: "no_such_tool", args: {} },
    });
    const widget: Array<() => Component> = [];
    const notices: string[] = [];
    const ctx = {
      hasUI: true,
      mode: "tui",
      isIdle: () => true,
      sessionManager: { getBranch: () => next.entries },
      ui: {
        setWidget: (_k: string, line: () => Component) => widget.push(line),
        notify: (t: string) => notices.push(t),
      },
    };
    await next.fire("session_start", { type: "session_start", reason: "resume" }, ctx);
    expect(widget.at(-1)!().render(200)).toEqual([expect.stringContaining("Alt+A opens ask-1: Which database?")]);
    expect(notices).toContain("pi-formchart: 1 question from before waits again (Alt+A).");
    expect(next.sent.map((s) => s.message.content)).toEqual([
      "ask-2 (no_such_tool, asked with wait: false) was not answered: it can no longer be asked. Ask again if you still need it.",
    ]);
    // A new question takes the next id, past every one the session recorded.
    const pending = await next.tools.get("question")!.execute("call-2", asked, undefined, undefined, ctx);
    expect(pending.details).toEqual({ outcome: "pending", id: "ask-3" });
  });
});

describe("a host with no terminal of its own (RPC mode)", () => {
  // Pi 1.x names its mode; Pi 0.73 does not, and its RPC host lists no themes.
  const hosts = {
    "Pi 1.x": { mode: "rpc", themes: ["dark"] },
    "Pi 0.73": { mode: undefined, themes: [] },
  };
  for (const [name, host] of Object.entries(hosts)) {
    it(`${name}: a wait: false call asks through the dialogs, waits for the answer, and says so`, async () => {
      const pi = fakePi();
      createFormchart({ agentDir: tempAgentDir() })(pi.api);
      const titles: string[] = [];
      const widget: Array<string[] | undefined> = [];
      const ctx = {
        hasUI: true,
        ...(host.mode ? { mode: host.mode } : {}),
        isIdle: () => true,
        sessionManager: { getBranch: () => pi.entries },
        ui: {
          custom: async () => undefined,
          getAllThemes: () => host.themes,
          select: async (title: string, options: string[]) => {
            titles.push(title);
            // Offered the browser tab first, the client takes the dialogs.
            return title === OFFER_TITLE ? WALK_OPTION : options.find((o) => o.includes("SQLite"));
          },
          setWidget: (_key: string, lines: string[] | undefined) => widget.push(lines),
          notify: () => {},
        },
      };
      const result = await pi.tools.get("question")!.execute("call-1", asked, undefined, undefined, ctx);
      expect(titles).toEqual([OFFER_TITLE, "Which database?"]);
      expect(result.content[0].text).toBe(
        "DB: user selected: 2. SQLite\n(This host cannot show a form beside your work, so the call waited for the answer.)",
      );
      expect(widget.filter(Boolean)).toEqual([]);
      expect(pi.entries.filter((e) => e.customType === "formchart-waiting")).toEqual([]);
    });
  }
});

describe("the review page's waiting chart", () => {
  it("draws every state of the chart and every edge, each named by what sends it", async () => {
    const section = await waitingSection();
    // In words, as the page's other charts name states: `putBack` is drawn "put back".
    for (const state of Object.keys(waitingMachine.root.states))
      expect(section).toContain(`>${state.replace(/[A-Z]/g, (c) => ` ${c.toLowerCase()}`)}</text>`);
    for (const event of [...WAITING_EVENTS, { type: TIMED_OUT }])
      expect(section).toContain(escapeHtml(WAITING_SENDERS[event.type]));
  });
});
