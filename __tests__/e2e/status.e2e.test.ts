/**
 * While a form waits for the person, Pi 1.x tells the terminal it is blocked
 * on a question (program status, OSC 7501), and working again once the
 * answer is in. tmux does not forward these reports, so the test records
 * what pi writes into its pane. Pi 0.73 has no program status.
 */
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "@jest/globals";
import { toolResults } from "../../scripts/fake-model.js";
import { HOST } from "./pi-host.js";
import { startPi, usePiSessions } from "./session.js";

usePiSessions();

/** The program-status reports in what pi wrote, decoded: `state`, `kind`, `msg`. */
function statuses(file: string): Array<Record<string, string>> {
  const written = readFileSync(file, "latin1");
  return [...written.matchAll(/\x1b\]7501;([^\x07\x1b]*)(?:\x07|\x1b\\)/g)]
    .filter((m) => !m[1].startsWith("?"))
    .map((m) =>
      Object.fromEntries(
        m[1].split(":").map((pair) => {
          const [key, value] = pair.split("=");
          return [key, key === "msg" ? Buffer.from(value, "base64").toString("utf8") : value];
        }),
      ),
    );
}

(HOST.current ? describe : describe.skip)("program status in the real pi", () => {
  it("is blocked on a question while the form waits, and no longer once it is answered", async () => {
    const args = { question: "Deploy now?", options: [{ label: "Yes" }, { label: "Later" }] };
    const { model, term, prompt } = await startPi(
      [{ toolCalls: [{ name: "question", arguments: args }] }, { text: "ok" }],
      "status",
      undefined,
      [],
      { PI_PROGRAM_STATUS: "1" },
    );
    const file = join(mkdtempSync(join(tmpdir(), "formchart-status-")), "pane.out");
    term.record(file);
    await prompt("deploy?");
    await term.waitFor("Deploy now?");
    await new Promise((r) => setTimeout(r, 300));
    const waiting = statuses(file);
    expect(waiting.at(-1)).toMatchObject({ state: "blocked", kind: "question", msg: "Deploy now?" });
    term.press("Enter");
    await model.waitForRequests(2);
    expect(toolResults(model.requests[1])[0]).toContain("Yes");
    await term.waitFor("ok");
    const after = statuses(file).slice(waiting.length);
    expect(after.length).toBeGreaterThan(0);
    expect(after.at(-1)?.state).not.toBe("blocked");
  });
});
