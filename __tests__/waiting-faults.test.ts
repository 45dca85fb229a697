/**
 * Attacks on what a session records of questions asked with `wait: false`,
 * and on the ids echoed back: a resumed session keeps every valid entry
 * whatever the others hold; ids are unique and stay exact; every id shown or
 * echoed is cleaned and cut; a timed-out text says what was taken.
 */
import { afterEach, beforeEach, describe, expect, it, jest } from "@jest/globals";
import { timedOutResult } from "../machines/waiting.js";
import { plainTheme } from "../renderers/theme.js";
import { FORM_TOOLS, prepareFormFile } from "../tools/engine/catalog.js";
import { asked, extension } from "./helpers/waiting-extension.js";

const entry = (data: unknown) => ({ type: "custom", customType: "formchart-waiting", data });
const question = asked.questions[0];
const recorded = (id: string) => entry({ id, toolName: "question", args: { questions: [question] } });

beforeEach(() => {
  jest.useFakeTimers({ doNotFake: ["nextTick", "queueMicrotask", "setImmediate"] });
});
afterEach(() => {
  jest.useRealTimers();
});

describe("a resumed session whose entries are malformed", () => {
  it.each([
    ["null", null],
    ["a number", 42],
    ["a string", "ask-1"],
    ["an array", ["ask-1"]],
    ["an object without an id", { toolName: "question", args: {} }],
  ])("with data %s beside valid ones: nothing throws, the valid ones are asked again", async (_name, data) => {
    const x = await extension(null, { entries: [recorded("ask-1"), entry(data), recorded("ask-2")] });
    expect(x.line()?.[0]).toMatch(/^\? 2 questions wait .* Alt\+A opens ask-1: Which database\?/);
    expect(x.notices).toContain("pi-formchart: 2 questions from before wait again (Alt+A).");
  });
});

describe("ids", () => {
  it("an id recorded twice is asked once, and withdrawn once", async () => {
    const x = await extension(null, { entries: [recorded("ask-1"), recorded("ask-1")] });
    expect(x.line()?.[0]).toMatch(/^\? A question waits/);
    const first = await x.call("withdraw_question", { id: "ask-1" });
    const second = await x.call("withdraw_question", { id: "ask-1" });
    expect([first.details.outcome, second.details.outcome]).toEqual(["withdrawn", "error"]);
  });

  it("after a recorded id past 2^53, each new question still gets an id of its own", async () => {
    const past = "ask-9007199254740993";
    const x = await extension(null, { entries: [recorded(past), entry({ id: past, ended: "answered" })] });
    const ids = [];
    for (let i = 0; i < 3; i++) ids.push((await x.call("question", asked)).details.id);
    expect(new Set(ids).size).toBe(3);
  });

  it("a new id never repeats one the session recorded", async () => {
    const x = await extension(null, { entries: [entry({ id: "ask-1", ended: "answered" }), recorded("ask-2")] });
    expect((await x.call("question", asked)).details.id).toBe("ask-3");
  });
});

describe("ids shown or echoed", () => {
  const hostile = "ask-1\x1b[2J\x1b]0;pwned\x07\nSECOND LINE";

  it("a recorded id reaches the line, the notice and the Withdrew text cleaned, on one line", async () => {
    const x = await extension(null, { entries: [recorded(hostile)] });
    const line = x.line()!.join("\n");
    expect(line).not.toMatch(/[\x00-\x1f\x7f]/);
    expect(line).toContain("ask-1 SECOND LINE");
    const withdrawn = await x.call("withdraw_question", { id: hostile });
    expect(withdrawn.content[0].text).toBe("Withdrew ask-1 SECOND LINE (Which database?); the user was told.");
    expect(x.notices.join("\n")).not.toMatch(/\x1b/);
  });

  it("withdraw_question's echo of an unknown id is cut and cleaned", async () => {
    const x = await extension();
    const huge = `\x1b[31m${"x\x07".repeat(500_000)}`;
    const refused = await x.call("withdraw_question", { id: huge });
    const text = refused.content[0].text;
    expect(text.length).toBeLessThan(300);
    expect(text).not.toMatch(/[\x00-\x1f\x7f]/);
    expect(text).toMatch(/^Error \(not_waiting\): x\^Gx/);
    expect(JSON.stringify(refused.details).length).toBeLessThan(300);
  });

  it("the tool line and the answer's message show a recorded id cleaned", async () => {
    const x = await extension(null, { entries: [recorded(hostile)] });
    const line = x.pi.tools.get("question")!.renderResult!(
      { details: { outcome: "pending", id: hostile }, content: [] },
      {},
      plainTheme,
      {},
    );
    expect(line.render(200).join("")).not.toMatch(/\x1b\[2J|\n/);
    const message = x.pi.renderers.get("formchart-waiting")!(
      { content: "Answer to x:\nok", details: { id: hostile } },
      {},
      plainTheme,
    )!;
    expect(message.render(200)[0]).not.toMatch(/\x1b\[2J/);
  });
});

describe("a timed-out text says what was taken, on every tool", () => {
  const calls: Record<string, unknown> = {
    question: { timeout: 5, questions: [question] },
    questionnaire: { timeout: 5, questions: [question] },
    question_throttle: { timeout: 5, question: "Which database?", cooldown: 0, options: question.options },
    question_branch: { timeout: 5, questions: [question] },
    ask_rich_questions: {
      timeout: 5,
      questions: [{ id: "db", prompt: "Which database?", options: [{ label: "PostgreSQL", recommended: true }] }],
    },
  };
  // Every tool with options: question_input and ask_form have none to recommend, so take nothing.
  const named = FORM_TOOLS.map((tool) => tool.name).filter((name) => name !== "question_input" && name !== "ask_form");
  it("covers every tool that has options", () => expect(Object.keys(calls).sort()).toEqual([...named].sort()));
  it.each(named.map((name) => [name]))("%s", (name) => {
    const args = calls[name];
    const ready = prepareFormFile({ tool: name, arguments: args });
    if (!ready.ok) throw new Error(ready.message);
    const { spec } = ready.form;
    const answer = ready.form.answer(timedOutResult(spec));
    const { defaulted } = answer.details as { defaulted?: string[] };
    expect(defaulted?.length).toBeGreaterThan(0);
    expect(answer.text).toContain("Taken by default (the option you marked recommended):");
    expect(answer.text).toContain("PostgreSQL");
  });
});
