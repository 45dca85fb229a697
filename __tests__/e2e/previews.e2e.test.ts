/**
 * Previews in the real `pi`, in a real terminal (tmux): a multi-select whose
 * options carry previews shows the highlighted option's preview beside the
 * list at 120 columns and under the option at 60, follows the highlight, and
 * the model reads which chosen option had a preview.
 */
import { describe, expect, it } from "@jest/globals";
import { toolResults } from "../../scripts/fake-model.js";
import { startPi, usePiSessions } from "./session.js";

usePiSessions();

const changes = {
  questions: [
    {
      id: "changes",
      label: "Changes",
      prompt: "Which changes should go into this release?",
      multiple: true,
      allowOther: false,
      options: [
        {
          label: "Retry failed uploads",
          preview: "```diff\n-  await upload(file);\n+  await retry(() => upload(file), { times: 3 });\n```",
        },
        { label: "Longer timeout", preview: "```toml\n[network]\ntimeout = 30  # was 10\n```" },
        { label: "Quieter logs", description: "Warnings only" },
      ],
    },
  ],
};

const EXPECTED = "Changes: user selected: 1. Retry failed uploads (with its preview), 3. Quieter logs";

/** The screen's line holding `text`. */
const lineOf = (screen: string, text: string) => screen.split("\n").findIndex((l) => l.includes(text));

describe("previews in the real pi", () => {
  it("at 120 columns the highlighted option's preview is beside the list and follows the highlight", async () => {
    const { model, term, prompt } = await startPi(
      [{ toolCalls: [{ name: "question", arguments: changes }] }],
      "previews-wide",
      { width: 120, height: 36 },
    );
    await prompt("what goes in?");
    let screen = await term.waitFor("-  await upload(file);");
    expect(lineOf(screen, "-  await upload(file);")).toBe(lineOf(screen, "› [ ] 1. Retry failed uploads"));
    expect(screen).not.toContain("```");
    term.press("Space", "Down");
    screen = await term.waitFor("┆ [network]");
    expect(lineOf(screen, "┆ [network]")).toBe(lineOf(screen, "[x] 1. Retry failed uploads"));
    expect(screen).not.toContain("await upload");
    term.press("Down", "Space", "Enter");
    await model.waitForRequests(2);
    expect(toolResults(model.requests[1])).toEqual([EXPECTED]);
  });

  it("at 60 columns the preview is under the highlighted option", async () => {
    const { model, term, prompt } = await startPi(
      [{ toolCalls: [{ name: "question", arguments: changes }] }],
      "previews-narrow",
      { width: 60, height: 36 },
    );
    await prompt("what goes in?");
    let screen = await term.waitFor("-  await upload(file);");
    const option = lineOf(screen, "› [ ] 1. Retry failed uploads");
    expect(lineOf(screen, "-  await upload(file);")).toBe(option + 1);
    expect(lineOf(screen, "2. Longer timeout")).toBeGreaterThan(option + 2);
    term.press("Space", "Down");
    screen = await term.waitFor("┆ [network]");
    expect(lineOf(screen, "┆ [network]")).toBe(lineOf(screen, "› [ ] 2. Longer timeout") + 1);
    expect(screen).not.toContain("await upload");
    term.press("Down", "Space", "Enter");
    await model.waitForRequests(2);
    expect(toolResults(model.requests[1])).toEqual([EXPECTED]);
  });
});
