/**
 * What the form says, driven with real key bytes on the real component: a
 * key that does nothing says why, a footer offers only what its keys do, a
 * rule is read before it is broken, and a result names what it reports.
 */
import { describe, expect, it } from "@jest/globals";
import { prepareFormFile } from "../tools/engine/catalog.js";
import type { PreparedForm } from "../tools/engine/form-tool.js";
import { KEY, openForm } from "./helpers/fake-host.js";

function prepared(tool: string, args: unknown): PreparedForm {
  const ready = prepareFormFile({ tool, arguments: args });
  if (!ready.ok) throw new Error(ready.message);
  return ready.form;
}

/** The form's screen as plain text, after `keys`; and the model's text once it closed. */
function drive(form: PreparedForm, keys: string[], width = 100) {
  const opened = openForm(form.spec);
  opened.press(...keys);
  const screen = opened.form
    .render(width)
    .map((l) => l.replace(/\x1b_pi:c\x07/g, "").replace(/\x1b\[[0-9;]*m/g, ""))
    .join("\n");
  const result = opened.results[0];
  return { screen, text: result ? form.answer(result).text : undefined };
}

const footer = (screen: string) => screen.split("\n").slice(-4).join("\n");

const ONE = { question: "Ship it?", options: [{ label: "Yes" }, { label: "Later" }], allowOther: false };
const TWO = {
  questions: [
    { id: "db", label: "DB", prompt: "Which database?", options: [{ label: "PostgreSQL" }, { label: "SQLite" }] },
    { id: "cache", label: "Cache", prompt: "Which cache?", options: [{ label: "Redis" }], required: true },
  ],
};
const PICK = {
  message: "Pick the regions.",
  schema: {
    type: "object",
    properties: {
      regions: {
        type: "array",
        title: "Regions",
        items: { type: "string", enum: ["eu", "us", "ap"] },
        minItems: 1,
        maxItems: 2,
      },
    },
  },
};

describe("what the form says", () => {
  it("Tab on a form of one question says why it goes nowhere", () => {
    expect(drive(prepared("question", ONE), [KEY.tab]).screen).toContain(
      "Tab moves between questions, and this form asks only this one: Enter answers it.",
    );
    expect(drive(prepared("question_input", { question: "Name?" }), [KEY.tab]).screen).toContain(
      "this form asks only this one: Enter saves, Esc goes back.",
    );
  });

  it("the review's footer offers Enter to submit only once no required question is open", () => {
    const form = prepared("question", TWO);
    // Tab to Cache, Tab to Submit: Cache, required, is open.
    const open = drive(form, [KEY.tab, KEY.tab]).screen;
    expect(open).toContain("Unanswered: Cache.");
    expect(footer(open)).not.toContain("Enter submit");
    const answered = drive(form, [KEY.tab, "1"]).screen;
    expect(footer(answered)).toContain("Enter submit");
  });

  it("one optional question open reads in the singular", () => {
    const form = prepared("question", { questions: [TWO.questions[0], { ...TWO.questions[1], required: false }] });
    expect(drive(form, ["1", KEY.tab]).screen).toContain("Open: Cache. Press Enter to submit with it open.");
  });

  it("Enter with too many ticked says how many to untick; with too few, how many more to tick", () => {
    const form = prepared("ask_form", PICK);
    expect(drive(form, ["1", "2", "3", KEY.enter]).screen).toContain(
      "3 are ticked and this question takes 1 to 2: untick 1 (Space or 1-9), then Enter.",
    );
    const exact = prepared("ask_form", {
      ...PICK,
      schema: { ...PICK.schema, properties: { regions: { ...PICK.schema.properties.regions, minItems: 2 } } },
    });
    expect(drive(exact, ["1", KEY.enter]).screen).toContain(
      "1 is ticked and this question takes exactly 2: tick 1 more (Space or 1-9), then Enter.",
    );
  });

  it("a declined confirmation says what was not confirmed; a declined form, which fields were not given", () => {
    const confirm = prepared("ask_form", {
      title: "Delete the staging database?",
      message: "The server asks before it drops it.",
      schema: { type: "object", properties: {} },
    });
    expect(drive(confirm, ["d"]).text).toBe('User declined "Delete the staging database?": they did not confirm it.');
    expect(drive(prepared("ask_form", PICK), [KEY.tab, "d"]).text).toBe(
      'User declined the form "Pick the regions.": they chose not to give regions.',
    );
  });

  it("a number's range shows before anything is typed", () => {
    const form = prepared("question_input", { question: "How many replicas?", type: "number", min: 1, max: 100 });
    expect(drive(form, []).screen).toContain("A number from 1 to 100.");
  });

  it("a multi-select confirmed with nothing ticked reads as a choice, not as skipped", () => {
    const checks = {
      questions: [
        { id: "checks", label: "Checks", prompt: "Which checks?", multiple: true, options: [{ label: "Smoke" }] },
        TWO.questions[0],
      ],
    };
    const form = prepared("question", checks);
    // Enter confirms Checks empty and goes on to DB; Tab goes to the review.
    const { screen } = drive(form, [KEY.enter, KEY.tab]);
    expect(screen).toContain("Checks: (none of the options: confirmed with nothing ticked)");
    expect(drive(form, [KEY.enter, "1", KEY.enter]).text).toContain("Checks: user selected none of the options");
  });
});
