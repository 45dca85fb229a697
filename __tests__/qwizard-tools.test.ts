import { chmodSync, lstatSync, mkdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { validateToolArguments } from "@earendil-works/pi-ai";
import { afterEach, beforeEach, describe, expect, it } from "@jest/globals";
import type { FormComponent } from "../renderers/terminal/component.js";
import { TOOL_NAMES } from "../tools/catalog.js";
import { NESTED_CALL } from "../tools/events.js";
import { createFormchart } from "../tools/index.js";
import { QWIZARD_HELP, qwizardCompletions, runQwizard } from "../tools/qwizard-command.js";
import { readSettings, saveSettings, settingsPath } from "../tools/settings.js";
import { FormchartState } from "../tools/state.js";
import { KEY } from "./helpers/fake-host.js";
import { fakePi, fakeUiContext, noUiContext } from "./helpers/fake-pi.js";
import { tempAgentDir } from "./helpers/temp.js";

const agentDir = () => tempAgentDir();
/** A session someone can answer in (Pi's terminal, or RPC's dialogs). */
const withUI = { hasUI: true, ui: { notify: () => {} } };
const started: Array<ReturnType<typeof fakePi>> = [];
// A session with a UI warms the engine up a moment later, unless it ends first.
afterEach(async () => {
  for (const pi of started.splice(0)) await pi.fire("session_shutdown", {});
});

function setup(dir = agentDir()) {
  const pi = fakePi();
  createFormchart({ agentDir: dir })(pi.api);
  started.push(pi);
  return { ...pi, dir };
}

async function call(
  tools: ReturnType<typeof fakePi>["tools"],
  name: string,
  args: unknown,
  keys: string[] = [],
  id = "call-1",
) {
  const tool = tools.get(name)!;
  const { ctx, opened } = fakeUiContext((c) =>
    keys.forEach((k) => {
      c.handleInput(k);
    }),
  );
  const result = await tool.execute(id, args, undefined, undefined, ctx);
  return { result, opened: opened() };
}

const two = [{ label: "A" }, { label: "B" }];
const q = (id: string, extra: object = {}) => ({ id, prompt: `Question ${id}?`, options: two, ...extra });

describe("validation before any form opens", () => {
  it.each([
    ["questionnaire", { questions: [] }, "empty_questionnaire", "questions: there are no questions to ask"],
    [
      "questionnaire",
      { questions: [q("a"), q("b"), q("c"), q("d"), q("e")] },
      "too_many_questions",
      "questions: 5 questions, at most 4",
    ],
    [
      "questionnaire",
      { questions: [q("a"), q("a")] },
      "duplicate_id",
      'questions[1].id: "a" is already used by questions[0]',
    ],
    [
      "questionnaire",
      { questions: [q("a"), { ...q("b"), prompt: "question A?" }] },
      "duplicate_prompt",
      "questions[1].prompt: repeats the prompt of questions[0]",
    ],
    [
      "questionnaire",
      { questions: [{ ...q("a"), options: [{ label: "Only" }] }] },
      "too_few_options",
      "questions[0].options: 1 option, a choice needs at least 2",
    ],
    [
      "questionnaire",
      { questions: [{ ...q("a"), type: "multi", options: [] }] },
      "too_few_options",
      "questions[0].options: 0 options",
    ],
    [
      "questionnaire",
      { questions: [{ ...q("a"), options: [{ label: "A" }, { label: "Type something..." }] }] },
      "reserved_label",
      'questions[0].options[1].label: "Type something..." is reserved',
    ],
    [
      "questionnaire",
      { questions: [{ ...q("a"), options: [{ label: "Next" }, { label: "B" }] }] },
      "reserved_label",
      '"Next" is reserved',
    ],
    [
      "questionnaire",
      { questions: [{ ...q("a"), options: [{ label: "A" }, { label: "a" }] }] },
      "duplicate_option",
      'questions[0].options[1].label: "a" repeats options[0]',
    ],
    [
      "questionnaire",
      { questions: [{ ...q("a"), type: "likert" }] },
      "invalid_arguments",
      'questions[0].type: must be one of "single", "multi", "yes_no", "rating"',
    ],
    [
      "question_branch",
      { questions: [q("a"), q("b", { when: "a is A" })] },
      "invalid_condition",
      'questions[1].when: unknown operator "is"',
    ],
    [
      "question_branch",
      { questions: [q("a", { when: "b equals A" }), q("b")] },
      "invalid_condition",
      "which comes later",
    ],
    [
      "question_branch",
      { questions: [q("a"), q("b", { when: "a matches (?=x)" })] },
      "invalid_pattern",
      "questions[1].when: unsupported or invalid regular expression",
    ],
    [
      "question_branch",
      { questions: [q("a"), q("b", { when: "a in ,,," })] },
      "invalid_condition",
      'questions[1].when: operator "in" needs at least one value in its list',
    ],
    [
      "question_branch",
      { questions: [q("a"), q("b", { when: { field: "a", operator: "matches", value: [] } })] },
      "invalid_condition",
      'questions[1].when: operator "matches" needs a value',
    ],
    [
      "question_branch",
      { questions: [q("a", { allowOther: false }), q("b", { when: "a gt 3" })] },
      "invalid_condition",
      '"b" when "a gt 3" can never hold: no answer to "a" meets it (its options: "A", "B"), so it would never be shown',
    ],
    [
      "question_branch",
      { questions: [q("a"), q("b", { when: ["a lte 3", "a gte 10"] })] },
      "invalid_condition",
      '"b" when "a lte 3" and "a gte 10" cannot hold together: no answer to "a" meets them',
    ],
    [
      "question_branch",
      { questions: [q("a", { on: false }), q("b", { when: "a equals A" })] },
      "invalid_condition",
      '"b" when "a equals A" can never hold: "a" is switched off (on: false) and never answered, so it would never be shown',
    ],
    [
      "question_branch",
      { questions: [q("a", { required: false, allowOther: false }), q("b", { when: "a is_empty" })] },
      "invalid_condition",
      '"b" when "a is_empty" can never hold: no answer to "a" meets it (its options: "A", "B")',
    ],
    [
      "question_branch",
      { questions: [q("a", { type: "rating", options: [] }), q("b", { when: ["a lt 2", "a gt 4"] })] },
      "invalid_condition",
      '"b" when "a lt 2" and "a gt 4" cannot hold together: no answer to "a" meets them (its options: "1", "2", "3", "4", "5")',
    ],
    [
      "question_branch",
      {
        questions: [
          q("a", { type: "yes_no", options: [] }),
          q("b", { when: "a equals No", allowOther: false }),
          q("c", { when: ["a equals Yes", "b equals A"] }),
        ],
      },
      "invalid_condition",
      '"c" when "a equals Yes" and "a equals No" (for "b" to be shown) cannot hold together',
    ],
    [
      "question_branch",
      {
        questions: [
          q("a"),
          q("b", { when: "a equals A", allowOther: false }),
          q("c", { when: ["a equals Blue", "b equals A"] }),
        ],
      },
      "invalid_condition",
      '"c" when "a equals Blue" and "a equals A" (for "b" to be shown) cannot hold together: no answer to "a" meets them',
    ],
    [
      "question_branch",
      { questions: [q("a", { type: "yes_no", options: [] }), q("b", { when: "a equals maybe" })] },
      "invalid_condition",
      'no answer to "a" meets it (its options: "Yes", "No")',
    ],
    [
      "question_branch",
      { questions: [q("a", { on: false })] },
      "empty_questionnaire",
      "every question is switched off",
    ],
    [
      "question_input",
      { question: "Name?", pattern: "(a)\\1" },
      "invalid_pattern",
      "pattern: unsupported or invalid regular expression",
    ],
    [
      "question_input",
      { question: "Name?", pattern: "x".repeat(2000) },
      "invalid_pattern",
      "longer than 1000 characters",
    ],
    [
      "question_input",
      { question: "Name?", minLength: 5, maxLength: 2 },
      "invalid_arguments",
      "minLength: 5 is larger than maxLength 2",
    ],
    ["question_input", { question: "Name?", type: "phone" }, "invalid_arguments", "type: must be one of"],
    ["question_throttle", { question: "Go?", options: [] }, "too_few_options", "options: 0 options"],
    [
      "question_throttle",
      { question: "Go?", options: [{ label: "Other" }] },
      "reserved_label",
      'options[0].label: "Other" is reserved',
    ],
    [
      "question_throttle",
      { question: "Go?", options: two, cooldown: -1 },
      "invalid_arguments",
      "cooldown: must be >= 0",
    ],
  ])("%s %j → %s", async (tool, args, category, message) => {
    const { tools } = setup();
    const { result, opened } = await call(tools, tool, args);
    expect(result.details.error).toBe(category);
    expect(result.content[0].text).toContain(`Error (${category}): `);
    expect(result.content[0].text).toContain(message);
    expect(opened).toBe(0);
  });

  it("carriage returns are normalized before the checks", async () => {
    const { tools } = setup();
    const { result } = await call(tools, "questionnaire", {
      questions: [q("a", { prompt: "One\r\nTwo" }), q("b", { prompt: "One\nTwo" })],
    });
    expect(result.details.error).toBe("duplicate_prompt");
  });

  it("Pi's own validation accepts every schema", () => {
    const { tools } = setup();
    const valid: Record<string, unknown> = {
      questionnaire: { questions: [q("a", { type: "rating" })] },
      question_branch: { questions: [q("a"), q("b", { when: [{ field: "a", value: 1 }, "a in A, B"] })] },
      question_input: { question: "Name?", type: "email", minLength: 3 },
      question_throttle: { question: "Go?", options: two, cooldown: 2 },
    };
    for (const [name, args] of Object.entries(valid)) {
      const tool = tools.get(name)!;
      expect(
        validateToolArguments(
          { name, description: "", parameters: tool.parameters as never },
          { type: "toolCall", id: "1", name, arguments: args as never },
        ),
      ).toEqual(args);
    }
  });
});

describe("questionnaire", () => {
  it("generates yes_no and rating options and reports labels, values and 1-based indexes", async () => {
    const { tools } = setup();
    const args = {
      questions: [
        { id: "ok", label: "OK", prompt: "Ship it?", type: "yes_no", options: [] },
        { id: "score", label: "Score", prompt: "How good?", type: "rating", options: [] },
        {
          id: "areas",
          label: "Areas",
          prompt: "Which areas?",
          type: "multi",
          options: [{ label: "UI" }, { label: "API" }],
        },
      ],
    };
    const { result } = await call(tools, "questionnaire", args, [
      "2",
      "4",
      KEY.space,
      KEY.down,
      KEY.space,
      KEY.enter,
      KEY.enter,
    ]);
    expect(result.details).toEqual({
      outcome: "answered",
      questions: [
        { id: "ok", label: "OK", prompt: "Ship it?" },
        { id: "score", label: "Score", prompt: "How good?" },
        { id: "areas", label: "Areas", prompt: "Which areas?" },
      ],
      answers: [
        { id: "ok", value: "No", label: "No", wasCustom: false, index: 2 },
        { id: "score", value: "4", label: "4", wasCustom: false, index: 4 },
        { id: "areas", value: ["UI", "API"], label: ["UI", "API"], wasCustom: false },
      ],
      cancelled: false,
    });
    expect(result.content[0].text).toBe(
      "OK: user selected: 2. No\nScore: user selected: 4 (Very good)\nAreas: user selected: 1. UI, 2. API",
    );
  });

  it("allowOther adds the typed answer to questionnaire questions", async () => {
    const { tools } = setup();
    const { result } = await call(tools, "questionnaire", { questions: [q("a", { allowOther: true })] }, [
      "3",
      ..."Neither",
      KEY.enter,
    ]);
    expect(result.details.answers).toEqual([{ id: "a", value: "Neither", label: "Neither", wasCustom: true }]);
  });

  it("outside the terminal UI it returns no_ui with cancelled", async () => {
    const { tools } = setup();
    const result = await tools
      .get("questionnaire")!
      .execute("c", { questions: [q("a")] }, undefined, undefined, noUiContext);
    expect(result.details).toMatchObject({ cancelled: true, error: "no_ui", answers: [] });
  });
});

describe("question_branch", () => {
  const args = {
    questions: [
      q("deploy", { type: "yes_no", options: [] }),
      q("env", { when: "deploy equals Yes", options: [{ label: "staging" }, { label: "production" }] }),
      q("why", { when: { field: "deploy", value: "No" }, options: [{ label: "Review" }, { label: "Freeze" }] }),
      q("notes", { on: false }),
    ],
  };

  it("shows only the branch the answers open, and lists the skipped ids", async () => {
    const { tools } = setup();
    const { result } = await call(tools, "question_branch", args, ["1", "2", KEY.enter]);
    expect(result.details.answers.map((a: { id: string }) => a.id)).toEqual(["deploy", "env"]);
    expect(result.details.skipped).toEqual(["why", "notes"]);
    expect(result.content[0].text).toBe(
      "Q1: user selected: 1. Yes\nQ2: user selected: 2. production\nSkipped by conditions: why, notes",
    );
  });

  it("a yes/no's condition may be written as a boolean or in any case: true and yes mean Yes, false and no mean No", async () => {
    const { tools } = setup();
    const written = {
      questions: [
        q("deploy", { type: "yes_no", options: [] }),
        q("env", { when: { field: "deploy", value: true } }),
        q("why", { when: "deploy in no, NO" }),
        q("risk", { when: { field: "deploy", operator: "not_equals", value: false } }),
      ],
    };
    const { result } = await call(tools, "question_branch", written, ["1", "1", "1", KEY.enter]);
    expect(result.details.answers.map((a: { id: string }) => a.id)).toEqual(["deploy", "env", "risk"]);
    expect(result.details.skipped).toEqual(["why"]);
  });

  it("changing an earlier answer hides the later question and drops its answer", async () => {
    const { tools } = setup();
    // Yes → env answered → back to deploy, No → why appears, env is dropped.
    const keys = ["1", "1", KEY.shiftTab, KEY.shiftTab, "2", "1", KEY.enter];
    const { result } = await call(tools, "question_branch", args, keys);
    expect(result.details.answers).toEqual([
      { id: "deploy", value: "No", label: "No", wasCustom: false, index: 2 },
      { id: "why", value: "Review", label: "Review", wasCustom: false, index: 1 },
    ]);
    expect(result.details.skipped).toEqual(["env", "notes"]);
  });
});

describe("question_input", () => {
  it("refuses Enter until the answer is valid, then returns the trimmed answer", async () => {
    const { tools } = setup();
    const { result } = await call(tools, "question_input", { question: "Release date?", type: "date" }, [
      ..."2023-02-29",
      KEY.enter,
      "\x7f",
      "\x7f",
      ..."28 ",
      KEY.enter,
    ]);
    expect(result.details).toEqual({
      question: "Release date?",
      answer: "2023-02-28",
      cancelled: false,
      outcome: "answered",
    });
    expect(result.content[0].text).toBe("User answered: 2023-02-28");
  });

  it("an optional question accepts an empty answer", async () => {
    const { tools } = setup();
    const { result } = await call(tools, "question_input", { question: "Anything else?", required: false }, [
      KEY.enter,
    ]);
    expect(result.details).toEqual({ question: "Anything else?", answer: "", cancelled: false, outcome: "partial" });
  });

  it("Esc cancels with answer null", async () => {
    const { tools } = setup();
    const { result } = await call(tools, "question_input", { question: "Name?" }, [..."Ada", KEY.esc, KEY.esc]);
    expect(result.details).toEqual({ question: "Name?", answer: null, cancelled: true, outcome: "cancelled" });
  });
});

describe("question_throttle and the shared question clock", () => {
  it("does not wait for the first question, and reports throttled: false", async () => {
    const { tools } = setup();
    const { result } = await call(tools, "question_throttle", { question: "Go?", options: two }, ["1"]);
    expect(result.details).toEqual({
      question: "Go?",
      outcome: "answered",
      options: ["A", "B"],
      answer: "A",
      wasCustom: false,
      index: 1,
      throttled: false,
      cancelled: false,
    });
    expect(result.content[0].text).toBe("Answer: user selected: 1. A");
  });

  it("waits after another question tool, and Esc during the countdown cancels", async () => {
    const { tools } = setup();
    await call(tools, "question", { questions: [{ prompt: "First?", options: two }] }, ["1"]);
    const { result } = await call(tools, "question_throttle", { question: "Go?", options: two, cooldown: 30 }, [
      KEY.esc,
    ]);
    expect(result.details).toMatchObject({ answer: null, throttled: true, cancelled: true });
  });

  it("a cancel after a choice reports no answer, in the text and in details alike", async () => {
    const { tools } = setup();
    // A choice ticked, then Esc asks whether to discard it and Esc discards.
    const args = { question: "Go?", options: two, type: "multi" };
    const { result } = await call(tools, "question_throttle", args, ["1", KEY.esc, KEY.esc]);
    expect(result.content[0].text).toContain("without answering");
    expect(result.details).toMatchObject({ answer: null, wasCustom: false, cancelled: true, outcome: "cancelled" });
    expect(result.details).not.toHaveProperty("index");
  });
});

describe("settings and /qwizard", () => {
  it("round-trips the settings file and survives a corrupt one", () => {
    const dir = agentDir();
    const file = settingsPath(dir);
    const qwizard = ["question", "questionnaire", "question_input", "question_throttle", "question_branch"];
    saveSettings(file, {
      autoThrottle: false,
      cooldownSeconds: 12,
      toolSet: "qwizard",
      tools: qwizard,
      richExtraction: "text",
      waitingKey: "f6",
      waitingTitle: false,
      mouse: true,
      bell: true,
      deliverWhenIdle: "next-prompt",
      declareWithoutUI: true,
      promptLines: ["Ask once."],
      web: true,
      webAddress: "::1",
    });
    expect(readSettings(file).settings).toEqual({
      autoThrottle: false,
      cooldownSeconds: 12,
      toolSet: "qwizard",
      tools: qwizard,
      richExtraction: "text",
      waitingKey: "f6",
      waitingTitle: false,
      mouse: true,
      bell: true,
      deliverWhenIdle: "next-prompt",
      declareWithoutUI: true,
      promptLines: ["Ask once."],
      web: true,
      webAddress: "::1",
    });
    writeFileSync(file, "{ not json");
    expect(readSettings(file).settings).toEqual({
      autoThrottle: true,
      cooldownSeconds: 3,
      toolSet: "compact",
      tools: ["question"],
      richExtraction: "auto",
      mouse: false,
      bell: false,
      waitingKey: "alt+a",
      waitingTitle: true,
      deliverWhenIdle: "start-turn",
      declareWithoutUI: false,
      web: false,
      webAddress: "127.0.0.1",
    });
    // A list of one's own (older files kept every tool in it): a named set when it is one, else custom.
    writeFileSync(file, JSON.stringify({ tools: [...qwizard, "ask_rich_questions", "ask_form"] }));
    expect(readSettings(file).settings).toMatchObject({ toolSet: "all" });
    writeFileSync(file, JSON.stringify({ tools: ["ask_form", "nonsense"] }));
    expect(readSettings(file).settings).toMatchObject({ toolSet: "custom", tools: ["ask_form"] });
    writeFileSync(file, JSON.stringify({ autoThrottle: "yes", cooldownSeconds: 99, webAddress: "example.org" }));
    expect(readSettings(file).settings).toMatchObject({
      autoThrottle: true,
      cooldownSeconds: 3,
      webAddress: "127.0.0.1",
    });
  });

  it("writes a change through a linked settings file: the link stays, its target gets the change and keeps its mode", async () => {
    const dir = agentDir();
    const file = settingsPath(dir);
    const kept = join(dir, "dotfiles", "formchart.json");
    mkdirSync(dirname(kept), { recursive: true });
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(kept, JSON.stringify({ cooldownSeconds: 9, mine: "kept" }));
    chmodSync(kept, 0o600);
    symlinkSync(join("..", "dotfiles", "formchart.json"), file);
    expect((await runQwizard("auto-throttle off", new FormchartState(dir), ["question"])).level).toBe("info");
    expect(lstatSync(file).isSymbolicLink()).toBe(true);
    expect(JSON.parse(readFileSync(kept, "utf8"))).toMatchObject({
      autoThrottle: false,
      cooldownSeconds: 9,
      mine: "kept",
    });
    expect(statSync(kept).mode & 0o777).toBe(0o600);

    // A link whose target is not there yet: the first save makes the target, the link stays.
    const fresh = agentDir();
    mkdirSync(dirname(settingsPath(fresh)), { recursive: true });
    symlinkSync(join(fresh, "made-later.json"), settingsPath(fresh));
    saveSettings(settingsPath(fresh), { ...readSettings(settingsPath(fresh)).settings, mouse: true });
    expect(lstatSync(settingsPath(fresh)).isSymbolicLink()).toBe(true);
    expect(readSettings(join(fresh, "made-later.json")).settings.mouse).toBe(true);
  });

  it("declares the tools the settings name; Pi 1.x keeps the others callable undeclared, Pi 0.73 registers the set", async () => {
    const dir = agentDir();
    mkdirSync(dirname(settingsPath(dir)), { recursive: true });
    writeFileSync(settingsPath(dir), JSON.stringify({ tools: ["question_input"] }));
    const old = fakePi();
    createFormchart({ agentDir: dir, hostVersion: "0.73.1" })(old.api);
    // withdraw_question is registered beside the form tools whatever the set.
    expect([...old.tools.keys()]).toEqual(["question_input", "withdraw_question"]);
    expect((old.tools.get("question_input") as { exposure?: string }).exposure).toBeUndefined();

    const current = fakePi();
    createFormchart({ agentDir: dir, hostVersion: "1.6.0" })(current.api);
    started.push(current);
    expect([...current.tools.keys()]).toHaveLength(8);
    const exposure = (name: string) => (current.tools.get(name) as { exposure?: string }).exposure;
    expect(exposure("question_input")).toBe("model-only");
    expect(exposure("question_branch")).toBe("deferred");
    // At session start every tool is active (callable by name), only the set declared, and tool_search on;
    // withdraw_question is callable but undeclared (the text of a wait: false call names it).
    await current.fire("session_start", {}, withUI);
    expect(current.active()).toEqual(expect.arrayContaining([...TOOL_NAMES, "withdraw_question", "tool_search"]));
    expect(current.declared()).toEqual(["read", "bash", "question_input", "tool_search"]);
  });

  it("Pi 0.73 registers every tool unless the settings file names a set", () => {
    const pi = fakePi();
    createFormchart({ agentDir: agentDir(), hostVersion: "0.73.1" })(pi.api);
    expect([...pi.tools.keys()]).toEqual([...TOOL_NAMES, "withdraw_question"]);
  });

  it("tool_search finds a hidden tool, which is declared from then on; the others stay hidden and callable", async () => {
    const pi = setup();
    await pi.fire("session_start", {}, withUI);
    // Pi's search ranks only the tools that are not active: the hidden ones leave the active set while it runs.
    await pi.fire("tool_call", { toolName: "tool_search", toolCallId: "s1", input: { query: "branch" } });
    expect(pi.active()).not.toContain("question_branch");
    expect(pi.active()).toContain("question");
    // Pi loads what it found (activates it); the result says which.
    (pi.api as { setActiveTools(names: string[]): void }).setActiveTools([...pi.active(), "question_branch"]);
    await pi.fire("tool_result", {
      toolName: "tool_search",
      toolCallId: "s1",
      details: { loaded: ["question_branch"] },
    });
    expect(pi.active()).toEqual(expect.arrayContaining([...TOOL_NAMES]));
    expect(pi.declared().filter((n) => (TOOL_NAMES as readonly string[]).includes(n))).toEqual([
      "question",
      "question_branch",
    ]);
  });

  it("a form tool called from another tool (a codemode script) is blocked; one the model calls is not", async () => {
    const pi = setup();
    for (const toolName of TOOL_NAMES) {
      const nested = { toolName, toolCallId: "c1/1", parentToolCallId: "c1", input: {} };
      expect(await pi.fire("tool_call", nested)).toContainEqual({ block: true, reason: NESTED_CALL });
      expect(await pi.fire("tool_call", { toolName, toolCallId: "c2", input: {} })).toEqual([undefined]);
    }
  });

  it("/formchart tools shows each set's cost and switches sets while Pi runs", async () => {
    const dir = agentDir();
    const pi = setup(dir);
    const notices: string[] = [];
    const ctx = { hasUI: true, ui: { notify: (text: string) => notices.push(text) } };
    await pi.fire("session_start", {}, withUI);
    await pi.commands.get("formchart")!.handler("tools", ctx);
    const table = notices.at(-1)!;
    expect(table).toMatch(/● compact +[\d,]+ chars {2}question\n/);
    expect(table).toContain("Not declared, callable by name: questionnaire,");
    const chars = (name: string) => Number(new RegExp(`${name} +([\\d,]+) chars`).exec(table)![1].replace(/,/g, ""));
    expect(chars("compact")).toBeLessThan(chars("qwizard"));
    expect(chars("qwizard")).toBeLessThan(chars("all"));
    await pi.commands.get("formchart")!.handler("tools all", ctx);
    expect(notices.at(-1)).toContain("The model sees the all set from the next request on.");
    // With every tool declared, nothing is said to stay callable outside the set, and tool_search goes off again.
    expect(notices.at(-1)).toContain("Every tool is declared.");
    expect(notices.at(-1)).not.toContain("callable by name");
    expect(pi.declared()).toEqual(expect.arrayContaining([...TOOL_NAMES]));
    expect(pi.active()).not.toContain("tool_search");
    expect(readSettings(settingsPath(dir)).settings.toolSet).toBe("all");
    await pi.commands.get("formchart")!.handler("tools compact", ctx);
    expect(pi.declared().filter((n) => (TOOL_NAMES as readonly string[]).includes(n))).toEqual(["question"]);
    expect(pi.active()).toEqual(expect.arrayContaining([...TOOL_NAMES, "tool_search"]));
    expect((pi.tools.get("questionnaire") as { exposure?: string }).exposure).toBe("deferred");
    await pi.commands.get("formchart")!.handler("tools many", ctx);
    expect(notices.at(-1)).toBe('"many" is not a tool set.\nUsage: /formchart tools compact|qwizard|all|none');
  });

  it("/formchart tools marks the set in force in this Pi, not one another Pi saved since", async () => {
    const dir = agentDir();
    const here = setup(dir);
    const there = setup(dir);
    const notices: string[] = [];
    const ctx = { hasUI: true, ui: { notify: (text: string) => notices.push(text) } };
    await here.fire("session_start", {}, withUI);
    await there.fire("session_start", {}, withUI);
    await there.commands.get("formchart")!.handler("tools all", ctx);
    // Any change here reads the file again, with the other Pi's set in it.
    await here.commands.get("formchart")!.handler("mouse on", ctx);
    await here.commands.get("formchart")!.handler("tools", ctx);
    expect(notices.at(-1)).toMatch(/● compact .*\n○ qwizard .*\n○ all /);
    expect(here.declared().filter((n) => (TOOL_NAMES as readonly string[]).includes(n))).toEqual(["question"]);
  });

  let state: FormchartState;
  beforeEach(() => {
    state = new FormchartState(agentDir());
  });
  const registered = ["question", "questionnaire"];

  it.each([
    ["", QWIZARD_HELP, "info"],
    ["help", QWIZARD_HELP, "info"],
    ["auto-throttle", "Auto-throttle: on, 3 s between questions\nUsage: /qwizard auto-throttle on|off|<1-60>", "info"],
    ["auto-throttle off", "Auto-throttle: off, 3 s between questions", "info"],
    ["auto-throttle 45", "Auto-throttle: on, 45 s between questions", "info"],
    [
      "auto-throttle 61",
      '"61" is not on, off or a whole number of seconds from 1 to 60.\nUsage: /qwizard auto-throttle on|off|<1-60>',
      "error",
    ],
    ["clear", "Question clock cleared: the next question will not wait.", "info"],
    ["frobnicate", `Unknown /qwizard command "frobnicate".\n${QWIZARD_HELP}`, "error"],
  ])("/qwizard %s", async (args, text, level) => {
    expect(await runQwizard(args, state, registered)).toEqual({ text, level });
  });

  it("/qwizard status lists tools, auto-throttle, the clock and the settings file", async () => {
    state.clock.markClosed();
    const now = (state.clock.lastQuestionAt ?? 0) + 7000;
    expect((await runQwizard("status", state, registered, now)).text).toBe(
      `Tools: question, questionnaire\nAuto-throttle: on, 3 s between questions\nLast question: 7 s ago\nSettings: ${state.settingsFile}`,
    );
  });

  it("changes persist across restarts", async () => {
    const dir = agentDir();
    await runQwizard("auto-throttle 9", new FormchartState(dir), registered);
    expect(new FormchartState(dir).settings.cooldownSeconds).toBe(9);
    expect(JSON.parse(readFileSync(settingsPath(dir), "utf8")).cooldownSeconds).toBe(9);
  });

  it("completes subcommands and auto-throttle values", () => {
    expect(qwizardCompletions("")?.map((i) => i.value)).toEqual(["help", "status", "auto-throttle", "clear"]);
    expect(qwizardCompletions("st")?.map((i) => i.value)).toEqual(["status"]);
    expect(qwizardCompletions("auto-throttle o")?.map((i) => i.value)).toEqual([
      "auto-throttle on",
      "auto-throttle off",
    ]);
    expect(qwizardCompletions("zzz")).toBeNull();
  });
});

describe("events", () => {
  it("emits question_answered and names the session after a questionnaire's first answer", async () => {
    const pi = setup();
    const { result } = await call(pi.tools, "questionnaire", { questions: [q("a")] }, ["2"]);
    await pi.fire("tool_result", { toolName: "questionnaire", toolCallId: "call-1", details: result.details });
    expect(pi.emitted.filter((e) => e.name === "question_answered")).toEqual([
      { name: "question_answered", data: { toolName: "questionnaire", toolCallId: "call-1", details: result.details } },
    ]);
    expect(pi.sessionName()).toBe("Q&A: B");
  });

  it("stays quiet for cancelled results and other tools", async () => {
    const pi = setup();
    await pi.fire("tool_result", {
      toolName: "questionnaire",
      toolCallId: "1",
      details: { answers: [], cancelled: true },
    });
    await pi.fire("tool_result", { toolName: "bash", toolCallId: "2", details: { answer: "x" } });
    expect(pi.emitted.filter((e) => e.name === "question_answered")).toEqual([]);
    expect(pi.sessionName()).toBeUndefined();
  });

  it("auto-throttle flags question tool calls so the next form waits", async () => {
    const pi = setup();
    await call(pi.tools, "question_input", { question: "First?" }, [..."x", KEY.enter], "a");
    const positions: string[] = [];
    const askSecond = async (id: string) => {
      const { ctx } = fakeUiContext((c) => {
        positions.push((c as FormComponent).session.position.kind);
        c.handleInput(KEY.esc);
      });
      return pi.tools.get("question_input")!.execute(id, { question: "Second?" }, undefined, undefined, ctx);
    };
    await pi.fire("tool_call", { toolName: "question_input", toolCallId: "b", input: {} });
    expect((await askSecond("b")).details).toEqual({
      question: "Second?",
      answer: null,
      cancelled: true,
      outcome: "cancelled",
    });
    // Not flagged by tool_call: no wait.
    await askSecond("c");
    expect(positions).toEqual(["waiting", "question"]);
  });
});

describe("questionnaire: a note on the whole form", () => {
  it("the review takes a note, reported apart from the answers", async () => {
    const { tools } = setup();
    const args = { questions: [q("a"), q("b")] };
    const { result } = await call(tools, "questionnaire", args, ["1", "1", "n", ..."Fine", KEY.enter, KEY.enter]);
    expect(result.details).toMatchObject({ outcome: "answered", additionalText: "Fine" });
    expect(result.content[0].text).toBe("Q1: user selected: 1. A\nQ2: user selected: 1. A\nAdditional notes: Fine");
  });
});
