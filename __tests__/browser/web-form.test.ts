/**
 * A form answered in a browser tab (renderers/web/), in headless Chromium,
 * as the people who use it do: every example answered by touch at a phone's
 * width, by keyboard alone, and by role and accessible name as a screen
 * reader finds its controls — each step where the terminal's session stands
 * after the same events, each answer giving the terminal's text and
 * details; an axe-core audit of every example, light and dark; the attacks
 * the server refuses; hostile text reaching the page as text; two tabs and
 * the terminal on one form; a form answered elsewhere or aborted (the page
 * says so); the port freed after. Screenshots go to test-output/web/.
 */

import { mkdirSync, readFileSync } from "node:fs";
import { createServer, request } from "node:http";
import { createRequire } from "node:module";
import { connect } from "node:net";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { loadFormFile } from "../../bin/form-file.js";
import { type FormEvent, type FormOutcome, formState } from "../../machines/context.js";
import { FormSession } from "../../machines/session.js";
import type { FormSpec, QuestionSpec } from "../../machines/spec.js";
import { textProblems } from "../../machines/text-rules.js";
import { PageScreen } from "../../renderers/web/page-screen.js";
import { openWebServer, type WebServer } from "../../renderers/web/server.js";
import { prepareFormFile } from "../../tools/engine/catalog.js";
import type { PreparedForm } from "../../tools/engine/form-tool.js";
import { launchChromium } from "../helpers/browser.js";
import { KEY, openForm } from "../helpers/fake-host.js";
import { PageDriver, type Way } from "../helpers/page-driver.js";
import { until as waitUntil } from "../helpers/until.js";

/** Waits with this file's limits (helpers/until.ts). */
const until = <T>(read: () => Promise<T> | T, ok: (value: T) => boolean, what: string | (() => string)) =>
  waitUntil(read, ok, what, { timeoutMs: 15_000 });

const OUT = join(import.meta.dirname, "..", "..", "test-output", "web");
const AXE = readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");
let browser: Browser;
let phone: BrowserContext;

beforeAll(async () => {
  browser = await launchChromium();
  phone = await browser.newContext({ viewport: { width: 360, height: 740 }, hasTouch: true, isMobile: true });
  mkdirSync(OUT, { recursive: true });
}, 60_000);

const open_: { session: FormSession }[] = [];
afterAll(async () => {
  // A test that failed half-way leaves its form open: closing it stops its server.
  for (const form of open_) form.session.abort();
  await browser?.close();
});

const statusOf = (page: Page) => page.locator("#status").textContent();
const mainText = async (page: Page) => (await page.locator("main").textContent()) ?? "";

function example(name: string): PreparedForm {
  const loaded = loadFormFile(name);
  if (!loaded.ok) throw new Error(loaded.message);
  // No cooldown before the form: the controls work at once.
  return { ...loaded.form, spec: { ...loaded.form.spec, waitMs: undefined } };
}

interface Served {
  server: WebServer;
  form: PageScreen;
  outcome: Promise<FormOutcome>;
}

/** A form served as `npm start -- --web` serves it; `close` says how it ended where it was served. */
async function serve(spec: FormSpec, elsewhere = "Closed where it was served."): Promise<Served> {
  const server = await openWebServer({ title: spec.title ?? spec.questions[0].prompt });
  const form = new PageScreen(new FormSession({ spec }));
  const outcome = form.session.outcome.then(async (o: FormOutcome) => {
    void server.close(elsewhere);
    return o;
  });
  server.serve(form);
  open_.push(form);
  return { server, form, outcome };
}

/** A page on the link that records console errors and any request off the form's own server. */
async function open(url: string, on: BrowserContext | Browser = browser): Promise<{ page: Page; problems: string[] }> {
  const page = await on.newPage();
  const problems: string[] = [];
  const origin = new URL(url).origin;
  page.on("console", (m) => {
    if (m.type() === "error") problems.push(`console: ${m.text()}`);
  });
  page.on("pageerror", (e) => problems.push(`page error: ${e.message}`));
  page.on("dialog", (d) => {
    problems.push(`dialog: ${d.message()}`);
    void d.dismiss();
  });
  // The event stream ends when the form closes: the page closes it then.
  page.on("requestfailed", (r) => {
    if (!new URL(r.url()).pathname.endsWith("/events")) problems.push(`failed: ${r.method()} ${r.url()}`);
  });
  page.on("request", (r) => {
    if (!r.url().startsWith(origin)) problems.push(`request: ${r.url()}`);
  });
  await page.goto(url);
  await page.locator('[data-part="body"]').waitFor();
  return { page, problems };
}

/** A valid typed answer for a text question. */
function typedAnswer(q: QuestionSpec): string {
  const samples = ["Blue sky", "42", "2024-02-29", "ada@example.org", q.placeholder ?? ""];
  return samples.find((s) => s && textProblems(q.text!, s).length === 0) ?? "Blue sky";
}

/** Where a session stands, to compare two: its state and what it holds. */
const standing = (session: FormSession) =>
  JSON.stringify({ value: session.snapshot.value, context: formState(session.snapshot.context) });

/**
 * The events that answer every question (the second option, two ticks, or a typed answer) and
 * submit, worked out on a session of the terminal's; the events the chart took, and that session.
 */
function answeringEvents(spec: FormSpec): { events: FormEvent[]; reference: FormSession } {
  const reference = new FormSession({ spec });
  const probe = new FormSession({ spec });
  const events: FormEvent[] = [];
  const stages = new Map<number, number>();
  for (let step = 0; step < 80 && !probe.closed; step++) {
    const p = probe.position;
    const c = probe.snapshot.context;
    let next: FormEvent;
    if (p.kind === "review") next = { type: "CONFIRM" };
    else if (p.kind !== "question") throw new Error(`stuck in ${p.kind}`);
    else if (p.mode === "typing") {
      const q = spec.questions[p.q];
      next = c.drafts[p.q] ? { type: "SUBMIT_TEXT", text: c.drafts[p.q] } : { type: "TYPE", text: typedAnswer(q) };
    } else if (p.mode !== "choosing") next = { type: "CANCEL" };
    else {
      const q = spec.questions[p.q];
      // A multi-select: the first two ticked, then confirmed; when that is refused, the next question.
      const stage = stages.get(p.q) ?? 0;
      stages.set(p.q, stage + 1);
      const ticks = Math.min(2, q.options.length);
      if (q.kind === "multi")
        next =
          stage < ticks ? { type: "SELECT", row: stage } : stage === ticks ? { type: "CONFIRM" } : { type: "NEXT_TAB" };
      else next = c.answered[p.q] ? { type: "NEXT_TAB" } : { type: "SELECT", row: Math.min(1, q.options.length - 1) };
    }
    if (probe.send(next).taken) events.push(next);
  }
  probe.dispose();
  if (!probe.closed) throw new Error(`the events ${JSON.stringify(events)} did not close the form`);
  return { events, reference };
}

/**
 * Each event done on the page by `way` and sent to the reference session; after each, the page's
 * session stands where the reference does and the page shows that step.
 */
async function doOnPage(page: Page, way: Way, served: PageScreen, reference: FormSession, events: FormEvent[]) {
  const driver = new PageDriver(page, way);
  const done: string[] = [];
  for (const event of events) {
    const acted = await driver.act(event, served.session);
    done.push(`${JSON.stringify(event)}${acted ? "" : " (no control)"}`);
    // A person's first tap or key stops the answer clock, on the page as in the terminal.
    reference.stopClock();
    const taken = reference.send(event).taken;
    // The page offers a control for every event the chart takes.
    expect({ done, acted: acted || !taken }).toEqual({ done, acted: true });
    await until(
      () => standing(served.session),
      (s) => s === standing(reference),
      `after ${done.join(" → ")}, the page's form stands where the terminal's does (${standing(reference)})`,
    );
    if (!served.session.closed)
      await until(
        () => page.evaluate(() => document.body.dataset.version),
        (v) => v === String(served.version),
        "the page shows the step",
      );
  }
}

const EVERY_TOOL = [
  "single",
  "multi",
  "previews",
  "questionnaire",
  "branching",
  "input-email",
  "form-signup",
  "form-confirm",
  "rich",
  "throttled",
  "custom-answers",
  "timeout",
];

describe("every example answered as people answer a page", () => {
  it.each(EVERY_TOOL.flatMap((name) => (["touch", "keyboard", "roles"] as const).map((way) => [name, way] as const)))(
    "%s by %s: each step where the terminal's is, the answer the terminal's",
    async (name, way) => {
      const form = example(name);
      const { events, reference } = answeringEvents(form.spec);
      const served = await serve(form.spec);
      const { page, problems } = await open(served.server.url, way === "touch" ? phone : browser);
      await doOnPage(page, way, served.form, reference, events);
      const outcome = await served.outcome;
      expect(JSON.stringify(form.answer(outcome.result))).toBe(JSON.stringify(form.answer(reference.settled!.result)));
      await until(
        () => statusOf(page),
        (t) => t === "Answered here.",
        "the page says it answered",
      );
      expect(problems).toEqual([]);
      await page.close();
    },
    60_000,
  );

  it.each(EVERY_TOOL)(
    "%s at 360 px: no sideways scroll, every target at least 44 px, each screen shot",
    async (name) => {
      const form = example(name);
      const served = await serve(form.spec);
      const { page, problems } = await open(served.server.url, phone);
      const { events, reference } = answeringEvents(form.spec);
      const driver = new PageDriver(page, "touch");
      for (const [i, event] of [undefined, ...events].entries()) {
        if (event) {
          await driver.act(event, served.form.session);
          reference.stopClock();
          reference.send(event);
          await until(
            () => standing(served.form.session),
            (s) => s === standing(reference),
            "the page follows",
          );
        }
        if (served.form.session.closed) break;
        await until(
          () => page.evaluate(() => document.body.dataset.version),
          (v) => v === String(served.form.version),
          "the page shows the step",
        );
        const sizes = await page.evaluate(() => ({
          scroll: document.documentElement.scrollWidth,
          small: [...document.querySelectorAll("main button, main .row label, main input[type=text], main textarea")]
            .map((el) => el.getBoundingClientRect())
            .filter((r) => r.width > 0 && (r.height < 44 || r.width < 44))
            .map((r) => `${Math.round(r.width)}×${Math.round(r.height)}`),
        }));
        expect({ step: i, ...sizes }).toEqual({ step: i, scroll: 360, small: [] });
        if (i < 3) await page.screenshot({ path: join(OUT, `${name}-phone-${i}.png`), fullPage: true });
      }
      served.form.session.abort();
      expect(problems).toEqual([]);
      await page.close();
    },
    60_000,
  );
});

describe("an axe-core audit of every example's page", () => {
  it.each(EVERY_TOOL.flatMap((name) => (["light", "dark"] as const).map((scheme) => [name, scheme] as const)))(
    "%s, %s: no serious or critical violation, on the first screen and the review",
    async (name, scheme) => {
      const form = example(name);
      const served = await serve(form.spec);
      // axe is put in the page as a script of its own: only the audit's page lets it past the policy.
      const context = await browser.newContext({ bypassCSP: true, colorScheme: scheme });
      const { page } = await open(served.server.url, context);
      const audit = async (where: string) => {
        await page.evaluate(AXE);
        const found = (await page.evaluate(() =>
          (window as unknown as { axe: { run(): Promise<unknown> } }).axe.run(),
        )) as { violations: Array<{ id: string; impact: string; nodes: Array<{ target: unknown }> }> };
        return found.violations
          .filter((v) => v.impact === "serious" || v.impact === "critical")
          .map((v) => `${where}: ${v.id} (${v.impact}) at ${JSON.stringify(v.nodes.map((n) => n.target))}`);
      };
      const violations = await audit("first screen");
      const { events, reference } = answeringEvents(form.spec);
      // Every question answered: the last event submits, so the review is audited before it.
      await doOnPage(page, "roles", served.form, reference, events.slice(0, -1));
      violations.push(...(await audit(served.form.session.position.kind)));
      expect(violations).toEqual([]);
      served.form.session.abort();
      await context.close();
    },
    60_000,
  );
});

/** One request as any client may send it, Host and Origin as given. */
function raw(
  url: URL,
  { method = "GET", path = url.pathname, host = url.host, origin, body }: Record<string, string | undefined> = {},
): Promise<{ status: number; headers: Record<string, unknown>; text: string }> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = { host };
    if (origin) headers.origin = origin;
    if (body) headers["content-type"] = "application/json";
    const req = request({ host: url.hostname, port: url.port, method, path, headers, setHost: false }, (res) => {
      let text = "";
      res.setEncoding("utf8");
      res.on("data", (d) => (text += d));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text }));
    });
    req.on("error", reject);
    req.end(body);
  });
}

/** Whether anything listens on the port. */
function listening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, "127.0.0.1");
    socket.once("connect", () => {
      socket.destroy();
      resolve(true);
    });
    socket.once("error", () => resolve(false));
  });
}

describe("what the server lets in, and how a page learns the form ended", () => {
  it("refuses a wrong token, a host name other than an address, and a POST from another origin", async () => {
    const served = await serve(example("single").spec);
    const url = new URL(served.server.url);
    const token = url.pathname.split("/")[1];
    expect(token.length).toBeGreaterThanOrEqual(43); // 32 random bytes, base64url
    const page = await raw(url);
    expect(page.status).toBe(200);
    expect(page.headers["content-security-policy"]).toContain("script-src 'self';");
    expect(page.headers["content-security-policy"]).toContain("style-src 'self';");
    // Through `ssh -L 8080:127.0.0.1:PORT` the browser names localhost and its own port.
    expect((await raw(url, { host: "localhost:8080" })).status).toBe(200);
    expect((await raw(url, { path: `/${"A".repeat(token.length)}/` })).status).toBe(404);
    expect((await raw(url, { path: "/" })).status).toBe(404);
    expect((await raw(url, { path: `/${token}/../${token}/client.js` })).status).not.toBe(500);
    // DNS rebinding: a name of the attacker's that resolves to 127.0.0.1.
    const rebound = await raw(url, { host: `attacker.example:${url.port}` });
    expect(rebound.status).toBe(403);
    expect(rebound.text).not.toContain("<html");
    const keys = JSON.stringify({ tab: "x", events: [{ type: "SELECT", row: 1 }] });
    const input = `/${token}/act`;
    expect((await raw(url, { method: "POST", path: input, body: keys })).status).toBe(403);
    expect(
      (await raw(url, { method: "POST", path: input, origin: "http://attacker.example", body: keys })).status,
    ).toBe(403);
    expect(
      (await raw(url, { method: "POST", path: input, origin: `http://${url.host}`, body: "not json" })).status,
    ).toBe(400);

    // A page of another origin in the browser: its POST is refused, its event stream unreadable.
    const other = createServer((_, res) => res.end("<!doctype html><title>elsewhere</title>"));
    await new Promise<void>((resolve) => other.listen(0, "127.0.0.1", resolve));
    const attacker = await browser.newPage();
    await attacker.goto(`http://127.0.0.1:${(other.address() as { port: number }).port}/`);
    const tried = await attacker.evaluate(async (form) => {
      const body = '{"tab":"x","events":[{"type":"SELECT","row":1}]}';
      const post = await fetch(`${form}act`, { method: "POST", mode: "no-cors", body });
      const read = await fetch(`${form}events`).then(
        () => "read",
        () => "refused",
      );
      return { post: post.type, read };
    }, served.server.url);
    expect(tried.read).toBe("refused");
    expect(served.form.session.closed).toBe(false);
    await attacker.close();
    other.close();
    served.form.session.abort();
    await served.outcome;
  });

  it("shows what the model and the person wrote as text, never as markup, and asks no other host", async () => {
    const hostile = `<img src=x onerror=alert(1)></script><script>alert(2)</script>\x1b[31mred\x1b[0m\x1b]0;owned\x07\x1b]8;;http://x\x1b\\link\x1b]8;;\x1b\\\x9b1m\u202eevil`;
    const prepared = prepareFormFile({
      tool: "ask_rich_questions",
      arguments: {
        title: `T ${hostile}`,
        questions: [
          {
            id: "a",
            type: "radio",
            prompt: `Q ${hostile}`,
            context: `C ${hostile}`,
            options: [
              { label: `A ${hostile}`, description: `D ${hostile}`, preview: `\`\`\`html\n<b>${hostile}</b>\n\`\`\`` },
              { label: "B <b>bold</b>" },
            ],
          },
          { id: "b", type: "text", prompt: "Why?", placeholder: `P ${hostile}` },
        ],
      },
    });
    if (!prepared.ok) throw new Error(prepared.message);
    const served = await serve(prepared.form.spec);
    const { page, problems } = await open(served.server.url);
    const text = await mainText(page);
    expect(text).toContain("<img src=x onerror=alert(1)>");
    expect(text).toContain("B <b>bold</b>");
    // Escape sequences and bidirectional overrides are gone before the page sees the text.
    expect(text).not.toMatch(/[\x1b\x07\x9b\u202e]/);
    expect(await page.title()).toContain("<img src=x onerror=alert(1)>");
    // The person's own text, typed in the page, is text too.
    await page.getByRole("tab", { name: /Q2/ }).click();
    await page.locator("[data-field]").fill(`<script>alert(3)</script>${hostile}`);
    await until(
      () => served.form.session.editorText,
      (t) => t.startsWith("<script>"),
      "the text reaches the form",
    );
    expect(served.form.session.editorText).not.toMatch(/[\x1b\x07\x9b]/);
    expect(await page.locator("img, b, script:not([src]), [onerror]").count()).toBe(0);
    await page.screenshot({ path: join(OUT, "hostile.png"), fullPage: true });
    served.form.session.abort();
    await served.outcome;
    expect(problems).toEqual([]);
    await page.close();
  }, 60_000);

  it("a list of 10,000 options shows 120 around the highlight, and End and Home reach both ends", async () => {
    const prepared = prepareFormFile({
      tool: "question",
      arguments: {
        question: "Pick",
        allowOther: false,
        options: Array.from({ length: 10_000 }, (_, i) => ({ label: `Option ${i}` })),
      },
    });
    if (!prepared.ok) throw new Error(prepared.message);
    const served = await serve(prepared.form.spec);
    const { page, problems } = await open(served.server.url);
    expect(await page.locator(".row").count()).toBe(120);
    await page.locator(".row.highlighted input").focus();
    await page.keyboard.press("End");
    await until(
      async () => (await page.locator(".row.highlighted label").textContent()) ?? "",
      (t) => t.startsWith("Option 9999"),
      "End reaches the last option",
    );
    expect(await page.locator(".more").first().textContent()).toMatch(/^9880 options above/);
    await page.keyboard.press("Space");
    const outcome = await served.outcome;
    expect(outcome.result.answers[0].options).toEqual([9999]);
    expect(problems).toEqual([]);
    await page.close();
  }, 60_000);

  it("two tabs show one form; a tab closed leaves it open; the tab that answers and the other say so", async () => {
    const served = await serve(example("single").spec);
    const [a, b, c] = [await open(served.server.url), await open(served.server.url), await open(served.server.url)];
    await a.page.locator(".row.highlighted input").focus();
    await a.page.keyboard.press("ArrowDown");
    await until(
      () => b.page.locator(".row.highlighted label").textContent(),
      (t) => !!t?.startsWith("SQLite"),
      "the other tab follows",
    );
    await c.page.close();
    expect(served.form.session.closed).toBe(false);
    await b.page.locator(".row.highlighted input").focus();
    await b.page.keyboard.press("Enter");
    const outcome = await served.outcome;
    expect(outcome.result.answers[0]).toMatchObject({ options: [1] });
    await until(
      () => statusOf(b.page),
      (t) => t === "Answered here.",
      "the answering tab says so",
    );
    await until(
      () => statusOf(a.page),
      (t) => t === "Answered in another tab.",
      "the other tab says so",
    );
    expect([...a.problems, ...b.problems]).toEqual([]);
    await Promise.all([a.page.close(), b.page.close()]);
  });

  it.each([
    [
      "answered in the terminal first",
      "Answered in the terminal.",
      (f: PageScreen) => f.session.send({ type: "CONFIRM" }),
    ],
    [
      "aborted by the agent",
      "The agent stopped this question: the form is closed.",
      (f: PageScreen) => f.session.abort(),
    ],
  ])("%s: the page says so, takes nothing more, and the port is freed", async (_, text, end) => {
    const served = await serve(example("single").spec, text);
    const { page, problems } = await open(served.server.url);
    end(served.form);
    await served.outcome;
    await until(
      () => statusOf(page),
      (t) => t === text,
      "the page says how the form ended",
    );
    expect(await page.locator("body.closed").count()).toBe(1);
    expect(await page.locator("main").evaluate((m) => (m as HTMLElement).inert)).toBe(true);
    expect(await listening(Number(new URL(served.server.url).port))).toBe(false);
    await page.screenshot({ path: join(OUT, "closed.png") });
    expect(problems).toEqual([]);
    await page.close();
  });

  it("in the terminal, the terminal and two tabs drive one session, the link in its help line", async () => {
    const form = example("single");
    const server = await openWebServer({ title: "t" });
    const terminal = openForm(form.spec, { link: server.url });
    server.serve(new PageScreen(terminal.session));
    open_.push(terminal.form);
    expect(terminal.form.render(200).join("\n")).toContain(`answer in a browser: ${server.url}`);
    const [a, b] = [await open(server.url), await open(server.url)];
    const lit = (page: Page) => page.locator(".row.highlighted label").textContent();
    terminal.press(KEY.down);
    for (const { page } of [a, b])
      await until(
        () => lit(page),
        (t) => !!t?.startsWith("SQLite"),
        "the tabs follow the terminal's key",
      );
    await a.page.locator(".row.highlighted input").focus();
    await a.page.keyboard.press("ArrowUp");
    await until(
      async () => terminal.form.render(100).join("\n"),
      (t) => t.includes("› 1. PostgreSQL"),
      "the terminal follows the page's key",
    );
    await until(
      () => lit(b.page),
      (t) => !!t?.startsWith("PostgreSQL"),
      "the other tab follows it too",
    );
    terminal.press(KEY.enter);
    await server.close("Answered in the terminal.");
    for (const { page } of [a, b])
      await until(
        () => statusOf(page),
        (t) => t === "Answered in the terminal.",
        "each tab says where",
      );
    expect(terminal.outcomes[0].result.answers[0]).toMatchObject({ options: [0] });
    expect([...a.problems, ...b.problems]).toEqual([]);
    await Promise.all([a.page.close(), b.page.close()]);
  });
});
