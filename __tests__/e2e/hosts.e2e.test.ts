/**
 * Every tool outside the terminal UI: through dialogs in `pi --mode rpc`
 * (answered by an RPC client), and as a clean error in print mode.
 */
import { afterEach, describe, expect, it } from "@jest/globals";
import { toolResults } from "../../scripts/fake-model.js";
import { type DialogReply, type RpcPi, runPrintPi, startRpcPi, type UiRequest } from "./rpc.js";

let running: RpcPi | undefined;
afterEach(async () => {
  await running?.close();
  running = undefined;
});

const TOOL_CALLS = [
  {
    name: "question",
    // Asked without waiting: a host with no terminal of its own asks it as a blocking call would.
    arguments: { wait: false, question: "Which database?", options: [{ label: "PostgreSQL" }, { label: "SQLite" }] },
  },
  { name: "questionnaire", arguments: { questions: [{ id: "ok", prompt: "Ship it?", type: "yes_no", options: [] }] } },
  {
    name: "question_branch",
    arguments: {
      questions: [
        { id: "deploy", prompt: "Deploy?", type: "yes_no", options: [] },
        { id: "env", prompt: "Where?", when: "deploy equals Yes", options: [{ label: "staging" }, { label: "prod" }] },
      ],
    },
  },
  { name: "question_input", arguments: { question: "How many replicas?", type: "number" } },
  {
    name: "question_throttle",
    arguments: { question: "On track?", options: [{ label: "Yes" }, { label: "Blocked" }], cooldown: 1 },
  },
  {
    name: "ask_rich_questions",
    arguments: {
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
    },
  },
];

/** A client that answers like a person: second option, "3" for numbers, yes to submit. */
function person(request: UiRequest): DialogReply {
  if (request.method === "confirm") return { confirmed: true };
  if (request.method === "input") return { value: "3" };
  // A countdown before a throttled question: a person waits it out (it can be cancelled, see dialogs.test.ts).
  if (request.title?.startsWith("A question is coming")) return undefined;
  const options = request.options ?? [];
  const choice = options.find((o) => /Yes|staging|Staging/.test(o)) ?? options[1] ?? options[0];
  return { value: choice };
}

describe("RPC mode: every tool through dialogs", () => {
  it("all six tools in one assistant message are asked one after the other and every answer reaches the model (one asked with wait: false waits here, and says so)", async () => {
    running = await startRpcPi([{ toolCalls: TOOL_CALLS }], person);
    running.prompt("go");
    await running.model.waitForRequests(2, 40000);
    expect(toolResults(running.model.requests[1])).toEqual([
      "Q1: user selected: 2. SQLite\n(This host cannot show a form beside your work, so the call waited for the answer.)",
      "Q1: user selected: 1. Yes",
      "Q1: user selected: 1. Yes\nQ2: user selected: 1. staging",
      "User answered: 3",
      "Answer: user selected: 1. Yes",
      expect.stringContaining("  2. Staging\n     Value: stage\n     Selected: yes\n     Recommended: yes"),
    ]);
    const kinds = running.requests.map((r) => r.method);
    expect(kinds.filter((k) => k === "select").length).toBeGreaterThanOrEqual(5);
    expect(kinds).toContain("input");
    expect(kinds).toContain("confirm");
  });

  it("an aborted agent turn closes the pending dialog and the form as cancelled", async () => {
    running = await startRpcPi(
      [{ toolCalls: [TOOL_CALLS[0]] }, { text: "Understood." }],
      () => undefined, // leave the dialog open
    );
    running.prompt("go");
    const deadline = Date.now() + 20000;
    while (running.requests.length === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    expect(running.requests[0]).toMatchObject({ method: "select", title: "Which database?" });
    running.send({ type: "abort" });
    await new Promise((r) => setTimeout(r, 500));
    running.prompt("and now?");
    await running.model.waitForRequests(2, 20000);
    expect(toolResults(running.model.requests[1])).toEqual([
      "User cancelled the form without answering.\n(This host cannot show a form beside your work, so the call waited for the answer.)",
    ]);
  });
});

describe("print mode", () => {
  it("every tool returns its error shape at once, without hanging", async () => {
    const { model, code } = await runPrintPi([{ toolCalls: TOOL_CALLS }, { text: "ok" }], "go");
    expect(code).toBe(0);
    const results = toolResults(model.requests[1]);
    expect(results).toHaveLength(6);
    for (const r of results) expect(r).toMatch(/^Error \(no_ui\): /);
  });
});
