/**
 * The engine's checks a schema form relies on, driven with key bytes on the
 * real component: numbers in range and whole numbers, string formats,
 * multi-select counts (Enter refused until the count fits), answers filled in
 * from defaults, and the explicit Decline of the review tab (in the terminal
 * and through dialogs).
 */

import { visibleWidth } from "@earendil-works/pi-tui";
import { describe, expect, it } from "@jest/globals";
import type { FormResult } from "../machines/context.js";
import { FormSession } from "../machines/session.js";
import { type FormSpec, normalizeForm, type QuestionInput } from "../machines/spec.js";
import { countHint, selectionAccepted, type TextRule, textProblems } from "../machines/text-rules.js";
import { runDialogs } from "../renderers/terminal/dialogs.js";
import { createFormchart } from "../tools/index.js";
import { KEY, openForm } from "./helpers/fake-host.js";
import { fakePi, fakeUiContext, rpcContext } from "./helpers/fake-pi.js";
import { tempAgentDir } from "./helpers/temp.js";

const rule = (r: Partial<TextRule>): TextRule => ({ type: "text", required: true, ...r });

describe("typed answers: numbers and formats", () => {
  it.each<[string, Partial<TextRule>, string, string[]]>([
    ["in range", { type: "number", minimum: 1, maximum: 10 }, "10", []],
    ["below the minimum", { type: "number", minimum: 1 }, "0.5", ["Must be at least 1."]],
    ["above the maximum", { type: "number", maximum: 10 }, "1e2", ["Must be at most 10."]],
    ["a whole number", { type: "number", integer: true }, "3.0", []],
    [
      "not a whole number",
      { type: "number", integer: true, minimum: 5 },
      "2.5",
      ["Must be a whole number.", "Must be at least 5."],
    ],
    ["too large to be a number", { type: "number" }, "1e400", ["Must be a number."]],
    ["no hexadecimal", { type: "number" }, "0x10", ["Must be a number."]],
    ["a uri", { format: "uri" }, "https://example.com/x", []],
    [
      "a bare host is not a uri",
      { format: "uri" },
      "example.com",
      ["Must be an absolute URI like https://example.com/page."],
    ],
    ["a date-time with a zone", { format: "date-time" }, "2024-02-29T12:00:00+01:00", []],
    [
      "a date-time without a zone",
      { format: "date-time" },
      "2024-02-29T12:00:00",
      ["Must be a date and time with a time zone, like 2025-11-25T14:30:00Z."],
    ],
    [
      "a date format: no 29 February 2023",
      { format: "date" },
      "2023-02-29",
      ["Must be a calendar date as YYYY-MM-DD."],
    ],
    ["an email format", { format: "email" }, "ada@example.org", []],
    [
      "lengths and a format together",
      { format: "email", maxLength: 5 },
      "ada@example.org",
      ["At most 5 characters (now 15)."],
    ],
  ])("%s", (_name, r, text, problems) => {
    expect(textProblems(rule(r), text)).toEqual(problems);
  });

  it("a format check stays fast on a pasted page", () => {
    const started = Date.now();
    for (const format of ["email", "uri", "date-time"] as const)
      expect(textProblems(rule({ format }), `a@${"a-".repeat(50_000)}!`)).toHaveLength(1);
    expect(Date.now() - started).toBeLessThan(2000);
  });
});

describe("multi-select counts", () => {
  const picks = (n: number) => ({ options: Array.from({ length: n }, (_, i) => i), custom: [] });
  it.each<[string, { required: boolean; count?: { min: number; max?: number } }, number, boolean]>([
    ["required, no count: none refused", { required: true }, 0, false],
    ["required, no count: one is enough", { required: true }, 1, true],
    ["optional: none is fine", { required: false }, 0, true],
    ["count 2 to 3: one refused", { required: true, count: { min: 2, max: 3 } }, 1, false],
    ["count 2 to 3: three accepted", { required: true, count: { min: 2, max: 3 } }, 3, true],
    ["count 2 to 3: four refused", { required: true, count: { min: 2, max: 3 } }, 4, false],
    ["count from 0: none accepted even when required", { required: true, count: { min: 0 } }, 0, true],
    ["optional with a count: none accepted (skipped)", { required: false, count: { min: 2 } }, 0, true],
    ["optional with a count: one refused", { required: false, count: { min: 2 } }, 1, false],
  ])("%s", (_name, q, n, accepted) => {
    expect(selectionAccepted(q, picks(n))).toBe(accepted);
  });

  it("says what Enter asks for", () => {
    expect(countHint({ required: true })).toBe(" (at least one)");
    expect(countHint({ required: false })).toBe("");
    expect(countHint({ required: true, count: { min: 2, max: 2 } })).toBe(" (exactly 2)");
    expect(countHint({ required: true, count: { min: 1, max: 3 } })).toBe(" (1 to 3)");
    expect(countHint({ required: true, count: { min: 0, max: 3 } })).toBe(" (up to 3)");
    expect(countHint({ required: true, count: { min: 2 } })).toBe(" (at least 2)");
  });
});

const features: QuestionInput = {
  id: "features",
  prompt: "Features?",
  kind: "multi",
  allowOther: false,
  options: [{ label: "A" }, { label: "B" }, { label: "C" }],
  count: { min: 2, max: 2 },
};

describe("on the real component", () => {
  it("a plain multi-select refuses Enter until the count fits, then submits", () => {
    const { form, results, press } = openForm(normalizeForm({ questions: [features] }));
    press(KEY.space, KEY.enter);
    expect(results).toEqual([]);
    expect(form.render(80).join("\n")).toContain("Enter confirm (exactly 2)");
    press(KEY.down, KEY.space, KEY.down, KEY.space, KEY.enter);
    expect(results).toEqual([]);
    press(KEY.space, KEY.enter);
    expect(results).toHaveLength(1);
    expect(results[0].answers[0]).toMatchObject({ answered: true, options: [0, 1] });
  });

  it("in a tabbed form a selection out of range is not an answer, so Submit stays closed", () => {
    const spec = normalizeForm({ questions: [features, { prompt: "Ok?", options: [{ label: "Yes" }] }] });
    const { form, results, press } = openForm(spec);
    press(KEY.space, KEY.down, KEY.space, KEY.down, KEY.space); // three ticked
    expect(form.session.snapshot.context.answered[0]).toBe(false);
    press(KEY.shiftTab, KEY.enter);
    expect(results).toEqual([]);
    expect(form.render(80).join("\n")).toContain("Unanswered: Q1");
    press(KEY.tab, KEY.space); // back to two
    expect(form.session.snapshot.context.answered[0]).toBe(true);
  });

  it("defaults are filled in, answered where they pass the checks, and editable", () => {
    const spec = normalizeForm({
      questions: [
        {
          prompt: "Seats?",
          options: [],
          kind: "text",
          text: { type: "number", minimum: 1, maximum: 9 },
          initial: { options: [], custom: ["5"] },
        },
        {
          prompt: "Too many?",
          options: [],
          kind: "text",
          text: { type: "number", maximum: 9 },
          initial: { options: [], custom: ["50"] },
        },
        {
          prompt: "Region?",
          options: [{ label: "EU" }, { label: "US" }],
          allowOther: false,
          initial: { options: [1], custom: [] },
        },
        { ...features, initial: { options: [2, 0, 7], custom: [] } },
      ],
    });
    const { form, press } = openForm(spec);
    const c = form.session.snapshot.context;
    expect(c.drafts.slice(0, 2)).toEqual(["5", "50"]);
    expect(c.answered).toEqual([true, false, true, true]);
    expect(c.cursors[2]).toBe(1);
    expect(c.picks[3]).toEqual({ options: [0, 2], custom: [] });
    expect(form.render(80).join("\n")).toContain("5");
    press("\x7f", "7", KEY.enter); // the editor holds the default: edit it
    expect(form.session.snapshot.context.picks[0]).toEqual({ options: [], custom: ["7"] });
  });

  it("a form that can be declined: d on the review tab ends it as declined (and cancelled), elsewhere d does nothing", () => {
    const spec = normalizeForm({
      questions: [{ prompt: "Name?", options: [], kind: "text" }],
      declinable: true,
    });
    const { form, results, press } = openForm(spec);
    press("d");
    expect(results).toEqual([]);
    expect(form.session.snapshot.context.drafts[0]).toBe("d");
    press(KEY.shiftTab);
    for (const width of [20, 40, 80, 120]) {
      const lines = form.render(width);
      expect(lines.every((l) => visibleWidth(l) <= width)).toBe(true);
      if (width >= 80) expect(lines.join("\n")).toContain("✗ Decline: press d to decline and send nothing.");
    }
    press("d");
    expect(results).toHaveLength(1);
    expect(results[0]).toMatchObject({ cancelled: true, declined: true });
  });

  it("d is only a key on forms that can be declined", () => {
    const spec = normalizeForm({ questions: [features, { prompt: "Ok?", options: [{ label: "Yes" }] }] });
    const { results, press } = openForm(spec);
    press(KEY.shiftTab, "d", KEY.esc);
    expect(results).toHaveLength(1);
    expect(results[0].declined).toBeUndefined();
    expect(results[0].cancelled).toBe(true);
  });

  it("a form of no questions opens on its review tab and submits or declines", () => {
    const spec: FormSpec = normalizeForm({ questions: [], declinable: true, title: "Proceed?" });
    const submit = openForm(spec);
    // A form of no questions is a confirmation: it says so, not "submit".
    expect(submit.form.render(60).join("\n")).toContain("Press Enter to confirm.");
    submit.press(KEY.tab, KEY.shiftTab, KEY.enter);
    expect(submit.results).toEqual([
      { cancelled: false, answers: [], skipped: [], hidden: [], waited: false, notes: [], additionalText: "" },
    ]);
    const decline = openForm(spec);
    decline.press("d");
    expect(decline.results[0]).toMatchObject({ cancelled: true, declined: true });
  });
});

describe("through dialogs", () => {
  const spec = normalizeForm({
    questions: [{ id: "ok", prompt: "Ok?", options: [{ label: "Yes" }, { label: "No" }], allowOther: false }],
    declinable: true,
  });

  it("the review's list offers Decline, which ends the form as declined", async () => {
    const { ctx, asked } = rpcContext([
      (_title, options) => options?.find((o) => o.includes("Yes")),
      false, // do not submit yet
      (_title, options) => options?.find((o) => o.startsWith("✗ Decline")),
    ]);
    const outcome = await runDialogs(ctx.ui, new FormSession({ spec }));
    expect(outcome.result).toMatchObject({ cancelled: true, declined: true });
    expect(asked[2].options).toEqual(["Submit", "Change 1. Q1: Yes", "✗ Decline (send nothing)"]);
  });

  it("a form that cannot be declined offers no Decline", async () => {
    const plain: FormSpec = { ...spec, declinable: false, alwaysReview: true };
    // Answer, decline to submit, dismiss the review menu, then confirm discarding what was entered.
    const { ctx, asked } = rpcContext([
      (_t, options) => options?.find((o) => o.includes("Yes")),
      false,
      undefined,
      true,
    ]);
    const outcome: { result: FormResult } = await runDialogs(ctx.ui, new FormSession({ spec: plain }));
    expect(outcome.result.declined).toBeUndefined();
    expect(asked[2].options).not.toContain("✗ Decline (send nothing)");
  });
});

describe("question_input takes a numeric range", () => {
  function tool() {
    const pi = fakePi();
    createFormchart({ agentDir: tempAgentDir() })(pi.api);
    return pi.tools.get("question_input")!;
  }

  it("refuses numbers outside min/max while typing, accepts one inside", async () => {
    const keys = [..."120", KEY.enter, "\x7f", "\x7f", "\x7f", ..."12", KEY.enter];
    const { ctx } = fakeUiContext((c) => {
      for (const k of keys) c.handleInput(k);
    });
    const r = await tool().execute(
      "c",
      { question: "Replicas?", type: "number", min: 1, max: 100 },
      undefined,
      undefined,
      ctx,
    );
    expect(r.details).toEqual({ question: "Replicas?", answer: "12", cancelled: false, outcome: "answered" });
  });

  it.each<[object, string]>([
    [{ question: "Replicas?", type: "number", min: 5, max: 1 }, "min: 5 is larger than max 1"],
    [{ question: "Name?", min: 1 }, 'min: a range applies to type "number" only'],
  ])("refuses %j", async (args, message) => {
    const r = await tool().execute("c", args, undefined, undefined, { hasUI: true });
    expect(r.content[0].text).toBe(`Error (invalid_arguments): ${message}`);
  });
});
