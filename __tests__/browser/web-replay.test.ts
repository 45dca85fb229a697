/**
 * Same form, same result, on the page and in the terminal: every route the
 * inspector generates for each example, and an even sample of the routes of
 * a generated form of every tool, replayed twice — through the web page in headless Chromium
 * by its controls (keyboard alone: the way that reaches every control), and
 * through the terminal's screen by key bytes. After each step both sessions
 * stand in the same state holding the same context; a route that closes the
 * form gives byte-identical tool text and `details` both ways. The chart's
 * own events (a cooldown's end, the timeout) and the fold key (the
 * terminal's: the page folds nothing) are sent to both sessions as they
 * are. A page that worked out anything itself would part from the terminal
 * here.
 */

import { afterAll, beforeAll, beforeEach, describe, expect, it } from "@jest/globals";
import fc from "fast-check";
import type { Browser, Page } from "playwright-core";
import type { AnyStateMachine } from "xstate";
import { loadFormFile } from "../../bin/form-file.js";
import { type FormEvent, formState } from "../../machines/context.js";
import { createFormMachine } from "../../machines/form.js";
import type { FormSnapshot } from "../../machines/position.js";
import { FormSession } from "../../machines/session.js";
import type { FormSpec } from "../../machines/spec.js";
import { generatePaths } from "../../renderers/inspect/paths.js";
import { reviewScreen, sendToScreen } from "../../renderers/review/replay.js";
import { PageScreen } from "../../renderers/web/page-screen.js";
import { openWebServer, type WebServer } from "../../renderers/web/server.js";
import { prepareFormFile } from "../../tools/engine/catalog.js";
import type { PreparedForm } from "../../tools/engine/form-tool.js";
import { launchChromium } from "../helpers/browser.js";
import { TOOL_CALLS } from "../helpers/form-arbitraries.js";
import { PageDriver } from "../helpers/page-driver.js";
import { until } from "../helpers/until.js";

/** Routes replayed at once, each in a page and on a server of its own: most of a step is waiting on the browser. */
const LANES = 2;

interface Lane {
  page: Page;
  server: WebServer;
}

let browser: Browser;
const lanes: Lane[] = [];
const problems: string[] = [];

beforeAll(async () => {
  browser = await launchChromium();
  for (let i = 0; i < LANES; i++) {
    const page = await browser.newPage();
    page.on("pageerror", (e) => problems.push(`page error: ${e.message}`));
    page.on("console", (m) => {
      if (m.type() === "error") problems.push(`console: ${m.text()}`);
    });
    page.on("response", async (r) => {
      if (r.status() >= 400)
        problems.push(`${r.status()} ${r.request().postData()}: ${await r.text().catch(() => "")}`);
    });
    lanes.push({ page, server: await openWebServer({ title: "replay" }) });
  }
}, 60_000);

beforeEach(() => {
  problems.length = 0;
});

afterAll(async () => {
  for (const lane of lanes) await lane.server.close("done");
  await browser?.close();
});

/** Every route replayed, `LANES` at a time. */
async function replayAll(form: PreparedForm, routes: Array<ReadonlyArray<{ type: string }>>): Promise<void> {
  let next = 0;
  const kept: Kept = new Map();
  await Promise.all(
    lanes.map(async (lane) => {
      while (next < routes.length) await replay(lane, form, routes[next++], kept);
    }),
  );
}

const standing = (session: FormSession) =>
  JSON.stringify({ value: session.snapshot.value, context: formState(session.snapshot.context) });

/** The events the person does not send: the chart's own delays, the abort, and the terminal's fold key. */
const direct = (event: { type: string }) =>
  event.type.startsWith("xstate.") || event.type === "TIME_UP" || event.type === "ABORT" || event.type === "FOLD";

/** Where the routes replayed so far stood after each of their beginnings, open: a route that shares one goes on from there. */
type Kept = Map<string, FormSnapshot>;

/**
 * One route both ways, from where the longest beginning it shares with a route replayed before
 * ended (both sessions start from that snapshot), so that each step of a form's routes is
 * replayed about once; the steps it took, for the message of a failure.
 */
async function replay(
  { page, server }: Lane,
  form: PreparedForm,
  events: ReadonlyArray<{ type: string }>,
  kept: Kept,
): Promise<void> {
  const beginning = (n: number) => JSON.stringify(events.slice(0, n));
  let from = events.length - 1;
  while (from > 0 && !kept.has(beginning(from))) from--;
  const snapshot = from > 0 ? kept.get(beginning(from)) : undefined;
  const terminal = reviewScreen(form.spec, undefined, snapshot);
  const served = new PageScreen(new FormSession({ spec: form.spec, snapshot }));
  server.release("The next route.");
  server.serve(served);
  await page.goto(server.url);
  await page.locator('[data-part="body"]').waitFor();
  const driver = new PageDriver(page, "keyboard");
  const done: string[] = [`(from step ${from})`];
  try {
    for (const [at, step] of events.entries()) {
      if (at < from) continue;
      const event = step as FormEvent;
      const before = standing(terminal.session);
      if (event.type === "ABORT") {
        terminal.session.abort();
        served.session.abort();
      } else if (direct(event)) {
        terminal.session.send(event);
        served.session.send(event);
      } else {
        const acted = await driver.act(event, served.session);
        done.push(`${JSON.stringify(event)}${acted ? "" : " (no control)"}`);
        sendToScreen(terminal, event);
        // The page has a control for every event the chart takes.
        if (!acted) expect({ done, taken: standing(terminal.session) !== before }).toEqual({ done, taken: false });
      }
      // What the page sent has been answered (so the step's version is the one to wait for), and it shows the step.
      const idle = () =>
        page.waitForFunction(() => !document.getElementById("form")?.hasAttribute("aria-busy"), null, {
          polling: 5,
          timeout: 10_000,
        });
      await idle();
      await until(
        () => standing(served.session),
        (s) => s === standing(terminal.session),
        () =>
          `${form.spec.title ?? form.spec.questions[0]?.prompt}: after ${done.join(" → ")} the page stands apart from ${standing(terminal.session)}`,
        { everyMs: 4 },
      );
      if (!served.session.closed)
        await page.waitForFunction((version) => document.body.dataset.version === version, String(served.version), {
          polling: 5,
          timeout: 10_000,
        });
      if (!terminal.session.closed) kept.set(beginning(at + 1), terminal.session.snapshot);
    }
    const ended = terminal.session.settled;
    expect(served.session.settled === undefined).toBe(ended === undefined);
    if (ended)
      expect(JSON.stringify(form.answer(served.session.settled!.result))).toBe(
        JSON.stringify(form.answer(ended.result)),
      );
  } finally {
    terminal.session.dispose();
    served.session.abort();
  }
}

function routesOf(spec: FormSpec): Array<ReadonlyArray<{ type: string }>> {
  return generatePaths(spec, createFormMachine(spec) as unknown as AnyStateMachine).map((route) =>
    route.steps.slice(1).map((s) => s.event),
  );
}

const EXAMPLES = [
  "single",
  "multi",
  "previews",
  "questionnaire",
  "branching",
  "custom-answers",
  "input-number",
  "input-date",
  "form-signup",
  "form-confirm",
  "form-one-field",
  "rich",
  "throttled",
  "timeout",
  "demo",
];

describe("every route of every example: the page's controls and the terminal's keys reach the same states and result", () => {
  it.each(EXAMPLES)(
    "%s",
    async (name) => {
      const loaded = loadFormFile(name);
      if (!loaded.ok) throw new Error(loaded.message);
      const routes = routesOf(loaded.form.spec);
      expect(routes.length).toBeGreaterThan(0);
      await replayAll(loaded.form, routes);
      expect(problems).toEqual([]);
    },
    300_000,
  );
});

/** Routes replayed of each generated form. */
const GENERATED_ROUTES = 30;

/** One small form per tool, drawn by fast-check under a fixed seed. */
const GENERATED = Object.entries(TOOL_CALLS).map(([tool, arbitrary]) => {
  const [call] = fc.sample(arbitrary, { seed: 7, numRuns: 1 });
  return [tool, call] as const;
});

describe("every route of a generated form of each tool, both ways", () => {
  it.each(GENERATED)(
    "%s",
    async (_, call) => {
      const prepared = prepareFormFile(call);
      if (!prepared.ok) return expect(prepared.message).toMatch(/never be shown/);
      const form = prepared.form;
      // A generated form may have hundreds of routes: an even sample of them, the first and the last included.
      const routes = routesOf(form.spec);
      const every = Math.ceil(routes.length / GENERATED_ROUTES);
      await replayAll(
        form,
        routes.filter((_, i) => i % every === 0 || i === routes.length - 1),
      );
      expect(problems).toEqual([]);
    },
    300_000,
  );
});
