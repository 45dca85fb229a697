/**
 * The QR code of a form's link in the real `pi`, in tmux: with the `web`
 * setting on and `webAddress` the machine's own address, the form shows its
 * link's code under the help line (the encoder loaded from the installed
 * package on first use), and what the terminal shows decodes to the link.
 */
import { networkInterfaces } from "node:os";
import { describe, expect, it } from "@jest/globals";
import { toolResults } from "../../scripts/fake-model.js";
import { decode } from "../helpers/qr-decode.js";
import { EVERY_TOOL } from "./pi-home.js";
import { startPi, usePiSessions } from "./session.js";

usePiSessions();

const lan = Object.values(networkInterfaces())
  .flat()
  .find((a) => a && a.family === "IPv4" && !a.internal)?.address;

const QUESTION = { question: "Which database?", options: [{ label: "PostgreSQL" }, { label: "SQLite" }] };

/**
 * The screen's lines of the code: those of half blocks (or blank: its quiet
 * zone's top and bottom) right under the form's bottom rule. The capture
 * trims a line's trailing blanks, which the terminal paints white: the quiet
 * zone's two columns on the right are put back.
 */
function codeOnScreen(screen: string): string[] {
  const lines = screen.split("\n");
  const help = lines.findIndex((l) => l.includes("answer in a browser:"));
  const rule = lines.findIndex((l, i) => i > help && l.startsWith("─"));
  const end = lines.findIndex((l, i) => i > rule && !/^[ █▀▄]*$/.test(l));
  const code = lines.slice(rule + 1, end);
  const width = Math.max(...code.map((l) => l.length)) + 2;
  return code.map((l) => l.padEnd(width));
}

describe("a form's link as a QR code", () => {
  (lan ? it : it.skip)(
    `served on the machine's own address (${lan}): the code under the form decodes to the link`,
    async () => {
      const settings = { ...JSON.parse(EVERY_TOOL["pi-formchart/settings.json"]), web: true, webAddress: lan };
      const { model, term, prompt } = await startPi(
        [{ toolCalls: [{ name: "question", arguments: QUESTION }] }, { text: "ok" }],
        "qr",
        { width: 100, height: 50 },
        [],
        {},
        { "pi-formchart/settings.json": JSON.stringify(settings) },
      );
      await prompt("pick one");
      const screen = await term.waitFor((s) => s.includes("answer in a browser:") && codeOnScreen(s).length > 17);
      const link = /answer in a browser: (http:\S+)/.exec(screen)?.[1];
      expect(link).toContain(`http://${lan}:`);
      expect(decode(codeOnScreen(screen))).toBe(link);
      term.press("2");
      await model.waitForRequests(2);
      expect(toolResults(model.requests[1])).toEqual(["Q1: user selected: 2. SQLite"]);
    },
  );
});
