/**
 * What a page posts to a form's server is checked before use: a body of the
 * wrong shape, sent with the form's token and the page's own Origin, gets
 * 400 and the reason; nothing it holds is converted by its own methods, no
 * exception leaves the server (Pi would exit), and the form stays open and
 * answers the page's next events. A move drawn on a view the form has left
 * does nothing and says why.
 */
import { request } from "node:http";
import { afterEach, beforeEach, describe, expect, it } from "@jest/globals";
import { FormSession } from "../machines/session.js";
import { normalizeForm } from "../machines/spec.js";
import { MAX_EVENTS } from "../renderers/web/bodies.js";
import { PageScreen } from "../renderers/web/page-screen.js";
import { openWebServer } from "../renderers/web/server.js";

const spec = normalizeForm({ questions: [{ prompt: "Which database?", options: [{ label: "A" }, { label: "B" }] }] });

/** A POST with the page's own Origin. */
function post(url: URL, name: string, body: string): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = request(new URL(name, url), {
      method: "POST",
      agent: false,
      headers: { origin: url.origin, "content-type": "application/json" },
    });
    req.on("response", (res) => {
      let text = "";
      res.setEncoding("utf8");
      res.on("data", (chunk: string) => (text += chunk));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, text }));
    });
    req.on("error", reject);
    req.end(body);
  });
}

/** A page's event stream, until its tab id comes. */
function tabOf(url: URL): Promise<{ tab: string; leave(): void }> {
  return new Promise((resolve, reject) => {
    const req = request(new URL("events", url), { agent: false }, (res) => {
      res.setEncoding("utf8");
      let seen = "";
      res.on("data", (chunk: string) => {
        seen += chunk;
        const tab = /event: tab\ndata: (\S+)\n/.exec(seen)?.[1];
        if (tab) resolve({ tab, leave: () => req.destroy() });
      });
    });
    req.on("error", reject);
    req.end();
  });
}

let thrown: unknown[] = [];
const heard = (error: unknown) => thrown.push(error);
beforeEach(() => {
  thrown = [];
  process.on("uncaughtException", heard);
});
afterEach(() => {
  process.off("uncaughtException", heard);
});

async function served() {
  const session = new FormSession({ spec });
  const server = await openWebServer({ title: "t" });
  server.serve(new PageScreen(session));
  const url = new URL(server.url);
  const page = await tabOf(url);
  return { session, server, url, page };
}

describe("a page's body is checked before use", () => {
  const act = (tab: string, events: unknown[], version?: number) =>
    JSON.stringify({ tab, events, ...(version === undefined ? {} : { version }) });
  it.each([
    [
      '{"tab":{"toString":0},"events":[]}',
      /^"tab" must be the page's tab id \(a string of 1 to 64 characters\); got an object\.$/,
    ],
    ['{"tab":[],"events":[{}]}', /^"tab" must be .*got an array\.$/],
    [`{"tab":"${"t".repeat(65)}","events":[]}`, /^"tab" must be .*got 65 characters\.$/],
    ['{"tab":"TAB","events":"2"}', /^"events" must be a list of 1 to 1024 events; got a string\.$/],
    ['{"tab":"TAB","events":[]}', /^"events" must be a list of 1 to 1024 events; got 0 items\.$/],
    [`{"tab":"TAB","events":${JSON.stringify(Array(MAX_EVENTS + 1).fill({ type: "CONFIRM" }))}}`, /got 1025 items\.$/],
    ['{"tab":"TAB","events":[{}]}', /^event 1 has no type a page sends \(MOVE, .*\); got nothing\.$/],
    ['{"tab":"TAB","events":[{"type":"ABORT"}]}', /^event 1 has no type a page sends .*; got "ABORT"\.$/],
    ['{"tab":"TAB","events":[{"type":"xstate.after.cooldown.form.waiting"}]}', /got "xstate\.after/],
    [
      '{"tab":"TAB","events":[{"type":"SELECT","row":{"valueOf":null}}]}',
      /^event 1 \(SELECT\) needs "row", a whole number from 0 to 1000000; got an object\.$/,
    ],
    ['{"tab":"TAB","events":[{"type":"MOVE","delta":2.5}]}', /^event 1 \(MOVE\) needs "delta", .*got 2\.5\.$/],
    [
      '{"tab":"TAB","events":[{"type":"TYPE","text":{"toString":"x"}}]}',
      /^event 1 \(TYPE\) needs "text", a string; got an object\.$/,
    ],
    [
      '{"tab":"TAB","events":[{"type":"CONFIRM","row":1}]}',
      /^event 1 \(CONFIRM\) has a field it never carries: "row"\.$/,
    ],
    [
      '{"tab":"TAB","events":[{"type":"CONFIRM"}],"version":"1"}',
      /^"version" must be the view's number; got a string\.$/,
    ],
    [`${"[".repeat(100_000)}${"]".repeat(100_000)}`, /^The body must be a JSON object; got an array\.$/],
    [
      `{"a":${'{"a":'.repeat(20_000)}1${"}".repeat(20_001)}`,
      /^The body has a field a page never sends \("a"\): tab, version, events only\.$/,
    ],
    ['{"__proto__":{"tab":"TAB","events":[]}}', /^The body has a field a page never sends \("__proto__"\)/],
    ["null", /^The body must be a JSON object; got null\.$/],
    ["{", /^The body is not JSON\.$/],
  ])("POST act %#: 400 with the reason; Pi stays up and the form answers after", async (body, reason) => {
    const { session, server, url, page } = await served();
    try {
      const answer = await post(url, "act", body.replaceAll("TAB", page.tab));
      expect(answer.status).toBe(400);
      expect(answer.text).toMatch(reason);
      // Some of these threw only after a turn of the event loop: give it one.
      await new Promise((r) => setImmediate(r));
      expect(thrown).toEqual([]);
      expect(session.closed).toBe(false);
      // The form is still the page's: the second option chosen answers it.
      const answered = await post(url, "act", act(page.tab, [{ type: "SELECT", row: 1 }]));
      expect(answered).toEqual({ status: 200, text: '{"closed":true}' });
      expect((await session.outcome).result.answers[0]).toMatchObject({ options: [1] });
    } finally {
      page.leave();
      session.abort();
      await server.close("closed");
    }
  });

  it("an event the form does not take says why; a move drawn on an old view does nothing; an unknown tab is 400", async () => {
    const { session, server, url, page } = await served();
    try {
      expect(await post(url, "act", act(page.tab, [{ type: "DECLINE" }]))).toEqual({
        status: 200,
        text: expect.stringMatching(/^\{"why":".+","version":\d+\}$/),
      });
      const screen = new PageScreen(session);
      const version = screen.version;
      expect(await post(url, "act", act(page.tab, [{ type: "MOVE", delta: 1 }], version))).toEqual({
        status: 200,
        text: JSON.stringify({ version: screen.version }),
      });
      expect(session.snapshot.context.cursors[0]).toBe(1);
      // Drawn before that move: it would land elsewhere, so it is refused and says so.
      const stale = await post(url, "act", act(page.tab, [{ type: "MOVE", delta: 1 }], version));
      expect(JSON.parse(stale.text).why).toMatch(/changed meanwhile/);
      expect(session.snapshot.context.cursors[0]).toBe(1);
      expect(await post(url, "act", act("elsewhere", [{ type: "CONFIRM" }]))).toEqual({
        status: 400,
        text: "Unknown tab.",
      });
      expect(session.closed).toBe(false);
    } finally {
      page.leave();
      session.abort();
      await server.close("closed");
    }
  });

  it("a form whose view cannot be made is closed with the error; nothing leaves the server", async () => {
    const session = new FormSession({ spec });
    const server = await openWebServer({ title: "t" });
    const screen = new PageScreen(session);
    // The page's views are made until `broken`, then throw: the next is made outside any request.
    let broken = false;
    const view = screen.view.bind(screen);
    screen.view = () => {
      if (broken) throw new Error("cannot draw");
      return view();
    };
    server.serve(screen);
    const url = new URL(server.url);
    const page = await tabOf(url);
    try {
      broken = true;
      expect(
        (await post(url, "act", JSON.stringify({ tab: page.tab, events: [{ type: "MOVE", delta: 1 }] }))).status,
      ).toBe(200);
      const outcome = await session.outcome;
      await new Promise((r) => setImmediate(r));
      expect(thrown).toEqual([]);
      expect(outcome.error).toBe("cannot draw");
      expect(outcome.result.cancelled).toBe(true);
    } finally {
      page.leave();
      await server.close("closed");
    }
  });
});
