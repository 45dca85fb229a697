/**
 * A form answered in a browser tab (renderers/web/), in headless Chromium:
 * an example of every tool answered through its link by keys, and forms
 * answered by clicks, each giving the text and details the same keys give
 * the terminal component driven directly; the attacks the server refuses;
 * hostile text reaching the page as text; two tabs on one form; a tab
 * closed; a form answered elsewhere or aborted (the page says so); the port
 * freed after. Screenshots go to test-output/web/.
 */
import { mkdirSync } from "node:fs";
import { createServer, request } from "node:http";
import { connect } from "node:net";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import type { Browser, Page } from "playwright-core";
import { loadFormFile } from "../../bin/form-file.js";
import type { FormOutcome } from "../../machines/context.js";
import { FormSession } from "../../machines/session.js";
import type { FormSpec, QuestionSpec } from "../../machines/spec.js";
import { textProblems } from "../../machines/text-rules.js";
import type { TerminalScreen } from "../../renderers/terminal/screen.js";
import { pageScreen } from "../../renderers/web/page-screen.js";
import { openWebServer, type WebServer } from "../../renderers/web/server.js";
import { prepareFormFile } from "../../tools/engine/catalog.js";
import type { PreparedForm } from "../../tools/engine/form-tool.js";
import { launchChromium } from "../helpers/browser.js";
import { KEY, openForm } from "../helpers/fake-host.js";

const OUT = join(import.meta.dirname, "..", "..", "test-output", "web");
let browser: Browser;

beforeAll(async () => {
  browser = await launchChromium();
  mkdirSync(OUT, { recursive: true });
}, 60_000);

const open_: { session: FormSession }[] = [];
afterAll(async () => {
  // A test that failed half-way leaves its form open: closing it stops its server.
  for (const form of open_) form.session.abort();
  await browser?.close();
});

/** `read` again until `ok` says yes (a screen state, not a sleep); fails saying what was last read. */
async function until<T>(read: () => Promise<T>, ok: (value: T) => boolean, what: string): Promise<T> {
  const end = Date.now() + 15_000;
  for (;;) {
    const value = await read();
    if (ok(value)) return value;
    if (Date.now() > end) throw new Error(`${what}; last seen: ${JSON.stringify(value)}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

const statusOf = (page: Page) => page.locator("#status").textContent();

function example(name: string): PreparedForm {
  const loaded = loadFormFile(name);
  if (!loaded.ok) throw new Error(loaded.message);
  // No cooldown before the form: the keys start at once.
  return { ...loaded.form, spec: { ...loaded.form.spec, waitMs: undefined } };
}

interface Served {
  server: WebServer;
  form: TerminalScreen;
  outcome: Promise<FormOutcome>;
}

/** A form served as `npm start -- --web` serves it; `close` says how it ended where it was served. */
async function serve(spec: FormSpec, elsewhere = "Closed where it was served."): Promise<Served> {
  const server = await openWebServer({ title: spec.title ?? spec.questions[0].prompt });
  const form = pageScreen(new FormSession({ spec }));
  const outcome = form.session.outcome.then(async (o) => {
    void server.close(elsewhere);
    return o;
  });
  server.serve(form);
  open_.push(form);
  return { server, form, outcome };
}

/** A page on the link that records console errors and any request off the form's own server. */
async function open(url: string, viewport = { width: 1000, height: 700 }): Promise<{ page: Page; problems: string[] }> {
  const page = await browser.newPage({ viewport });
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
  await page.locator(".xterm-rows").waitFor();
  await until(
    () => screenText(page),
    (t) => /\S/.test(t),
    "the page shows the form",
  );
  return { page, problems };
}

/** What the page's terminal shows, a line per row. */
function screenText(page: Page): Promise<string> {
  return page
    .locator(".xterm-rows > div")
    .allTextContents()
    .then((rows) => rows.map((r) => r.replace(/\u00a0/g, " ").trimEnd()).join("\n"));
}

/** A valid typed answer for a text question. */
function typedAnswer(q: QuestionSpec): string {
  const samples = ["Blue sky", "42", "2024-02-29", "ada@example.org", q.placeholder ?? ""];
  return samples.find((s) => s && textProblems(q.text!, s).length === 0) ?? "Blue sky";
}

/**
 * Keys that answer every question (the second option, two ticks, or a typed
 * answer) and submit, worked out on the component driven directly: the keys
 * and what that terminal answer gives.
 */
function keysThatAnswer(form: PreparedForm): { keys: string[]; outcome: FormOutcome } {
  const ref = openForm(form.spec);
  const keys: string[] = [];
  const started = new Set<number>();
  for (let step = 0; step < 80 && ref.outcomes.length === 0; step++) {
    const p = ref.form.session.position;
    const c = ref.form.session.snapshot.context;
    let next: string[];
    if (p.kind === "review") next = [KEY.enter];
    else if (p.kind !== "question") throw new Error(`stuck in ${p.kind}`);
    else if (p.mode === "typing") next = c.drafts[p.q] ? [KEY.enter] : [typedAnswer(form.spec.questions[p.q])];
    else if (p.mode !== "choosing") next = [KEY.esc];
    else if (started.has(p.q) || c.answered[p.q]) next = [KEY.tab];
    else {
      started.add(p.q);
      const q = form.spec.questions[p.q];
      next = q.kind === "multi" ? [KEY.space, KEY.down, KEY.space, KEY.enter] : [KEY.down, KEY.enter];
    }
    for (const key of next) {
      keys.push(key);
      ref.press(key);
      if (ref.outcomes.length) break;
    }
  }
  ref.form.dispose();
  if (!ref.outcomes.length) throw new Error(`the keys ${JSON.stringify(keys)} did not close the form`);
  return { keys, outcome: ref.outcomes[0] };
}

const PRESS: Record<string, string> = {
  [KEY.up]: "ArrowUp",
  [KEY.down]: "ArrowDown",
  [KEY.enter]: "Enter",
  [KEY.esc]: "Escape",
  [KEY.tab]: "Tab",
  [KEY.shiftTab]: "Shift+Tab",
  [KEY.space]: "Space",
};

/** Each key pressed as a person presses it in the page: xterm.js makes the bytes. */
async function press(page: Page, keys: string[]): Promise<void> {
  for (const key of keys) {
    if (PRESS[key]) await page.keyboard.press(PRESS[key]);
    else await page.keyboard.type(key);
  }
}

/** The result's text and details, as the model would read them. */
const answerOf = (form: PreparedForm, outcome: FormOutcome) => form.answer(outcome.result);

/** A left click on the first place the page shows `text`. */
async function clickText(page: Page, text: string): Promise<void> {
  await until(
    () => screenText(page),
    (t) => t.includes(text),
    `the page shows "${text}"`,
  );
  const box = await page.evaluate((wanted) => {
    const rows = [...document.querySelectorAll(".xterm-rows > div")];
    for (const row of rows) {
      const walker = document.createTreeWalker(row, NodeFilter.SHOW_TEXT);
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        const at = (node.textContent ?? "").replace(/\u00a0/g, " ").indexOf(wanted);
        if (at < 0) continue;
        const range = document.createRange();
        range.setStart(node, at);
        range.setEnd(node, at + wanted.length);
        return range.getBoundingClientRect().toJSON() as DOMRect;
      }
    }
    return undefined;
  }, text);
  if (!box) throw new Error(`"${text}" is not in one piece on the page`);
  await page.mouse.click(box.x + Math.min(box.width / 2, 8), box.y + box.height / 2);
}

const EVERY_TOOL = [
  "single",
  "multi",
  "previews",
  "questionnaire",
  "branching",
  "input-email",
  "form-signup",
  "rich",
  "throttled",
];

describe("a form answered in a browser tab", () => {
  it.each(EVERY_TOOL)("%s: the keys pressed in the page give what they give the terminal", async (name) => {
    const form = example(name);
    const { keys, outcome: expected } = keysThatAnswer(form);
    const served = await serve(form.spec);
    const { page, problems } = await open(served.server.url);
    await press(page, keys);
    const outcome = await served.outcome;
    expect(answerOf(form, outcome)).toEqual(answerOf(form, expected));
    await until(
      () => statusOf(page),
      (t) => t === "Answered here.",
      "the page says it answered",
    );
    expect(problems).toEqual([]);
    await page.close();
  });

  it("clicks alone answer a tabbed form as its keys do, at a phone's width", async () => {
    const form = example("questionnaire");
    const served = await serve(form.spec);
    const { page, problems } = await open(served.server.url, { width: 390, height: 844 });
    const ref = openForm(form.spec);
    const q = form.spec.questions;
    for (let k = 0; k < q.length; k++) {
      if (k > 0) await clickText(page, q[k].label);
      await clickText(page, q[k].options[1].label);
      // The keys: Tab to the question (an answer may have moved on to it already), then 2.
      for (let t = 0; t < q.length && (ref.form.session.position as { q?: number }).q !== k; t++) ref.press(KEY.tab);
      ref.press("2");
    }
    await page.screenshot({ path: join(OUT, "questionnaire-phone.png") });
    await clickText(page, "Submit");
    for (let t = 0; t < q.length && ref.form.session.position.kind !== "review"; t++) ref.press(KEY.tab);
    await until(
      () => screenText(page),
      (t) => t.includes("Review"),
      "the review screen",
    );
    await page.screenshot({ path: join(OUT, "questionnaire-review-phone.png") });
    ref.press(KEY.enter);
    // On the review screen the Submit tab submits, as a click in the terminal does.
    await clickText(page, "Submit");
    await until(
      () => screenText(page),
      () => served.form.session.closed,
      "the click on Submit submits",
    );
    const outcome = await served.outcome;
    expect(ref.outcomes).toHaveLength(1);
    expect(answerOf(form, outcome)).toEqual(answerOf(form, ref.outcomes[0]));
    expect(problems).toEqual([]);
    await page.close();
  }, 60_000);
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
    // Through `ssh -L 8080:127.0.0.1:PORT` the browser names localhost and its own port.
    expect((await raw(url, { host: "localhost:8080" })).status).toBe(200);
    expect((await raw(url, { path: `/${"A".repeat(token.length)}/` })).status).toBe(404);
    expect((await raw(url, { path: "/" })).status).toBe(404);
    expect((await raw(url, { path: `/${token}/../${token}/client.js` })).status).not.toBe(500);
    // DNS rebinding: a name of the attacker's that resolves to 127.0.0.1.
    const rebound = await raw(url, { host: `attacker.example:${url.port}` });
    expect(rebound.status).toBe(403);
    expect(rebound.text).not.toContain("<html");
    const keys = JSON.stringify({ tab: "x", keys: ["2"] });
    const input = `/${token}/input`;
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
      const post = await fetch(`${form}input`, { method: "POST", mode: "no-cors", body: '{"tab":"x","keys":["2"]}' });
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

  it("shows what the model wrote as text, never as markup, and asks no other host", async () => {
    const hostile = `<img src=x onerror=alert(1)></script><script>alert(2)</script>\x1b]8;;http://x\x1b\\link\x1b]8;;\x1b\\\u202eevil`;
    const prepared = prepareFormFile({
      tool: "question",
      arguments: {
        questions: [{ prompt: hostile, options: [{ label: `A ${hostile}` }, { label: "B <b>bold</b>" }] }],
      },
    });
    if (!prepared.ok) throw new Error(prepared.message);
    const served = await serve(prepared.form.spec);
    const { page, problems } = await open(served.server.url);
    const text = await screenText(page);
    expect(text).toContain("<img src=x onerror=alert(1)>");
    expect(text).toContain("B <b>bold</b>");
    expect(await page.title()).toContain("<img src=x onerror=alert(1)>");
    expect(await page.locator("img, b, script:not([src])").count()).toBe(0);
    await page.screenshot({ path: join(OUT, "hostile.png") });
    served.form.session.abort();
    await served.outcome;
    expect(problems).toEqual([]);
    await page.close();
  });

  it("two tabs show one form; a tab closed leaves it open; the tab that answers and the other say so", async () => {
    const served = await serve(example("single").spec);
    const [a, b, c] = [await open(served.server.url), await open(served.server.url), await open(served.server.url)];
    await a.page.keyboard.press("ArrowDown");
    await until(
      () => screenText(b.page),
      (t) => t.includes("› 2. SQLite"),
      "the other tab follows",
    );
    await c.page.close();
    expect(served.form.session.closed).toBe(false);
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
    ["answered in the terminal first", "Answered in the terminal.", (f: TerminalScreen) => f.key(KEY.enter)],
    [
      "aborted by the agent",
      "The agent stopped this question: the form is closed.",
      (f: TerminalScreen) => f.session.abort(),
    ],
  ])("%s: the page says so, takes no more keys, and the port is freed", async (_, text, end) => {
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
    await page.keyboard.press("ArrowDown");
    expect(await listening(Number(new URL(served.server.url).port))).toBe(false);
    await page.screenshot({ path: join(OUT, "closed.png") });
    expect(problems).toEqual([]);
    await page.close();
  });

  it("in the terminal, the terminal and the page drive one component, the link in its help line", async () => {
    const form = example("single");
    const server = await openWebServer({ title: "t" });
    const terminal = openForm(form.spec, { link: server.url });
    server.serve(terminal.form.screen);
    open_.push(terminal.form);
    expect(terminal.form.render(200).join("\n")).toContain(`answer in a browser: ${server.url}`);
    const { page, problems } = await open(server.url);
    terminal.press(KEY.down);
    await until(
      () => screenText(page),
      (t) => t.includes("› 2. SQLite"),
      "the page follows the terminal's key",
    );
    await page.keyboard.press("ArrowUp");
    await until(
      async () => terminal.form.render(100).join("\n"),
      (t) => t.includes("› 1. PostgreSQL"),
      "the terminal follows the page's key",
    );
    terminal.press(KEY.enter);
    await server.close("Answered in the terminal.");
    await until(
      () => statusOf(page),
      (t) => t === "Answered in the terminal.",
      "the page says where",
    );
    expect(terminal.outcomes[0].result.answers[0]).toMatchObject({ options: [0] });
    expect(problems).toEqual([]);
    await page.close();
  });
});
