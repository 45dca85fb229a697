/**
 * A question asked with `wait: false` answered from the link on its waiting
 * line (the `web` setting): a page that connects opens it there, the line
 * says so and the open key leaves it; its answer reaches the model as the
 * terminal's does; the tab closed puts it back with what was entered, and
 * the same link opens it again; opened in the terminal, withdrawn or ended,
 * its page says so and its port is freed. Controls' events are posted as
 * the page posts them.
 */

import { request } from "node:http";
import { connect } from "node:net";
import { describe, expect, it } from "@jest/globals";
import { RESTORED_NOTICE } from "../tools/engine/run.js";
import { KEY } from "./helpers/fake-host.js";
import { until } from "./helpers/until.js";
import { asked, extension, settle } from "./helpers/waiting-extension.js";

/** A page's event stream: what it was sent, by event. */
function page(link: string) {
  const got: Array<{ event: string; data: unknown }> = [];
  let buffer = "";
  const req = request(`${link}events`, { agent: false }, (res) => {
    res.setEncoding("utf8");
    res.on("data", (chunk: string) => {
      buffer += chunk;
      for (let end = buffer.indexOf("\n\n"); end >= 0; end = buffer.indexOf("\n\n")) {
        const [event, data] = buffer.slice(0, end).split("\n");
        buffer = buffer.slice(end + 2);
        const text = data.slice("data: ".length);
        got.push({ event: event.slice("event: ".length), data: event.endsWith("tab") ? text : JSON.parse(text) });
      }
    });
  });
  req.on("error", (error) => got.push({ event: "error", data: error.message }));
  req.end();
  const tab = () => got.find((e) => e.event === "tab")?.data as string | undefined;
  return {
    got,
    /** The last view the page was sent, as its JSON text. */
    screen: () => {
      const view = got.filter((e) => e.event === "view").at(-1)?.data;
      return view === undefined ? "" : JSON.stringify(view);
    },
    /** Whether the last view shows `label` as the chosen answer. */
    chosen: (label: string) => {
      const view = got.filter((e) => e.event === "view").at(-1)?.data as
        | { body: { rows?: Array<{ label: string; chosen: boolean }> } }
        | undefined;
      return view?.body.rows?.some((r) => r.label === label && r.chosen) === true;
    },
    closed: () => got.find((e) => e.event === "closed")?.data as string | undefined,
    leave: () => req.destroy(),
    /** A control's events as the page posts them, with its own Origin. */
    act: (...events: object[]) =>
      new Promise<number>((resolve, reject) => {
        const post = request(`${link}act`, {
          method: "POST",
          agent: false,
          headers: { origin: new URL(link).origin, "content-type": "application/json" },
        });
        post.on("response", (res) => resolve(res.statusCode ?? 0));
        post.on("error", reject);
        post.end(JSON.stringify({ tab: tab(), events }));
      }),
  };
}

const listening = (link: string) =>
  new Promise<boolean>((resolve) => {
    const socket = connect(Number(new URL(link).port), "127.0.0.1");
    socket.once("connect", () => {
      socket.destroy();
      resolve(true);
    });
    socket.once("error", () => resolve(false));
  });

/** The port is free once the server has closed (a moment after the page is told). */
async function freed(link: string): Promise<boolean> {
  for (let i = 0; i < 100; i++) {
    if (!(await listening(link))) return true;
    await new Promise((r) => setTimeout(r, 20));
  }
  return false;
}

const two = {
  ...asked,
  questions: [
    ...asked.questions,
    { id: "ci", label: "CI", prompt: "Which CI?", options: [{ label: "GitHub" }, { label: "Jenkins" }] },
  ],
};

async function withWeb(args: unknown = asked) {
  const x = await extension(args, { settings: { web: true } });
  const lines = await until(x.line, (l) => l?.length === 2, "the line gives a link");
  const link =
    /^ {2}or answer ask-1 in a browser: (http:\/\/127\.0\.0\.1:\d+\/[\w-]{43}\/)$/.exec(lines![1])?.[1] ?? "";
  expect(link).not.toBe("");
  return { ...x, lines: lines!, link };
}

describe("a waiting question answered in a browser tab", () => {
  it("the page opens it and answers it; the model reads what the terminal's answer gives; the page and the port close", async () => {
    const x = await withWeb();
    expect(x.lines[0]).toMatch(
      /^\? A question waits \(0:0\d\) · Alt\+A opens ask-1: Which database\? · ask-1 times out/,
    );
    // The page says where the question is while it has it, not that the terminal still shows it.
    const html = await (await fetch(x.link)).text();
    expect(html).toContain("The question left the terminal&#39;s queue while this page has it");
    const tab = page(x.link);
    await until(tab.screen, (s) => s.includes("Which database?"), "the page shows the form");
    expect(x.line()).toEqual(["? ask-1 is open in the browser: Which database?"]);
    // The open key does not open it a second time.
    await x.open();
    expect(x.form()).toBeUndefined();
    // The tap that answers it is told so, and the page sends no more.
    expect(await tab.act({ type: "SELECT", row: 1 })).toBe(200);
    await until(
      () => x.pi.sent.length,
      (n) => n === 1,
      "the answer reaches the model",
    );
    await until(tab.closed, (t) => t !== undefined, "the page is told");
    expect(tab.closed()).toBe("Answered here.");
    expect(x.widgets.at(-1)).toBeUndefined();
    expect(await freed(x.link)).toBe(true);

    // The same key in the terminal gives the model the same message.
    const terminal = await extension();
    await terminal.open();
    terminal.form()!.handleInput("2");
    await terminal.closed();
    expect(x.pi.sent.map((s) => s.message)).toEqual(terminal.pi.sent.map((s) => s.message));
    expect(x.pi.sent[0].message.content).toBe(
      "Answer to ask-1 (question, asked with wait: false):\nDB: user selected: 2. SQLite",
    );
  });

  it("the tab closed puts it back with what was entered; the link opens it again, and the terminal after that", async () => {
    const x = await withWeb(two);
    const first = page(x.link);
    await until(first.screen, (s) => s.includes("Which database?"), "the page shows the form");
    await first.act({ type: "SELECT", row: 1 });
    await until(first.screen, (s) => s.includes("Which CI?"), "the first answer is taken");
    first.leave();
    await until(x.line, (l) => l?.[0].startsWith("? A question waits") === true, "put back");
    expect(x.line()?.[1]).toBe(`  or answer ask-1 in a browser: ${x.link}`);
    expect(x.pi.sent).toEqual([]);

    const again = page(x.link);
    await until(again.screen, (s) => s.includes(RESTORED_NOTICE), "opened again with what was entered");
    expect(again.chosen("SQLite")).toBe(true);
    // Esc in the page puts it back too; the page says how to open it again.
    await again.act({ type: "CANCEL" });
    await until(again.closed, (t) => t !== undefined, "the page is told");
    expect(again.closed()).toMatch(/^Put back: the question waits again/);

    const third = page(x.link);
    await until(
      () => third.chosen("SQLite"),
      (c) => c,
      "the link opens it once more",
    );
    third.leave();
    await until(x.line, (l) => l?.[0].startsWith("? A question waits") === true, "put back");
    const waiting = page(x.link);
    await until(
      () => waiting.chosen("SQLite"),
      (c) => c,
      "and once more",
    );
    waiting.leave();
    await until(x.line, (l) => l?.[0].startsWith("? A question waits") === true, "put back");
    await x.open();
    // The terminal's form has a link of its own (its help line's): it opens once that server listens.
    await until(x.form, (f) => f !== undefined, "the open key opens it in the terminal");
    expect(x.form()?.render(120).join("\n")).toContain(RESTORED_NOTICE);
    expect(await freed(x.link)).toBe(true);
    x.form()!.handleInput(KEY.right);
    x.form()!.handleInput("1");
    // The review screen: Enter submits.
    x.form()!.handleInput(KEY.enter);
    await x.closed();
    expect(x.pi.sent[0].message.content).toBe(
      "Answer to ask-1 (question, asked with wait: false):\nDB: user selected: 2. SQLite\nCI: user selected: 1. GitHub",
    );
  });

  it("withdrawn while open in the page, or while it waits, the page says so and the port is freed", async () => {
    const x = await withWeb(two);
    const tab = page(x.link);
    await until(tab.screen, (s) => s.includes("Which database?"), "the page shows the form");
    await x.call("withdraw_question", { id: "ask-1" });
    await until(tab.closed, (t) => t !== undefined, "the page is told");
    expect(tab.closed()).toBe("The model withdrew this question.");
    await settle();
    expect(x.widgets.at(-1)).toBeUndefined();
    expect(x.pi.sent).toEqual([]);
    expect(await freed(x.link)).toBe(true);

    const y = await withWeb();
    await y.call("withdraw_question", { id: "ask-1" });
    const late = page(y.link);
    await new Promise((r) => setTimeout(r, 100));
    expect(late.screen()).toBe("");
    expect(late.got.map((e) => e.event)).toEqual(["error"]);
  });

  it("the session ending while it is open in the page closes the page, saying so", async () => {
    const x = await withWeb();
    const tab = page(x.link);
    await until(tab.screen, (s) => s.includes("Which database?"), "the page shows the form");
    await x.pi.fire("session_shutdown", { type: "session_shutdown" }, x.ctx);
    await until(tab.closed, (t) => t !== undefined, "the page is told");
    expect(tab.closed()).toBe("The session ended before this question was answered.");
    expect(await freed(x.link)).toBe(true);
    expect(x.pi.sent).toEqual([]);
  });
});
