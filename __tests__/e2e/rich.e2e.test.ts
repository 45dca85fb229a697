/**
 * ask_rich_questions and /rich-questions inside the real `pi`, in tmux,
 * against a scripted model.
 */
import { describe, expect, it } from "@jest/globals";
import { toolResults } from "../../scripts/fake-model.js";
import { deploy, SEED_EXCERPT as EXCERPT } from "../fixtures/deploy.js";
import { startPi, usePiSessions } from "./session.js";

usePiSessions();

describe("rich questions in the real pi", () => {
  it("the deploy example shows its recommendation, takes a note, and the model gets the contract text", async () => {
    const { model, term, prompt } = await startPi(
      [{ toolCalls: [{ name: "ask_rich_questions", arguments: deploy }] }],
      "rich",
    );
    await prompt("deploy?");
    expect(await term.waitFor("› 1. Production")).toContain("2. Staging  ★ recommended");
    term.press("Down", "n");
    await term.waitFor("✎ Your note:");
    term.type("After smoke tests");
    term.press("Enter");
    await term.waitFor("✎ Your note: After smoke tests");
    term.press("Enter");
    expect(await term.waitFor("Review your answers")).toContain("1. Q1: Staging (note: After smoke tests)");
    term.press("Enter");
    await model.waitForRequests(2);
    expect(toolResults(model.requests[1])).toEqual([EXCERPT]);
  });

  it("/rich-questions forces the extraction tool call, opens the form and sends the answers as a message", async () => {
    const script = [
      { text: "Where should we deploy? Production, or staging first (I recommend staging)." },
      { toolCalls: [{ name: "submit_questions", arguments: deploy }] },
      { text: "Thanks, deploying to staging." },
    ];
    const { model, term, prompt } = await startPi(script, "richcmd");
    await prompt("what now?");
    await term.waitFor("I recommend staging");
    term.type("/rich-questions");
    await term.waitFor("/rich-questions");
    await new Promise((r) => setTimeout(r, 400));
    term.press("Enter");
    await new Promise((r) => setTimeout(r, 400));
    if (!term.screen().includes("Where should we deploy?")) term.press("Enter");
    await term.waitFor("2. Staging  ★ recommended");
    const extraction = model.requests[1] as unknown as {
      tool_choice?: unknown;
      tools?: Array<{ function: { name: string } }>;
    };
    expect(extraction.tool_choice).toEqual({ type: "function", function: { name: "submit_questions" } });
    expect(extraction.tools?.map((t) => t.function.name)).toEqual(["submit_questions"]);
    term.press("2", "Enter");
    await model.waitForRequests(3);
    const last = model.requests[2].messages.at(-1) as { role: string; content: unknown };
    expect(last.role).toBe("user");
    expect(JSON.stringify(last.content)).toContain("Selected answer:\\n  - Label: Staging\\n    Value: stage");
  });
});
