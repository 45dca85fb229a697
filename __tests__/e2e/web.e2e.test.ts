/**
 * The browser tab from the real Pi in RPC mode: the client takes the link
 * the first select offers, Chromium answers the form on it, and the model
 * reads the tool result the dialogs would have given; the same for a
 * question asked with `wait: false` (which waits in RPC mode).
 */

import { afterAll, afterEach, beforeAll, describe, expect, it } from "@jest/globals";
import type { Browser } from "playwright-core";
import { BROWSER_OPTION } from "../../renderers/web/offer.js";
import { toolResults } from "../../scripts/fake-model.js";
import { launchChromium } from "../helpers/browser.js";
import { until } from "../helpers/until.js";
import { type RpcPi, startRpcPi } from "./rpc.js";

let browser: Browser;
let running: RpcPi | undefined;
beforeAll(async () => {
  browser = await launchChromium();
}, 60_000);
afterEach(async () => {
  await running?.close();
  running = undefined;
});
afterAll(async () => {
  await browser?.close();
});

const QUESTION = { question: "Which database?", options: [{ label: "PostgreSQL" }, { label: "SQLite" }] };
const WAITED = "\n(This host cannot show a form beside your work, so the call waited for the answer.)";

describe("RPC mode: the form answered in a browser tab", () => {
  it.each([
    ["a question call", QUESTION, ""],
    ["a question asked with wait: false", { ...QUESTION, wait: false }, WAITED],
  ])("%s: the link's page gives the tool result", async (_, args, note) => {
    let link = "";
    running = await startRpcPi(
      [{ toolCalls: [{ name: "question", arguments: args }] }, { text: "ok" }],
      () => undefined,
      ["--mode", "rpc"],
      undefined,
      (request) => {
        const option = request.options?.find((o) => o.startsWith(BROWSER_OPTION)) ?? "";
        link = option.slice(BROWSER_OPTION.length);
        return { value: option };
      },
    );
    running.prompt("go");
    await until(
      () => link,
      (l) => l.startsWith("http://127.0.0.1:"),
      "the offer's link",
      { timeoutMs: 30_000, everyMs: 50 },
    );
    const page = await browser.newPage();
    await page.goto(link);
    // As a screen reader finds it: the option by its role and name, chosen as a tap or Space chooses it.
    const sqlite = page.getByRole("radio", { name: /^SQLite/ });
    await sqlite.waitFor();
    await sqlite.click();
    await running.model.waitForRequests(2, 40_000);
    expect(toolResults(running.model.requests[1])).toEqual([`Q1: user selected: 2. SQLite${note}`]);
    await until(
      () => page.locator("#status").textContent(),
      (t) => t === "Answered here.",
      "the page says so",
      { timeoutMs: 30_000, everyMs: 50 },
    );
    // The client's own dialogs asked nothing: the whole form was the page's.
    expect(running.requests).toEqual([]);
    await page.close();
  });
});
