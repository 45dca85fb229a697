/**
 * Open forms on Pi's event bus: an answer offered by another extension is the
 * chart's own events, so its rules and conditions refuse it with their reason
 * and leave the form as it was; the first answer wins; the model reads what a
 * terminal answer gives, and where it was answered.
 */

import { getKeybindings } from "@earendil-works/pi-tui";
import { describe, expect, it } from "@jest/globals";
import { loadFormFile } from "../bin/form-file.js";
import { offerTo } from "../machines/offer.js";
import { FormSession, type Step } from "../machines/session.js";
import { plainTheme } from "../renderers/theme.js";
import { FORM_EVENTS, type FormClosed, type FormOpened, type OfferReply } from "../tools/form-events.js";
import { createFormchart } from "../tools/index.js";
import { fakeHost } from "./helpers/fake-host.js";
import { fakePi } from "./helpers/fake-pi.js";
import { tempAgentDir } from "./helpers/temp.js";
import { extension } from "./helpers/waiting-extension.js";

const why = (step: Step) => (step.taken ? undefined : step.why);

function session(name: string): FormSession {
  const loaded = loadFormFile(name);
  if (!loaded.ok) throw new Error(loaded.message);
  return new FormSession({ spec: loaded.form.spec });
}

describe("an offer against the form's chart", () => {
  it("answers with the options' values and labels, a typed answer and a condition's branch", () => {
    const form = session("branching");
    expect(offerTo(form, { answers: { size: "5", split: "Yes, by layer" } })).toEqual({
      taken: true,
    });
    expect(form.settled?.result.cancelled).toBe(false);
    expect(form.settled?.result.answers.filter((a) => a.answered).map((a) => [a.id, a.options])).toEqual([
      ["size", [4]],
      ["split", [0]],
    ]);
    const demo = session("demo");
    expect(offerTo(demo, { answers: { scope: "Mine", checks: ["Lint", "Fuzz"], name: "refactor/layers" } }).taken).toBe(
      true,
    );
    expect(demo.settled?.result.answers[1]).toMatchObject({ options: [2], custom: ["Fuzz"] });
  });

  it("refuses a broken rule with the rule's words and leaves the form as it was", () => {
    const form = session("input-number");
    const before = form.snapshot;
    expect(offerTo(form, { answers: { q1: "abc" } })).toEqual({ taken: false, why: "q1: Must be a number." });
    expect(form.snapshot).toBe(before);
    expect(form.closed).toBe(false);
    const signup = session("form-signup");
    const opened = signup.snapshot;
    const answers = { email: "a@b.co", seats: "3", region: "eu-west", features: ["previews", "rollbacks", "canary"] };
    expect(why(offerTo(signup, { answers }))).toMatch(/^features: 3 are ticked and this question takes 1 to 2/);
    expect(signup.snapshot).toBe(opened);
  });

  it("refuses answers a condition does not ask for, an unknown option and an unknown question", () => {
    expect(offerTo(session("branching"), { answers: { size: "5", team: "Platform", review: "Security" } })).toEqual({
      taken: false,
      why: "Not submitted yet: answer Split first.",
    });
    expect(
      why(
        offerTo(session("branching"), {
          answers: { size: "2", team: "Platform", split: "Yes, by layer", review: "Security" },
        }),
      ),
    ).toBe("split is not asked with these answers: it is shown only when size gte 4");
    expect(why(offerTo(session("single"), { answers: { q1: "Oracle" } }))).toBe(
      `q1: "Oracle" is not one of its options (PostgreSQL, SQLite), and it takes no answer of one's own`,
    );
    expect(why(offerTo(session("single"), { answers: { nope: "x" } }))).toBe("no question nope (its questions: q1)");
  });

  it("takes the first of two offers; the second hears the form is closed", () => {
    const form = session("single");
    expect(offerTo(form, { answers: { q1: "SQLite" } }).taken).toBe(true);
    expect(offerTo(form, { answers: { q1: "PostgreSQL" } })).toEqual({ taken: false, why: "the form is closed" });
    expect(form.settled?.result.answers[0].options).toEqual([1]);
  });
});

/** The engine loads with the first form: until its component is up. */
async function shown(host: Awaited<ReturnType<typeof extension>>) {
  for (let i = 0; i < 200 && !host.form(); i++) await new Promise((resolve) => setTimeout(resolve, 10));
}

describe("open forms on Pi's event bus", () => {
  const offer = (host: Awaited<ReturnType<typeof extension>>, payload: object): OfferReply[] => {
    const replies: OfferReply[] = [];
    (host.pi.api as { events: { emit(channel: string, data: unknown): void } }).events.emit(FORM_EVENTS.offer, {
      from: "chat-bridge",
      ...payload,
      reply: (r: OfferReply) => replies.push(r),
    });
    return replies;
  };
  const one = {
    questions: [
      {
        id: "db",
        prompt: "Which database? <b>\x1b[31m",
        options: [{ label: "PostgreSQL" }, { label: "SQLite" }],
        allowOther: false,
      },
    ],
  };

  it("says a form opened, cleaned; answers it from another extension; the model reads where", async () => {
    const host = await extension(null);
    const call = host.call("question", one) as Promise<{
      content: { text: string }[];
      details: Record<string, unknown>;
    }>;
    await shown(host);
    const opened = host.pi.emitted.find((e) => e.name === FORM_EVENTS.opened)?.data as FormOpened;
    expect(opened).toMatchObject({ tool: "question", where: "terminal", questions: [{ id: "db", kind: "single" }] });
    expect(opened.questions[0].prompt).not.toMatch(/\x1b/);
    expect(offer(host, { id: opened.id, answers: { db: "Oracle" } })[0]).toMatchObject({
      ok: false,
      reason: "refused",
    });
    expect(offer(host, { id: opened.id, answers: { db: "SQLite" } })).toEqual([{ ok: true, id: opened.id }]);
    const result = await call;
    expect(result.content[0].text).toMatch(/SQLite/);
    expect(result.details).toMatchObject({ answeredIn: "chat-bridge", answers: [{ label: "SQLite" }] });
    expect(host.pi.emitted.find((e) => e.name === FORM_EVENTS.closed)?.data).toEqual({
      id: opened.id,
      tool: "question",
      outcome: "answered",
      answeredIn: "chat-bridge",
    });
    expect(offer(host, { id: opened.id, answers: { db: "SQLite" } })[0]).toMatchObject({
      ok: false,
      reason: "too_late",
    });
    expect(offer(host, { id: "form-99", answers: { db: "SQLite" } })[0]).toMatchObject({ reason: "not_open" });
  });

  it("a form answered as soon as it is told (a bridge offering from its opened listener) closes without waiting for a key", async () => {
    const host = await extension(null);
    const events = (host.pi.api as { events: { on(channel: string, listener: (data: unknown) => void): void } }).events;
    const replies: OfferReply[] = [];
    events.on(FORM_EVENTS.opened, (data) => {
      const { id } = data as FormOpened;
      replies.push(...offer(host, { id, answers: { db: "SQLite" } }));
    });
    const call = host.call("question", one) as Promise<{ details: Record<string, unknown> }>;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const late = new Promise<string>((resolve) => (timer = setTimeout(() => resolve("still open"), 1000)));
    const first = await Promise.race([call.then((r) => r.details), late]);
    clearTimeout(timer);
    expect(first).toMatchObject({
      answeredIn: "chat-bridge",
      answers: [{ label: "SQLite" }],
    });
    expect(replies).toEqual([{ ok: true, id: "form-1" }]);
  });

  it("a form answered in the terminal while an offer is on its way: the offer comes too late", async () => {
    const host = await extension(null);
    const call = host.call("question", one) as Promise<{ details: Record<string, unknown> }>;
    await shown(host);
    const { id } = host.pi.emitted.find((e) => e.name === FORM_EVENTS.opened)!.data as FormOpened;
    host.form()!.handleInput("1");
    expect(offer(host, { id, answers: { db: "SQLite" } })[0]).toMatchObject({ ok: false, reason: "too_late" });
    expect((await call).details).toMatchObject({ answers: [{ label: "PostgreSQL" }] });
    expect((await call).details.answeredIn).toBeUndefined();
  });

  it("answers a question that waits, says the count, and the transcript says where", async () => {
    const host = await extension();
    const counts = () => host.pi.emitted.filter((e) => e.name === FORM_EVENTS.waiting).map((e) => e.data);
    expect(counts()).toEqual([{ count: 1 }]);
    expect(offer(host, { id: "ask-1", answers: { db: ["SQLite", "Nope"] } })).toEqual([
      { ok: false, id: "ask-1", reason: "refused", why: "db takes one answer, not 2" },
    ]);
    expect(offer(host, { id: "ask-1", answers: { db: "SQLite" } })).toEqual([{ ok: true, id: "ask-1" }]);
    expect(counts()).toEqual([{ count: 1 }, { count: 0 }]);
    const sent = host.pi.sent.at(-1)!.message;
    expect(sent.content).toMatch(/SQLite/);
    expect(sent.details).toMatchObject({ id: "ask-1", answeredIn: "chat-bridge" });
    expect(offer(host, { id: "ask-1", decline: true })[0]).toMatchObject({ reason: "too_late" });
  });

  it("a question that waits, answered from the listener that hears it open, is recorded asked before ended", async () => {
    const host = await extension(null);
    const bus = (
      host.pi.api as { events: { on(c: string, h: (d: unknown) => void): void; emit(c: string, d: unknown): void } }
    ).events;
    bus.on(FORM_EVENTS.opened, (data) =>
      bus.emit(FORM_EVENTS.offer, { id: (data as FormOpened).id, from: "chat-bridge", answers: { db: "SQLite" } }),
    );
    await host.call("question", { ...one, wait: false });
    const records = host.pi.entries.map((e) => e.data as { id: string; ended?: string });
    expect(records.map((r) => (r.ended ? `ended ${r.ended}` : "asked"))).toEqual(["asked", "ended answered"]);
    expect(host.pi.sent.at(-1)!.message.details).toMatchObject({ id: "ask-1", answeredIn: "chat-bridge" });
  });

  it("a refused offer for a question that waits leaves it the person's: their answer names no extension", async () => {
    const host = await extension();
    expect(offer(host, { id: "ask-1", answers: { db: ["SQLite", "Nope"] } })[0]).toMatchObject({
      ok: false,
      reason: "refused",
    });
    await host.open();
    host.form()!.handleInput("2");
    await host.closed();
    const sent = host.pi.sent.at(-1)!.message;
    expect(sent.details).toMatchObject({ id: "ask-1" });
    expect(sent.details).not.toHaveProperty("answeredIn");
    const closed = host.pi.emitted.filter((e) => e.name === FORM_EVENTS.closed).at(-1)!.data as FormClosed;
    expect(closed.answeredIn).not.toBe("chat-bridge");
  });

  it("a form whose screen failed to show is no longer open: an offer for it comes too late", async () => {
    const pi = fakePi();
    createFormchart({ agentDir: tempAgentDir() })(pi.api);
    const ctx = {
      hasUI: true,
      mode: "tui",
      sessionManager: { getBranch: () => [] },
      ui: {
        notify() {},
        custom: (factory: (...args: unknown[]) => unknown) => {
          factory(fakeHost(), plainTheme, getKeybindings(), () => {});
          throw new Error("no screen");
        },
      },
    };
    await expect(pi.tools.get("question")!.execute("c", one, undefined, undefined, ctx)).rejects.toThrow("no screen");
    const { id } = pi.emitted.find((e) => e.name === FORM_EVENTS.opened)!.data as FormOpened;
    expect(pi.emitted.find((e) => e.name === FORM_EVENTS.closed)?.data).toMatchObject({ id, outcome: "cancelled" });
    const replies: OfferReply[] = [];
    (pi.api as { events: { emit(channel: string, data: unknown): void } }).events.emit(FORM_EVENTS.offer, {
      id,
      from: "chat-bridge",
      answers: { db: "SQLite" },
      reply: (r: OfferReply) => replies.push(r),
    });
    expect(replies).toEqual([expect.objectContaining({ ok: false, reason: "too_late" })]);
  });

  it("lists, puts first and refuses questions that wait", async () => {
    const host = await extension();
    await host.call("question", { ...one, wait: false });
    const run = async (args: string) => {
      await host.pi.commands.get("formchart")!.handler(args, host.ctx as never);
      return host.notices.at(-1);
    };
    expect(await run("waiting")).toMatch(/ask-1 .*Which database\?.*waited 0:0\d, times out in 0:\d\d[\s\S]*ask-2/);
    expect(await run("waiting first ask-2")).toBe("ask-2 comes first.");
    expect(await run("waiting refuse ask-1")).toBe("Refused ask-1: the model was told.");
    expect(await run("waiting refuse ask-1")).toMatch(/ask-1 is not waiting/);
    expect(await run("waiting")).not.toMatch(/ask-1/);
  });
});
