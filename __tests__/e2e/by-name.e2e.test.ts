/**
 * Every tool is callable by its name with the default tool set, on every
 * host: in one real `pi` in tmux (the settings name no tool set, so only
 * `question` is declared in Pi 1.x), the scripted model calls each of the
 * other tools by name in turn, each form opens, keys answer it, and the next
 * request carries the tool's answer.
 */
import { describe, expect, it } from "@jest/globals";
import type { ScriptedTurn } from "../../scripts/fake-model.js";
import { toolResults } from "../../scripts/fake-model.js";
import { deploy } from "../fixtures/deploy.js";
import { HOST } from "./pi-host.js";
import { startPi, usePiSessions } from "./session.js";
import type { Terminal } from "./tmux.js";

usePiSessions();

interface Step {
  name: string;
  arguments: unknown;
  /** Answer the open form with keys. */
  answer(term: Terminal): Promise<void>;
  /** What the tool's answer says. */
  result: RegExp;
}

const yesNo = (id: string, prompt: string) => ({ id, prompt, type: "yes_no", options: [] });

const STEPS: Step[] = [
  {
    name: "questionnaire",
    arguments: { questions: [yesNo("ok", "Ship the release today?"), yesNo("notes", "Write release notes?")] },
    async answer(term) {
      await term.waitFor("Ship the release today?");
      term.press("1");
      await term.waitFor("Write release notes?");
      term.press("2");
      await term.waitFor("Ready. Press Enter to submit.");
      term.press("Enter");
    },
    result: /^Q1: user selected: 1\. Yes\nQ2: user selected: 2\. No$/,
  },
  {
    name: "question_input",
    arguments: { question: "Which day should the release go out?", type: "date" },
    async answer(term) {
      await term.waitFor("your editor • Esc cancel");
      term.type("2025-02-28");
      await term.waitFor("✓ Looks good.");
      term.press("Enter");
    },
    result: /^User answered: 2025-02-28$/,
  },
  {
    name: "question_throttle",
    arguments: { question: "Still on track?", options: [{ label: "Yes" }, { label: "Blocked" }] },
    async answer(term) {
      await term.waitFor("› 1. Yes", 15000);
      term.press("2");
    },
    result: /user selected: 2\. Blocked/,
  },
  {
    name: "question_branch",
    arguments: {
      questions: [
        { ...yesNo("deploy", "Deploy today?"), label: "Deploy" },
        { id: "why", label: "Reason", prompt: "Why wait?", when: "deploy equals No", options: ["Review", "Freeze"] },
      ],
    },
    async answer(term) {
      await term.waitFor("Deploy today?");
      term.press("2");
      await term.waitFor("Why wait?");
      term.press("2", "Enter");
    },
    result: /Deploy: user selected: 2\. No\nReason: user selected: 2\. Freeze/,
  },
  {
    name: "ask_rich_questions",
    arguments: deploy,
    async answer(term) {
      await term.waitFor("2. Staging  ★ recommended");
      term.press("2", "Enter");
    },
    result: /Staging/,
  },
  {
    name: "ask_form",
    arguments: {
      message: "Before the release",
      schema: { type: "object", properties: { ready: { type: "boolean", title: "Is the build green?" } } },
    },
    async answer(term) {
      await term.waitFor("Is the build green?");
      term.press("1");
      await term.waitFor("Review your answers");
      term.press("Enter");
    },
    result: /ready: true/,
  },
];

describe(`every tool by its name, default tool set (${HOST.name})`, () => {
  it("each form opens, is answered with keys, and its answer reaches the model", async () => {
    const script: ScriptedTurn[] = STEPS.map((step) => ({
      toolCalls: [{ name: step.name, arguments: step.arguments }],
    }));
    // A settings file that names no tool set: the default set. No auto-throttle: the forms open at once.
    const files = { "pi-formchart/settings.json": JSON.stringify({ autoThrottle: false }) };
    const { model, term, prompt } = await startPi(script, "byname", undefined, [], {}, files);
    await prompt("release?");
    for (const [i, step] of STEPS.entries()) {
      await step.answer(term);
      await model.waitForRequests(i + 2);
      const results = toolResults(model.requests[i + 1]);
      expect({ tool: step.name, result: results.at(-1) }).toEqual({
        tool: step.name,
        result: expect.stringMatching(step.result),
      });
    }
    // Pi 1.x declared none of them (only question); Pi 0.73, with no set named, registers and declares them all.
    const declared = new Set(model.requests.flatMap((r) => (r.tools ?? []).map((t) => t.function.name)));
    const names = STEPS.map((step) => step.name);
    expect(names.filter((name) => declared.has(name))).toEqual(HOST.current ? [] : names);
  }, 180_000);
});
