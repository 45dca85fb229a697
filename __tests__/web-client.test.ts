/**
 * A client of its own, written from docs/web.md's "A client of its own" and
 * the view's types alone (no page, no helper of the page's): it reads the
 * event stream with `fetch`, answers each view with the events its controls
 * carry, tries typed answers against the view's live check, and submits on
 * the review. The model reads the answers the client gave, and the stream
 * and the answers have the documented shapes.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "@jest/globals";
import { loadFormFile } from "../bin/form-file.js";
import { FormSession } from "../machines/session.js";
import type { ActAnswer, PageView, Send } from "../renderers/web/client/view.js";
import { PageScreen } from "../renderers/web/page-screen.js";
import { openWebServer } from "../renderers/web/server.js";
import { PROJECT_ROOT } from "./helpers/root.js";

const docs = readFileSync(join(PROJECT_ROOT, "docs", "web.md"), "utf8");
const section = docs.slice(docs.indexOf("## A client of its own"), docs.indexOf("## How it works"));

/** The events of a stream as they arrive: `event:` and `data:` lines, a blank line between. */
async function* serverEvents(response: Response): AsyncGenerator<{ event: string; data: string }> {
  const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = "";
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return;
    buffer += value;
    for (let end = buffer.indexOf("\n\n"); end >= 0; end = buffer.indexOf("\n\n")) {
      const fields = Object.fromEntries(
        buffer
          .slice(0, end)
          .split("\n")
          .map((line) => [line.slice(0, line.indexOf(":")), line.slice(line.indexOf(":") + 2)]),
      );
      buffer = buffer.slice(end + 2);
      yield { event: fields.event, data: fields.data };
    }
  }
}

const opened: FormSession[] = [];
afterEach(() => {
  for (const session of opened.splice(0)) session.abort();
});

async function served(name: string) {
  const loaded = loadFormFile(name);
  if (!loaded.ok) throw new Error(loaded.message);
  const spec = { ...loaded.form.spec, waitMs: undefined };
  const session = new FormSession({ spec });
  opened.push(session);
  const server = await openWebServer({ title: spec.title ?? "form" });
  server.serve(new PageScreen(session));
  void session.outcome.then(() => server.close("Closed where it was served."));
  return { server, session, form: loaded.form };
}

/** Typed answers a person might try, in turn, until the view's check passes. */
const TRIES = ["not an address", "ada@example.org"];

describe("a client of its own, as docs/web.md describes it", () => {
  it("the docs name the two requests, the three events and the typed answer's two events", () => {
    for (const word of ["GET <link>events", "POST <link>act", "`tab`", "`view`", "`closed`", "TYPE", "SUBMIT_TEXT"])
      expect(section).toContain(word);
  });

  it("answers ask_form's sign-up with fetch alone: each view's own events, typed answers checked live, then Submit", async () => {
    const { server, session, form } = await served("form-signup");
    const stream = serverEvents(await fetch(`${server.url}events`));
    const origin = new URL(server.url).origin;
    let tab = "";
    const answers: ActAnswer[] = [];
    const act = async (version: number, events: Send) => {
      const response = await fetch(`${server.url}act`, {
        method: "POST",
        headers: { origin, "content-type": "application/json" },
        body: JSON.stringify({ tab, version, events }),
      });
      expect(response.status).toBe(200);
      answers.push((await response.json()) as ActAnswer);
    };
    const seen: string[] = [];
    let closed: unknown;
    let tries = 0;
    for await (const { event, data } of stream) {
      seen.push(event);
      if (event === "tab") tab = data;
      if (event === "closed") closed = JSON.parse(data);
      if (event !== "view") continue;
      const view = JSON.parse(data) as PageView;
      const body = view.body;
      if (body.kind === "review") {
        await act(view.version, body.buttons.find((b) => b.label === "Submit")!.send);
      } else if (body.kind === "question" && body.editor) {
        // A text tried is checked as it is typed; it is saved once the check passes.
        if (body.editor.text !== "" && body.editor.problems.length === 0)
          await act(view.version, [{ type: "SUBMIT_TEXT", text: body.editor.text }]);
        else await act(view.version, [{ type: "TYPE", text: TRIES[tries++ % TRIES.length] }]);
      } else if (body.kind === "question" && body.choice === "single") {
        await act(view.version, body.rows[0].select);
      } else if (body.kind === "question" && body.choice === "multi") {
        if (!body.rows.some((r) => r.chosen)) await act(view.version, body.rows[1].select);
        else await act(view.version, body.buttons.find((b) => b.primary)!.send);
      }
    }
    expect(tries).toBe(2);
    expect(seen[0]).toBe("tab");
    expect(seen.at(-1)).toBe("closed");
    expect(closed).toBe("Answered here.");
    expect(answers.at(-1)).toEqual({ closed: true });
    for (const answer of answers.slice(0, -1)) expect(answer).toEqual({ version: expect.any(Number) });
    const outcome = await session.outcome;
    // The email's first try failed its check and was replaced; the seats' default passed as it stood.
    expect(form.answer(outcome.result).text).toBe(
      [
        "User submitted the form:",
        'email: "ada@example.org"',
        "seats: 5",
        "telemetry: true",
        'region: "eu-west"',
        'features: ["rollbacks"]',
      ].join("\n"),
    );
  });
});
