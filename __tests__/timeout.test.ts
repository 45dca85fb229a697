/**
 * A form with a timeout: it counts down from when it is shown, the person's
 * first key stops the clock for good, and at the end it closes with the
 * answers given and the recommended option of each open question; the tools
 * say so in their text and `details`, and the setting gives a default.
 */
import { afterEach, beforeEach, describe, expect, it, jest } from "@jest/globals";
import { hasInput, restoreContext } from "../machines/entered.js";
import { FormSession } from "../machines/session.js";
import { normalizeForm } from "../machines/spec.js";
import { runDialogs } from "../renderers/terminal/dialogs.js";
import { plainTheme } from "../renderers/theme.js";
import { runFormchart } from "../tools/commands.js";
import { prepareFormFile } from "../tools/engine/catalog.js";
import { DRAFT_ENTRY } from "../tools/engine/drafts.js";
import { prepareForm } from "../tools/engine/form-tool.js";
import { question } from "../tools/engine/question.js";
import { questionThrottle } from "../tools/engine/question-throttle.js";
import { RICH_CANCELLED_TEXT } from "../tools/engine/rich.js";
import { RESTORED_NOTICE } from "../tools/engine/run.js";
import { createFormchart } from "../tools/index.js";
import { resultLines } from "../tools/register.js";
import { FormchartState } from "../tools/state.js";
import { KEY, openForm } from "./helpers/fake-host.js";
import { fakePi, fakeUiContext } from "./helpers/fake-pi.js";
import { DEJAVU_MONO, fontCoverage, haveDejaVuMono } from "./helpers/font.js";
import { tempAgentDir } from "./helpers/temp.js";

const ARGS = {
  timeout: 30,
  questions: [
    {
      id: "db",
      label: "DB",
      prompt: "Which database?",
      options: [{ label: "PostgreSQL", recommended: true }, { label: "SQLite" }],
    },
    {
      id: "extras",
      label: "Extras",
      prompt: "Which extras?",
      multiple: true,
      options: [{ label: "Metrics", recommended: true }, { label: "Tracing", recommended: true }, { label: "Flags" }],
    },
    {
      id: "name",
      label: "Name",
      prompt: "A new name?",
      allowOther: false,
      options: [{ label: "Yes" }, { label: "No" }],
    },
  ],
};

function prepared(args: unknown = ARGS) {
  const ready = prepareFormFile({ tool: "question", arguments: args });
  if (!ready.ok) throw new Error(ready.message);
  return ready.form;
}

beforeEach(() => {
  jest.useFakeTimers({ doNotFake: ["performance"] });
});
afterEach(() => {
  jest.useRealTimers();
});

describe("the answer clock", () => {
  it("closes the form at the end with the recommended options, and the tool says it timed out", () => {
    const form = prepared();
    expect(form.spec.timeoutMs).toBe(30_000);
    const { form: component, results } = openForm(form.spec);
    expect(component.render(100).join("\n")).toContain("Closes in 30s with the recommended answers");
    jest.advanceTimersByTime(29_999);
    expect(results).toEqual([]);
    jest.advanceTimersByTime(1);
    expect(results).toHaveLength(1);
    const [result] = results;
    expect(result).toMatchObject({ cancelled: true, timedOut: true, defaulted: ["db", "extras"] });
    expect(result.answers.map((a) => a.options)).toEqual([[0], [0, 1], []]);
    const answer = form.answer(result);
    expect(answer.text).toBe(
      [
        "The form timed out: nobody pressed a key within 30s, so the user submitted nothing.",
        "Taken by default (the option you marked recommended):",
        "DB: 1. PostgreSQL",
        "Extras: 1. Metrics, 2. Tracing",
        "No answer: Name",
      ].join("\n"),
    );
    expect(answer.details).toMatchObject({
      cancelled: false,
      outcome: "timed_out",
      defaulted: ["db", "extras"],
      answers: [
        { id: "db", label: "PostgreSQL", index: 1, defaulted: true },
        { id: "extras", label: "Metrics", index: 1, defaulted: true },
        { id: "extras", label: "Tracing", index: 2, defaulted: true },
      ],
    });
    component.dispose();
  });

  it("is stopped for good by the person's first key, which still does what it does", () => {
    const form = prepared();
    const { form: component, results, press } = openForm(form.spec);
    press(KEY.down);
    expect(component.session.snapshot.context.clock).toBe("stopped");
    expect(component.session.snapshot.context.cursors[0]).toBe(1);
    expect(component.render(100).join("\n")).not.toContain("Closes in");
    jest.advanceTimersByTime(120_000);
    expect(results).toEqual([]);
    press(KEY.enter);
    expect(component.session.snapshot.context.answered[0]).toBe(true);
    component.dispose();
  });

  it("lists the answers a restored draft gave apart from the ones taken by default", () => {
    const form = prepared();
    const { form: first } = openForm(form.spec);
    first.dispose();
    // A draft restored with the first question answered: the person's answer, not a default.
    const { spec: _, ...context } = first.session.snapshot.context;
    const none = { options: [], custom: [] };
    const restore = { ...context, answered: [true, false, false], picks: [{ options: [1], custom: [] }, none, none] };
    const { form: component, results } = openForm(form.spec, { restore });
    jest.advanceTimersByTime(30_000);
    expect(results).toHaveLength(1);
    const text = form.answer(results[0]).text;
    expect(text).toContain("Answers the user gave:\nDB: user selected: 2. SQLite");
    expect(text).toContain("Taken by default (the option you marked recommended):\nExtras: 1. Metrics, 2. Tracing");
    component.dispose();
  });

  it("does not run without a timeout, nor in dialogs, which show no countdown", async () => {
    const plain = prepared({ ...ARGS, timeout: undefined });
    expect(plain.spec.timeoutMs).toBeUndefined();
    const { form: component, results } = openForm(plain.spec);
    expect(component.session.snapshot.context.clock).toBe("off");
    jest.advanceTimersByTime(600_000);
    expect(results).toEqual([]);
    component.dispose();
    const single = normalizeForm({
      timeoutMs: 1000,
      questions: [{ prompt: "p", options: [{ label: "A", recommended: true }, { label: "B" }], allowOther: false }],
    });
    const ui = {
      select: async () => {
        jest.advanceTimersByTime(5000);
        return "2. B";
      },
      input: async () => undefined,
      confirm: async () => false,
      notify: () => {},
    };
    const outcome = await runDialogs(ui as never, new FormSession({ spec: single }));
    expect(outcome.result.timedOut).toBeUndefined();
  });
});

describe("ask_rich_questions with a timeout", () => {
  it("says the form timed out, keeps `cancelled: true` and carries the outcome and the defaults in details", () => {
    const ready = prepareFormFile({
      tool: "ask_rich_questions",
      arguments: {
        timeout: 5,
        questions: [
          {
            id: "target",
            prompt: "Where?",
            options: [{ label: "Prod" }, { label: "Staging", value: "stage", recommended: true }],
          },
        ],
      },
    });
    if (!ready.ok) throw new Error(ready.message);
    const { form: component, results } = openForm(ready.form.spec);
    jest.advanceTimersByTime(5000);
    const answer = ready.form.answer(results[0]);
    // The text says what was taken, as the details do.
    expect(answer.text).toBe(
      [
        "The form timed out: nobody pressed a key within 5s, so the user submitted nothing.",
        "Taken by default (the option you marked recommended):",
        "Question 1 (target): 2. Staging",
      ].join("\n"),
    );
    expect(answer.text).not.toBe(RICH_CANCELLED_TEXT);
    expect(answer.details).toMatchObject({
      cancelled: true,
      outcome: "timed_out",
      defaulted: ["target"],
      answers: [{ id: "target", value: "stage", selectedOptionIndexes: [1] }],
    });
    component.dispose();
  });
});

describe("the default timeout", () => {
  it("is off unless set, set and cleared by /formchart timeout, and a call's own timeout wins", async () => {
    const state = new FormchartState(tempAgentDir());
    expect(state.settings.timeoutSeconds).toBeUndefined();
    expect((await runFormchart("timeout", state)).text).toContain("Timeout of forms: off");
    expect((await runFormchart("timeout soon", state)).level).toBe("error");
    // What is accepted is said, not only what was not.
    expect(await runFormchart("timeout 0", state)).toEqual({
      text: '"0" is not off or a whole number of seconds from 1 to 86400.\nUsage: /formchart timeout off|<seconds> (1 to 86400)',
      level: "error",
    });
    expect((await runFormchart("timeout 45", state)).level).toBe("info");
    expect(state.settings.timeoutSeconds).toBe(45);
    expect(
      new FormchartState(state.settingsFile.replace(/\/pi-formchart\/settings\.json$/, "")).settings.timeoutSeconds,
    ).toBe(45);
    const raw = { questions: ARGS.questions };
    const byDefault = prepareForm(question, raw, { defaultTimeoutSeconds: state.settings.timeoutSeconds });
    expect(byDefault.ok && byDefault.form.spec.timeoutMs).toBe(45_000);
    const own = prepareForm(
      question,
      { ...raw, timeout: 10 },
      { defaultTimeoutSeconds: state.settings.timeoutSeconds },
    );
    expect(own.ok && own.form.spec.timeoutMs).toBe(10_000);
    expect((await runFormchart("timeout off", state)).level).toBe("info");
    expect(state.settings.timeoutSeconds).toBeUndefined();
  });

  it("is refused past a day and below a second in a call", () => {
    expect(question.check({ ...ARGS, timeout: 0 }).ok).toBe(false);
    expect(question.check({ ...ARGS, timeout: 86_401 }).ok).toBe(false);
    expect(question.check({ ...ARGS, timeout: 1.5 }).ok).toBe(false);
  });
});

describe("every tool takes a timeout", () => {
  function timeOut(tool: string, args: Record<string, unknown>, seconds = 7) {
    const ready = prepareFormFile({ tool, arguments: { ...args, timeout: seconds } });
    if (!ready.ok) throw new Error(ready.message);
    expect(ready.form.spec.timeoutMs).toBe(seconds * 1000);
    const { form: component, results } = openForm(ready.form.spec);
    const footer = component.render(100).join("\n");
    jest.advanceTimersByTime(seconds * 1000);
    expect(results).toHaveLength(1);
    component.dispose();
    return { footer, answer: ready.form.answer(results[0]) as { text: string; details: Record<string, unknown> } };
  }

  const rating = { id: "mood", prompt: "How was it?", type: "rating", options: [] };
  const db = {
    id: "db",
    prompt: "Which database?",
    options: [{ label: "PostgreSQL" }, { label: "SQLite", recommended: true }],
  };

  it("questionnaire: the recommended option is taken, a generated rating stays open", () => {
    const { footer, answer } = timeOut("questionnaire", { questions: [db, rating] });
    expect(footer).toContain("Closes in 7s with the recommended answers");
    expect(answer.text).toBe(
      [
        "The form timed out: nobody pressed a key within 7s, so the user submitted nothing.",
        "Taken by default (the option you marked recommended):",
        "Q1: 2. SQLite",
        "No answer: Q2",
      ].join("\n"),
    );
    expect(answer.details).toMatchObject({
      cancelled: false,
      outcome: "timed_out",
      defaulted: ["db"],
      answers: [{ id: "db", value: "SQLite", index: 2, defaulted: true }],
    });
  });

  it("question_branch: a question the default reveals is answered by its own recommendation", () => {
    const follow = {
      id: "file",
      prompt: "Where is the file?",
      when: "db equals SQLite",
      options: [{ label: "./data.db", recommended: true }, { label: ":memory:" }],
    };
    const { answer } = timeOut("question_branch", { questions: [db, follow] });
    expect(answer.details).toMatchObject({ outcome: "timed_out", defaulted: ["db", "file"], hidden: [] });
    expect(answer.text).toContain("Q2: 1. ./data.db");
  });

  it("question_throttle: the recommended option after the countdown, shown in the transcript as taken", () => {
    const { answer } = timeOut("question_throttle", {
      question: "Keep going?",
      cooldown: 0,
      options: [{ label: "Yes", recommended: true }, { label: "Stop" }],
    });
    expect(answer.details).toMatchObject({
      answer: "Yes",
      index: 1,
      cancelled: false,
      outcome: "timed_out",
      defaulted: ["q1"],
    });
    expect(answer.text).toBe(
      [
        "The form timed out: nobody pressed a key within 7s, so the user submitted nothing.",
        "Taken by default (the option you marked recommended):",
        "Keep going?: 1. Yes",
      ].join("\n"),
    );
    expect(resultLines(questionThrottle, answer.details, [], plainTheme).split("\n")).toEqual([
      "Timed out",
      "✓ Answer: Yes (recommended, by timeout)",
    ]);
  });

  it("question_input: closes unanswered, and its countdown promises no recommended answer", () => {
    const { footer, answer } = timeOut("question_input", { question: "Project name?" });
    expect(footer).toContain("◷ Closes in 7s; press any key");
    expect(answer.text.split("\n").at(-1)).toBe("No answer: Project name?");
    expect(answer.details).toMatchObject({ answer: null, cancelled: false, outcome: "timed_out", defaulted: [] });
  });

  it("ask_form: reports cancel with the outcome, never the pre-filled defaults as submitted", () => {
    const { answer } = timeOut("ask_form", {
      message: "Seats for the beta",
      schema: { type: "object", properties: { seats: { type: "integer", title: "Seats", default: 5 } } },
    });
    expect(answer.details).toEqual({ action: "cancel", outcome: "timed_out" });
    expect(answer.text).toMatch(/^The form timed out: nobody pressed a key within 7s, so the user submitted nothing\./);
  });

  it("refuses a timeout below a second or past a day in every tool that declares one", () => {
    for (const [tool, args] of [
      ["questionnaire", { questions: [db] }],
      ["question_branch", { questions: [db] }],
      ["question_throttle", { question: "Go?", options: ["Yes"] }],
      ["question_input", { question: "Name?" }],
      ["ask_form", { message: "m", schema: { type: "object", properties: { a: { type: "string" } } } }],
    ] as const) {
      for (const timeout of [0, 1.5, 86_401]) {
        const ready = prepareFormFile({ tool, arguments: { ...args, timeout } });
        expect({ tool, timeout, ok: ready.ok }).toEqual({ tool, timeout, ok: false });
      }
    }
  });
});

describe("what a timeout took is never the person's", () => {
  const db = { id: "db", prompt: "Which database?", options: [{ label: "PostgreSQL", recommended: true }, "SQLite"] };
  const calls: Array<[string, Record<string, unknown>]> = [
    ["question", { questions: [{ ...db, label: "DB" }] }],
    ["questionnaire", { questions: [db] }],
    ["question_branch", { questions: [db] }],
    ["question_throttle", { question: "Which database?", cooldown: 0, options: db.options }],
    ["question_input", { question: "Project name?" }],
    ["ask_rich_questions", { questions: [db] }],
    [
      "ask_form",
      { message: "Seats", schema: { type: "object", properties: { seats: { type: "integer", default: 5 } } } },
    ],
  ];

  /** Run a tool in a session, open the form and let its clock run out, pressing `keys` first where given. */
  function session(tool: string) {
    const pi = fakePi();
    createFormchart({ agentDir: tempAgentDir() })(pi.api);
    const ask = async (args: unknown, keys: string[] = []) => {
      let screen = "";
      const { ctx } = fakeUiContext(async (form) => {
        screen = form.render(100).join("\n");
        for (const key of keys) form.handleInput(key);
        if (keys.length === 0) jest.advanceTimersByTime(7000);
      }, pi.entries);
      const result = await pi.tools.get(tool)!.execute("c", args, undefined, undefined, ctx);
      return { screen, text: result.content[0].text, details: result.details };
    };
    return { pi, ask };
  }

  it.each(calls)("%s: the timeout leaves no draft, and the same form asked again opens as new", async (tool, args) => {
    const { pi, ask } = session(tool);
    const first = await ask({ ...args, timeout: 7 });
    expect(first.details).toMatchObject({ outcome: "timed_out" });
    expect(pi.entries.filter((e) => e.customType === DRAFT_ENTRY)).toEqual([]);
    const second = await ask({ ...args, timeout: 7 });
    expect(second.screen).not.toContain(RESTORED_NOTICE);
    expect(second.text).toBe(first.text);
    expect(second.text).not.toContain("Answers the user gave");
  });

  it("a draft keeps the person's answers and drops the timeout's; the text keeps the two apart", async () => {
    const { pi, ask } = session("question");
    const q2 = {
      id: "orm",
      label: "ORM",
      prompt: "Which ORM?",
      options: [{ label: "Drizzle", recommended: true }, "Prisma"],
    };
    const args = { timeout: 7, questions: [{ ...db, label: "DB" }, q2] };
    // SQLite chosen, then the form is cancelled (Esc, and Esc again to discard): a draft of the person's answer.
    await ask(args, ["2", KEY.esc, KEY.esc]);
    const second = await ask(args);
    expect(second.screen).toContain(RESTORED_NOTICE);
    expect(second.text).toContain("Answers the user gave:\nDB: user selected: 2. SQLite");
    expect(second.text).toContain("Taken by default (the option you marked recommended):\nORM: 1. Drizzle");
    const draft = pi.entries.at(-1)?.data as { context: { answered: boolean[] } };
    expect(draft.context.answered).toEqual([true, false]);
    const third = await ask(args);
    expect(third.text).toBe(second.text);
    // A changed form (one question added) takes back the person's answer, still not the timeout's.
    const changed = {
      ...args,
      questions: [...args.questions, { id: "when", prompt: "When?", options: ["Now", "Later"] }],
    };
    const fourth = await ask(changed);
    expect(fourth.screen).toContain("↺");
    expect(fourth.text).toContain("Answers the user gave:\nDB: user selected: 2. SQLite\n");
    expect(fourth.text).toContain("ORM: 1. Drizzle");
    expect(fourth.text).not.toContain("ORM: user selected");
  });

  it("a draft stored with the timeout's picks in it restores only the person's", () => {
    const form = prepared();
    const { form: component } = openForm(form.spec);
    jest.advanceTimersByTime(30_000);
    const { spec: _, ...closed } = component.session.snapshot.context;
    component.dispose();
    const restored = restoreContext(form.spec, closed);
    expect(restored?.answered).toEqual([false, false, false]);
    expect(restored && hasInput(form.spec, restored)).toBe(false);
  });
});

// Debian's default monospace font; where it is not installed there is nothing to look the glyphs up in.
(haveDejaVuMono ? describe : describe.skip)("the countdown in Debian's default monospace font", () => {
  it("draws only glyphs DejaVu Sans Mono has", () => {
    const covered = fontCoverage(DEJAVU_MONO);
    const { form: component } = openForm(prepared().spec);
    const line = component
      .render(100)
      .find((l) => l.includes("Closes in"))
      ?.trim();
    component.dispose();
    expect(line).toBeDefined();
    const missing = [...line!].filter((ch) => !covered(ch.codePointAt(0)!));
    expect({ line, missing }).toEqual({ line, missing: [] });
  });
});
