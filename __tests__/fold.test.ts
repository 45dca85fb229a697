/**
 * The fold key: Alt+H folds an open form to one line, so the transcript
 * above it can be read, and the same key opens it again with every answer,
 * the highlight and an open editor's text where they were.
 */
import { describe, expect, it } from "@jest/globals";
import { normalizeForm } from "../machines/spec.js";
import { FOLD_KEY } from "../renderers/terminal/keymap.js";
import { KEY, openForm } from "./helpers/fake-host.js";

const ALT_H = "\x1bh";

const spec = normalizeForm({
  title: "Service setup",
  questions: [
    { id: "db", label: "DB", prompt: "Which database?", options: [{ label: "PostgreSQL" }, { label: "SQLite" }] },
    {
      id: "extras",
      label: "Extras",
      prompt: "Which extras?",
      multiple: true,
      options: [{ label: "Metrics" }, { label: "Tracing" }, { label: "Flags" }],
    },
  ],
});

describe("folding a form", () => {
  it("is Alt+H, a key Pi binds to nothing", () => {
    expect(FOLD_KEY).toBe("alt+h");
  });

  it("folds to one line and opens again with the answers and the highlight where they were", () => {
    const { form, press, results } = openForm(spec);
    press("2");
    press(KEY.down, KEY.down, KEY.space);
    const before = form.render(80);
    expect(before.join("\n")).toContain("Alt+H fold");
    press(ALT_H);
    const folded = form.render(80);
    expect(folded).toHaveLength(1);
    expect(folded[0]).toContain("▸ Alt+H opens the form again · 2/2 answered · Service setup");
    // Keys of the form do nothing while it is folded.
    press(KEY.enter, KEY.down, "1");
    expect(form.render(80)).toEqual(folded);
    press(ALT_H);
    expect(form.render(80)).toEqual(before);
    expect(form.session.snapshot.context.cursors).toEqual([1, 2]);
    expect(form.session.snapshot.context.picks[1].options).toEqual([2]);
    press(KEY.enter, KEY.enter);
    expect(results).toHaveLength(1);
    expect(results[0].answers.map((a) => a.options)).toEqual([[1], [2]]);
    form.dispose();
  });

  it("keeps an open editor's text and the review screen", () => {
    const { form, press } = openForm(spec);
    press("3");
    expect(form.session.position).toMatchObject({ kind: "question", mode: "typing" });
    for (const ch of "Cassandra") press(ch);
    press(ALT_H);
    expect(form.session.position.kind).toBe("folded");
    press(ALT_H);
    expect(form.session.position).toMatchObject({ kind: "question", q: 0, mode: "typing" });
    expect(form.render(80).join("\n")).toContain("Cassandra");
    press(KEY.enter);
    press("1", KEY.enter);
    expect(form.session.position).toMatchObject({ kind: "review" });
    press(ALT_H, ALT_H);
    expect(form.session.position).toMatchObject({ kind: "review", mode: "reviewing" });
    form.dispose();
  });

  it("stops a timeout: folding is a key like any other", () => {
    const timed = normalizeForm({
      ...spec,
      timeoutMs: 30_000,
      questions: [{ prompt: "p", options: [{ label: "A" }] }],
    });
    const { form, press } = openForm(timed);
    press(ALT_H);
    expect(form.session.snapshot.context.clock).toBe("stopped");
    expect(form.session.position.kind).toBe("folded");
    form.dispose();
  });
});
