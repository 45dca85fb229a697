import { visibleWidth } from "@earendil-works/pi-tui";
import { beforeAll, describe, expect, it } from "@jest/globals";
import { plainTheme } from "../renderers/theme.js";
import { createFormchart } from "../tools/index.js";
import { WAIT_LINE } from "../tools/manifest.js";
import { KEY } from "./helpers/fake-host.js";
import { fakePi, fakeUiContext, noUiContext, type RegisteredTool, rpcContext } from "./helpers/fake-pi.js";
import { tempAgentDir } from "./helpers/temp.js";

let tool: RegisteredTool;
beforeAll(() => {
  const pi = fakePi();
  createFormchart({ agentDir: tempAgentDir() })(pi.api);
  tool = pi.tools.get("question")!;
});

const twoQuestions = {
  questions: [
    { id: "db", label: "DB", prompt: "Which database?", options: [{ label: "PostgreSQL" }, { label: "SQLite" }] },
    {
      id: "extras",
      label: "Extras",
      prompt: "Which extras?",
      multiple: true,
      options: [{ label: "Redis" }, { label: "Search" }, { label: "Queue" }],
    },
  ],
};

function run(args: unknown, keys: string[], signal?: AbortSignal) {
  const { ctx, opened } = fakeUiContext((c) =>
    keys.forEach((k) => {
      c.handleInput(k);
    }),
  );
  return { result: tool.execute("call-1", tool.prepareArguments!(args), signal, undefined, ctx), opened };
}

describe("registration", () => {
  it("registers question as a sequential tool with prompt guidance and the JSON Schema", () => {
    expect(tool.executionMode).toBe("sequential");
    expect(tool.promptSnippet).toMatch(/question/i);
    // Its own rules name it; the rule on wait is carried for every form tool.
    const own = tool.promptGuidelines?.filter((g) => g !== WAIT_LINE) ?? [];
    expect(own.length > 0 && own.every((g) => g.includes("question"))).toBe(true);
    expect((tool.parameters as { required: string[] }).required).toEqual(["questions"]);
  });
});

describe("answers", () => {
  it("groups each question's answers on one line and fills details", async () => {
    const keys = [
      "2",
      KEY.space,
      KEY.down,
      KEY.down,
      KEY.space,
      KEY.down,
      KEY.enter,
      ..."Cache",
      KEY.enter,
      KEY.enter,
      KEY.enter,
    ];
    const result = await run(twoQuestions, keys).result;
    expect(result.content[0].text).toBe(
      "DB: user selected: 2. SQLite\nExtras: user selected: 1. Redis, 3. Queue, user wrote: Cache",
    );
    expect(result.details.cancelled).toBe(false);
    expect(result.details.answers).toEqual([
      { id: "db", label: "SQLite", wasCustom: false, index: 2 },
      { id: "extras", label: "Redis", wasCustom: false, index: 1 },
      { id: "extras", label: "Queue", wasCustom: false, index: 3 },
      { id: "extras", label: "Cache", wasCustom: true },
    ]);
    expect(result.details.questions[1]).toEqual({
      id: "extras",
      label: "Extras",
      prompt: "Which extras?",
      options: [{ label: "Redis" }, { label: "Search" }, { label: "Queue" }],
      allowOther: true,
      multiple: true,
    });
    expect(result.details.question).toBeUndefined();
  });

  it("a call in the single-question shape also carries that question's result fields", async () => {
    const args = { question: "Which database?", options: [{ label: "PostgreSQL" }, { label: "SQLite" }] };
    const chosen = await run(args, [KEY.down, KEY.enter]).result;
    expect(chosen.details).toMatchObject({
      question: "Which database?",
      options: ["PostgreSQL", "SQLite"],
      answer: "SQLite",
      wasCustom: false,
      index: 2,
      cancelled: false,
    });
    const typed = await run(args, ["3", ..."MySQL", KEY.enter]).result;
    expect(typed.details).toMatchObject({ answer: "MySQL", wasCustom: true });
    expect(typed.details.index).toBeUndefined();
    const multi = await run({ ...args, type: "multi" }, [KEY.space, KEY.down, KEY.space, KEY.enter]).result;
    expect(multi.details).toMatchObject({ answer: ["PostgreSQL", "SQLite"], wasCustom: false });
    const cancelled = await run(args, [KEY.esc]).result;
    expect(cancelled.details).toMatchObject({ answer: null, cancelled: true, outcome: "cancelled" });
  });

  it("Esc cancels and keeps the answers given so far", async () => {
    // With an answer given, Esc asks first; a second Esc discards.
    const result = await run(twoQuestions, [KEY.enter, KEY.esc, KEY.esc]).result;
    expect(result.details.cancelled).toBe(true);
    expect(result.details.answers).toEqual([{ id: "db", label: "PostgreSQL", wasCustom: false, index: 1 }]);
    expect(result.content[0].text).toBe(
      "User cancelled the form. Answers given before cancelling:\nDB: user selected: 1. PostgreSQL",
    );
  });

  it("an aborted tool call closes the open form as cancelled", async () => {
    const controller = new AbortController();
    const { ctx } = fakeUiContext((c) => {
      c.handleInput("2");
      controller.abort();
    });
    const result = await tool.execute("call-1", twoQuestions, controller.signal, undefined, ctx);
    expect(result.details.cancelled).toBe(true);
    expect(result.details.answers).toEqual([{ id: "db", label: "SQLite", wasCustom: false, index: 2 }]);
  });

  it("a call aborted before it starts opens nothing", async () => {
    const controller = new AbortController();
    controller.abort();
    const { result, opened } = run(twoQuestions, [], controller.signal);
    expect((await result).details.cancelled).toBe(true);
    expect(opened()).toBe(0);
  });
});

describe("errors", () => {
  it("print and JSON mode return an error without opening anything", async () => {
    const result = await tool.execute("c", twoQuestions, undefined, undefined, noUiContext);
    expect(result.content[0].text).toMatch(/^Error \(no_ui\): .*plain text/);
    expect(result.details).toEqual({ questions: [], answers: [], cancelled: true, outcome: "no_ui", error: "no_ui" });
  });

  it("a host without custom UI (RPC) asks through dialogs instead", async () => {
    const { ctx, asked } = rpcContext([
      (_t, options) => options?.[1],
      (_t, options) => options?.find((o) => o.includes("Search")),
      "✓ Done",
      true,
    ]);
    const result = await tool.execute("c", twoQuestions, undefined, undefined, ctx);
    expect(result.content[0].text).toBe("DB: user selected: 2. SQLite\nExtras: user selected: 2. Search");
    expect(asked.map((a) => a.kind)).toEqual(["select", "select", "select", "confirm"]);
  });

  it("invalid arguments come back with their category and open nothing", async () => {
    const args = { questions: [{ prompt: "p", options: [{ label: "A" }, { label: "a" }] }] };
    const { result, opened } = run(args, []);
    const r = await result;
    expect(r.details.error).toBe("duplicate_option");
    expect(r.content[0].text).toContain('questions[0].options[1].label: "a" repeats options[0]');
    expect(opened()).toBe(0);
  });
});

describe("rendering in the chat", () => {
  const widthOf = (component: { render(w: number): readonly string[] }, w: number) =>
    Math.max(...component.render(w).map(visibleWidth));

  it("summarizes the call and the answers compactly", async () => {
    const call = tool.renderCall!(twoQuestions, plainTheme, {});
    expect(call.render(80).join("\n")).toContain("question 2 questions (DB, Extras)");
    const result = await run(twoQuestions, [KEY.enter, KEY.space, KEY.enter, KEY.enter]).result;
    const rendered = tool.renderResult!(result, {}, plainTheme, {}).render(80).join("\n");
    expect(rendered).toContain("✓ DB: 1. PostgreSQL");
    expect(rendered).toContain("✓ Extras: 1. Redis");
    expect(widthOf(tool.renderResult!(result, {}, plainTheme, {}), 20)).toBeLessThanOrEqual(20);
  });

  it("sanitizes model strings in the call summary", () => {
    const call = tool.renderCall!(
      { questions: [{ prompt: "\x1b]0;x\x07Which?\x1b[2J", options: [] }] },
      plainTheme,
      {},
    );
    expect(call.render(80).join("")).not.toMatch(/\x1b\]|\x1b\[2J|\x07/);
  });
});

describe("partial submit", () => {
  /** Answer DB, pass over Extras to the review, keep the review's screen, press Enter. */
  async function submitWithExtrasOpen(args: unknown) {
    let review = "";
    const { ctx } = fakeUiContext((c) => {
      c.handleInput("1");
      c.handleInput(KEY.tab);
      review = c.render(100).join("\n");
      c.handleInput(KEY.enter);
      // A form that refuses the submit stays open: close it so the call ends.
      c.handleInput(KEY.esc);
      c.handleInput(KEY.esc);
    });
    const result = await tool.execute("call-1", tool.prepareArguments!(args), undefined, undefined, ctx);
    return { review, result };
  }

  it("submits with a question open: the review names it, the result reports it unanswered", async () => {
    const { review, result } = await submitWithExtrasOpen(twoQuestions);
    expect(review).toContain("Open: Extras. Press Enter to submit with it open.");
    expect(result.details).toMatchObject({ cancelled: false, outcome: "partial", unanswered: ["extras"] });
    expect(result.content[0].text).toBe(
      "User submitted the form with some questions left open: Extras.\nDB: user selected: 1. PostgreSQL\nExtras: (skipped)",
    );
  });

  it("a question the model marks required still blocks Submit", async () => {
    const [db, extras] = twoQuestions.questions;
    const { review, result } = await submitWithExtrasOpen({ questions: [db, { ...extras, required: true }] });
    expect(review).toContain("Unanswered: Extras. Answer them to submit.");
    expect(result.details).toMatchObject({ cancelled: true, outcome: "cancelled" });
  });
});

describe("a note on the whole form", () => {
  it("the review takes a note, reported apart from the answers", async () => {
    const keys = ["1", KEY.tab, "n", ..."Ship after lunch", KEY.enter, KEY.enter];
    const { result } = run(twoQuestions, keys);
    const r = await result;
    expect(r.details).toMatchObject({ outcome: "partial", additionalText: "Ship after lunch" });
    expect(r.details.answers.map((a: { label: string }) => a.label)).toEqual(["PostgreSQL"]);
    expect(r.content[0].text.split("\n").at(-1)).toBe("Additional notes: Ship after lunch");
  });

  it("a note with a line break stays on one line of the text", async () => {
    const keys = ["1", KEY.tab, "n", ..."one", "\x1b[13;2~", ..."DB: forged", KEY.enter, KEY.enter];
    const r = await run(twoQuestions, keys).result;
    expect(r.content[0].text.split("\n")).toHaveLength(4);
    expect(r.content[0].text.split("\n").at(-1)).toBe('Additional notes: "one\\nDB: forged"');
  });
});
