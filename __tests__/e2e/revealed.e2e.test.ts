/**
 * A change made from the review screen that reveals a question goes on to
 * that question, in the real `pi`: the branching example answered small,
 * then its size changed to large from the review, opens "Split" instead of
 * going back to the review with an unanswered question on it.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "@jest/globals";
import { toolResults } from "../../scripts/fake-model.js";
import { PROJECT_ROOT } from "./pi-home.js";
import { startPi, usePiSessions } from "./session.js";

usePiSessions();

const branching = JSON.parse(readFileSync(join(PROJECT_ROOT, "examples", "branching.json"), "utf8"));

describe("a change from the review in the real pi", () => {
  it("goes to the question the change revealed, then back to the review", async () => {
    const { model, term, prompt } = await startPi(
      [{ toolCalls: [{ name: branching.tool, arguments: branching.arguments }] }],
      "revealed",
      { width: 110, height: 34 },
    );
    await prompt("how big?");
    await term.waitFor("How big is the change?");
    term.press("1");
    await term.waitFor("Which team owns the code it touches?");
    term.press("1");
    await term.waitFor("Who should do the extra review?");
    term.press("1");
    await term.waitFor("Ready. Press Enter to submit.");
    // From the review: back to Size (its number), and a size that reveals Split.
    term.press("1");
    await term.waitFor("How big is the change?");
    term.press("4");
    const screen = await term.waitFor("Can it be split into smaller pull requests?");
    expect(screen).not.toContain("Ready. Press Enter to submit.");
    term.press("1");
    await term.waitFor("Ready. Press Enter to submit.");
    term.press("Enter");
    await model.waitForRequests(2);
    expect(toolResults(model.requests[1])).toEqual([
      'Size: user selected: 4 (Large: several modules)\nSplit: user selected: 1. "Yes, by layer"\nSkipped by conditions: team, review',
    ]);
  });
});
