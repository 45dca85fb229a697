/**
 * What a page posts to a form's server is checked before use: a body of the
 * wrong shape, sent with the form's token and the page's own Origin, gets
 * 400 and the reason; nothing it holds is converted by its own methods, no
 * exception leaves the server (Pi would exit), and the form stays open and
 * answers the page's next keys.
 */
import { request } from "node:http";
import { afterEach, beforeEach, describe, expect, it } from "@jest/globals";
import { FormSession } from "../machines/session.js";
import { normalizeForm } from "../machines/spec.js";
import { MAX_KEYS } from "../renderers/web/bodies.js";
import { pageScreen } from "../renderers/web/page-screen.js";
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
    const req = request(new URL("events?cols=80&rows=24", url), { agent: false }, (res) => {
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
  server.serve(pageScreen(session));
  const url = new URL(server.url);
  const page = await tabOf(url);
  return { session, server, url, page };
}

describe("a page's body is checked before use", () => {
  it.each([
    [
      "input",
      '{"tab":{"toString":0}}',
      /^"tab" must be the page's tab id \(a string of 1 to 64 characters\); got an object\.$/,
    ],
    ["size", '{"tab":{"toString":0},"cols":80,"rows":24}', /^"tab" must be the page's tab id .*got an object\.$/],
    ["input", '{"tab":[],"keys":[{}]}', /^"tab" must be .*got an array\.$/],
    ["input", `{"tab":"${"t".repeat(65)}","keys":[]}`, /^"tab" must be .*got 65 characters\.$/],
    ["input", '{"tab":"TAB","keys":[{}]}', /^"keys" must hold strings \(the keys' bytes\); item 1 is an object\.$/],
    ["input", '{"tab":"TAB","keys":"2"}', /^"keys" must be a list of at most 1024 keys; got a string\.$/],
    ["input", `{"tab":"TAB","keys":${JSON.stringify(Array(MAX_KEYS + 1).fill("x"))}}`, /got 1025 items\.$/],
    [
      "size",
      '{"tab":"TAB","cols":{"valueOf":null},"rows":24}',
      /^"cols" must be a whole number from 1 to 10000; got an object\.$/,
    ],
    ["size", '{"tab":"TAB","cols":80,"rows":2.5}', /^"rows" must be a whole number .*got 2\.5\.$/],
    ["size", '{"tab":"TAB","cols":80}', /^"rows" must be a whole number .*got nothing\.$/],
    ["input", `${"[".repeat(100_000)}${"]".repeat(100_000)}`, /^The body must be a JSON object; got an array\.$/],
    [
      "input",
      `{"a":${'{"a":'.repeat(20_000)}1${"}".repeat(20_001)}`,
      /^The body has a field a page never sends \("a"\): tab, keys only\.$/,
    ],
    ["input", '{"__proto__":{"tab":"TAB","keys":["2"]}}', /^The body has a field a page never sends \("__proto__"\)/],
    ["input", "null", /^The body must be a JSON object; got null\.$/],
    ["input", "{", /^The body is not JSON\.$/],
  ])("POST %s %#: 400 with the reason; Pi stays up and the form answers after", async (name, body, reason) => {
    const { session, server, url, page } = await served();
    try {
      const answer = await post(url, name, body.replaceAll("TAB", page.tab));
      expect(answer.status).toBe(400);
      expect(answer.text).toMatch(reason);
      // Some of these threw only after a turn of the event loop: give it one.
      await new Promise((r) => setImmediate(r));
      expect(thrown).toEqual([]);
      expect(session.closed).toBe(false);
      // The form is still the page's: a size and a key are taken, the key answers it.
      expect((await post(url, "size", JSON.stringify({ tab: page.tab, cols: 90, rows: 30 }))).status).toBe(204);
      const answered = await post(url, "input", JSON.stringify({ tab: page.tab, keys: ["2"] }));
      expect(answered).toEqual({ status: 200, text: '{"closed":true}' });
      expect((await session.outcome).result.answers[0]).toMatchObject({ options: [1] });
    } finally {
      page.leave();
      session.abort();
      await server.close("closed");
    }
  });

  it("a key that does nothing is answered 204, and an unknown tab 400 with the reason", async () => {
    const { session, server, url, page } = await served();
    try {
      expect((await post(url, "input", JSON.stringify({ tab: page.tab, keys: ["\x1b[B"] }))).status).toBe(204);
      expect(await post(url, "input", JSON.stringify({ tab: "elsewhere", keys: ["2"] }))).toEqual({
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

  it("a form that cannot be drawn for the page is closed with the error; nothing leaves the server", async () => {
    const session = new FormSession({ spec });
    const server = await openWebServer({ title: "t" });
    const screen = pageScreen(session);
    // The page's frames draw until `broken`, then throw: the next frame is drawn outside any request.
    let broken = false;
    const sized = screen.sized.bind(screen);
    screen.sized = () => {
      const real = sized();
      return {
        ...real,
        render: (cols, rows) => {
          if (broken) throw new Error("cannot draw");
          return real.render(cols, rows);
        },
      };
    };
    server.serve(screen);
    const url = new URL(server.url);
    const page = await tabOf(url);
    try {
      broken = true;
      expect((await post(url, "input", JSON.stringify({ tab: page.tab, keys: ["\x1b[B"] }))).status).toBe(204);
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
