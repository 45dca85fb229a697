/**
 * A real Node process with a form waiting out its countdown exits by itself
 * once Pi's session shut down: nothing the extension started (the form's
 * timers, its actor, the engine's warm-up) keeps the process alive.
 */
import { spawn } from "node:child_process";
import { join } from "node:path";
import { describe, expect, it } from "@jest/globals";
import { PROJECT_ROOT } from "./helpers/root.js";

describe("the session's end in a real process", () => {
  it("a real process with a waiting form exits by itself once the session shut down", async () => {
    const child = spawn(process.execPath, ["--import", "tsx", join("__tests__", "fixtures", "shutdown-child.ts")], {
      cwd: PROJECT_ROOT,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let out = "";
    child.stdout.on("data", (d) => (out += d));
    child.stderr.resume();
    const exited = new Promise<number | null>((resolve) => child.once("exit", resolve));
    const limit = new Promise<"still running">((resolve) => setTimeout(() => resolve("still running"), 15000).unref());
    const outcome = await Promise.race([exited, limit]);
    if (outcome === "still running") child.kill("SIGKILL");
    expect(outcome).toBe(0);
    expect(JSON.parse(out)).toMatchObject({ question: "Later?", answer: null, throttled: true, cancelled: true });
  });
});
