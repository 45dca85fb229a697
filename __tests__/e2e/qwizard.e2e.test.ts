/**
 * The qwizard tools and /qwizard inside the real `pi`, in tmux, against a
 * scripted model: each form opens, keys answer it, the result reaches the model.
 */

import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "@jest/globals";
import { toolResults } from "../../scripts/fake-model.js";
import { readSettings, settingsPath } from "../../tools/settings.js";
import { startPi, usePiSessions } from "./session.js";

usePiSessions();

describe("qwizard tools in the real pi", () => {
  it("questionnaire with yes_no and rating", async () => {
    const args = {
      questions: [
        { id: "ok", label: "Ship", prompt: "Ship the release today?", type: "yes_no", options: [] },
        { id: "score", label: "Confidence", prompt: "How confident are you?", type: "rating", options: [] },
      ],
    };
    const { model, term, prompt } = await startPi(
      [{ toolCalls: [{ name: "questionnaire", arguments: args }] }],
      "questionnaire",
    );
    await prompt("ship?");
    expect(await term.waitFor("Ship the release today?")).toContain("□ Ship  □ Confidence  □ Submit  0/2");
    term.press("1");
    expect(await term.waitFor("How confident are you?")).toContain("4. Very good");
    term.press("4");
    await term.waitFor("Ready. Press Enter to submit.");
    term.press("Enter");
    await model.waitForRequests(2);
    expect(toolResults(model.requests[1])).toEqual([
      "Ship: user selected: 1. Yes\nConfidence: user selected: 4 (Very good)",
    ]);
    await term.waitFor("Q&A: Yes");
  });

  it("question_branch shows the branch the first answer opens", async () => {
    const args = {
      questions: [
        { id: "deploy", label: "Deploy", prompt: "Deploy today?", type: "yes_no", options: [] },
        {
          id: "env",
          label: "Target",
          prompt: "Where to?",
          when: "deploy equals Yes",
          options: [{ label: "staging" }, { label: "production" }],
        },
        {
          id: "why",
          label: "Reason",
          prompt: "Why wait?",
          when: "deploy equals No",
          options: [{ label: "Review" }, { label: "Freeze" }],
        },
      ],
    };
    const { model, term, prompt } = await startPi(
      [{ toolCalls: [{ name: "question_branch", arguments: args }] }],
      "branch",
    );
    await prompt("deploy?");
    expect(await term.waitFor("Deploy today?")).toContain("□ Deploy  □ Submit  0/1");
    term.press("2");
    expect(await term.waitFor("Why wait?")).toContain("■ Deploy  □ Reason  □ Submit  1/2");
    term.press("2", "Enter");
    await model.waitForRequests(2);
    expect(toolResults(model.requests[1])).toEqual([
      "Deploy: user selected: 2. No\nReason: user selected: 2. Freeze\nSkipped by conditions: env",
    ]);
  });

  it("question_input refuses an impossible date and accepts a real one", async () => {
    const args = { question: "Which day should the release go out?", type: "date", placeholder: "YYYY-MM-DD" };
    const { model, term, prompt } = await startPi(
      [{ toolCalls: [{ name: "question_input", arguments: args }] }],
      "input",
    );
    await prompt("when?");
    await term.waitFor("Which day should the release go out?");
    term.type("2025-02-29");
    await term.waitFor("✗ Must be a calendar date as YYYY-MM-DD.");
    term.press("Enter");
    term.press("BSpace", "BSpace");
    term.type("28");
    await term.waitFor("✓ Looks good.");
    term.press("Enter");
    await model.waitForRequests(2);
    expect(toolResults(model.requests[1])).toEqual(["User answered: 2025-02-28"]);
  });

  it("question_throttle counts down after an earlier question, then asks", async () => {
    const script = [
      {
        toolCalls: [
          { name: "question", arguments: { question: "Start?", options: [{ label: "Go" }, { label: "Stop" }] } },
        ],
      },
      {
        toolCalls: [
          {
            name: "question_throttle",
            arguments: { question: "Still on track?", options: [{ label: "Yes" }, { label: "Blocked" }], cooldown: 4 },
          },
        ],
      },
    ];
    const { model, term, prompt } = await startPi(script, "throttle");
    await prompt("work");
    await term.waitFor("Start?");
    term.press("1");
    expect(await term.waitFor(/A question is coming in \ds/)).toContain("Esc cancel");
    // The form (not just the tool-call line) is up once its options show.
    await term.waitFor("› 1. Yes", 10000);
    term.press("2");
    await model.waitForRequests(3);
    expect(toolResults(model.requests[2])).toEqual(["Q1: user selected: 1. Go", "Answer: user selected: 2. Blocked"]);
  });

  it("/qwizard changes auto-throttle and the setting is saved", async () => {
    const { term, agentDir } = await startPi([], "command");
    const pause = () => new Promise((r) => setTimeout(r, 400));
    const command = async (text: string) => {
      term.type(text);
      await term.waitFor(text);
      await pause();
      term.press("Enter");
      await pause();
      // When a completion matched, the first Enter accepted it; the second runs the command.
      if (term.screen().includes(text)) term.press("Enter");
    };
    await command("/qwizard auto-throttle 7");
    await term.waitFor("Auto-throttle: on, 7 s between questions");
    await command("/qwizard status");
    await term.waitFor("Tools: question, questionnaire, question_input, question_throttle, question_branch");
    // Only what changed is written (the file keeps every other key as it was); read as a session would.
    const saved = JSON.parse(readFileSync(join(agentDir, "pi-formchart", "settings.json"), "utf8"));
    expect(saved).toMatchObject({ cooldownSeconds: 7 });
    expect(readSettings(settingsPath(agentDir)).settings).toMatchObject({ autoThrottle: true, cooldownSeconds: 7 });
  });
});
