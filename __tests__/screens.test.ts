/**
 * What a person sees, at 40, 60, 80 and 120 columns and in short terminals:
 * the question stays on screen while the list scrolls a row at a time, the
 * scroll markers count rows, refused keys say why, the review screen says
 * what each answer is, and the help line lists what works.
 */

import { visibleWidth } from "@earendil-works/pi-tui";
import { describe, expect, it } from "@jest/globals";
import { exampleNames, loadFormFile } from "../bin/form-file.js";
import { type FormSpec, normalizeForm, type QuestionInput } from "../machines/spec.js";
import { KEY, openForm, overflowingLines } from "./helpers/fake-host.js";

const WIDTHS = [40, 60, 80, 120];

function example(name: string): FormSpec {
  const loaded = loadFormFile(name);
  if (!loaded.ok) throw new Error(loaded.message);
  return { ...loaded.form.spec, waitMs: undefined };
}

/** The form after `keys`, drawn at `width` × `height`. */
function screen(spec: FormSpec, keys: string[], width: number, height = 40): string[] {
  const { form } = openForm(spec, { maxHeight: () => height });
  for (const key of keys) form.handleInput(key);
  const lines = form.render(width).map((l) => l.replace(/\x1b_pi:c\x07/g, "").replace(/\x1b\[[0-9;]*m/g, ""));
  expect(overflowingLines(lines, width)).toEqual([]);
  expect(lines.length).toBeLessThanOrEqual(height);
  form.dispose();
  return lines;
}

const many: QuestionInput = {
  prompt: "Which region should the new cluster run in? Latency to the users matters most.",
  allowOther: false,
  options: Array.from({ length: 12 }, (_, i) => ({
    label: `Region ${i + 1}`,
    description: `A longer description of region ${i + 1} that wraps onto a second line on narrow screens`,
  })),
};

describe("in a short terminal the question stays and the list scrolls by rows", () => {
  it.each(WIDTHS)("at %i columns × 14 rows, far down the list, the prompt is still on screen", (width) => {
    const down = new Array(9).fill(KEY.down);
    const lines = screen(normalizeForm({ questions: [many] }), down, width, 14);
    expect(lines.join(" ")).toContain("Which region");
    expect(lines.some((l) => l.startsWith("› 10. Region 10"))).toBe(true);
  });

  it.each(WIDTHS)("at %i columns, 'n more' counts the rows out of view", (width) => {
    const down = new Array(6).fill(KEY.down);
    const lines = screen(normalizeForm({ questions: [many] }), down, width, 14);
    const rows = lines.filter((l) => /^[› ] \d+\. Region/.test(l)).map((l) => Number(/(\d+)\. Region/.exec(l)![1]));
    const above = Number(/↑ (\d+) more/.exec(lines.join("\n"))?.[1] ?? 0);
    const below = Number(/↓ (\d+) more/.exec(lines.join("\n"))?.[1] ?? 0);
    expect(above).toBe(Math.min(...rows) - 1);
    expect(below).toBe(12 - Math.max(...rows));
  });

  it.each(WIDTHS)("at %i columns, the window starts on a row, not on a description", (width) => {
    for (let n = 0; n < 12; n++) {
      const lines = screen(normalizeForm({ questions: [many] }), new Array(n).fill(KEY.down), width, 14);
      const marker = lines.findIndex((l) => /^\s+↑ \d+ more/.test(l));
      if (marker >= 0) expect(lines[marker + 1]).toMatch(/^[› ] \d+\. /);
    }
  });

  it.each(WIDTHS)("at %i columns, a marker with nothing to count gives its line back to the list", (width) => {
    const lines = screen(normalizeForm({ questions: [many] }), [], width, 14);
    expect(lines.join("\n")).not.toMatch(/↑ \d+ more/);
    // No blank line kept for an "↑ n more" that has nothing to count: the first row follows the prompt's blank line.
    const firstRow = lines.findIndex((l) => l.startsWith("› 1. Region 1"));
    expect(lines[firstRow - 1]).toBe("");
    expect(lines[firstRow - 2]).not.toBe("");
  });

  it.each([
    [110, 14],
    [60, 16],
  ])("every example at %i × %i rows keeps its prompt's first line", (width, height) => {
    for (const name of exampleNames()) {
      const spec = example(name);
      const first = spec.questions[0];
      if (!first) continue;
      const lines = screen(spec, [KEY.end], width, height);
      const words = first.prompt.split(/\s+/).slice(0, 3).join(" ");
      expect({ name, shown: lines.join(" ").replace(/\s+/g, " ").includes(words) }).toEqual({ name, shown: true });
    }
  });
});

describe("a refused key says why, until the next key", () => {
  it("Enter on an empty required number, on a form already drawn", () => {
    const spec = normalizeForm({
      questions: [{ prompt: "How many?", options: [], kind: "text", text: { type: "number" } }],
    });
    const { form } = openForm(spec);
    // Drawn before the key, as Pi draws it: the refusal must not hide behind the cached frame.
    form.render(80);
    form.handleInput(KEY.enter);
    expect(form.render(80).join("\n")).toContain("Not saved: An answer is required.");
    form.handleInput("4");
    expect(form.render(80).join("\n")).not.toContain("Not saved");
  });

  it.each(WIDTHS)("Enter on a required multi-select with nothing ticked, at %i columns", (width) => {
    const spec = normalizeForm({
      questions: [{ prompt: "Which?", multiple: true, options: [{ label: "A" }, { label: "B" }] }],
    });
    const lines = screen(spec, [KEY.enter], width);
    expect(lines.join(" ").replace(/\s+/g, " ")).toContain("Choose at least one (Space or 1-9), then Enter.");
  });

  it("a letter that is no key here", () => {
    const spec = normalizeForm({ questions: [{ prompt: "Pick", options: [{ label: "A" }, { label: "B" }] }] });
    expect(screen(spec, ["x"], 80).join("\n")).toContain('"x" does nothing here');
  });
});

describe("the review screen says what each answer is", () => {
  const rich = example("rich");

  it("a note is named with the option that carries it", () => {
    // Target: Production (row 1) gets a note, then Staging is chosen.
    const keys = ["n", ..."after the freeze", KEY.enter, "2", KEY.tab, KEY.tab];
    const lines = screen(rich, keys, 120).join("\n");
    expect(lines).toContain("1. Target: Staging, note on Production: after the freeze");
    expect(lines).not.toMatch(/, \(\d note/);
  });

  it("an empty optional text answer is skipped and not counted", () => {
    const keys = ["2", "1", KEY.enter, KEY.enter];
    const lines = screen(rich, keys, 120).join("\n");
    expect(lines).toContain("3. Notes: (skipped, optional)");
    expect(lines).toContain("2/3");
  });

  it("going back with a digit and answering returns to the review", () => {
    const spec = example("demo");
    const answered = ["1", " ", KEY.enter, "1"];
    const before = screen(spec, answered, 100).join("\n");
    expect(before).toContain("Review your answers");
    const again = screen(spec, [...answered, "1", "2"], 100).join("\n");
    expect(again).toContain("Review your answers");
  });

  it("questions hidden by conditions are left out and the rest numbered 1, 2, 3", () => {
    const lines = screen(example("branching"), ["1", "1", "1"], 100).join("\n");
    expect(lines).toMatch(/ 1\. Size: /);
    expect(lines).toMatch(/ 2\. Team: /);
    expect(lines).toMatch(/ 3\. Review: /);
    // Digit 2 goes to Team, the second question shown.
    expect(screen(example("branching"), ["1", "1", "1", "2"], 100).join("\n")).toContain("Which team owns");
  });

  it.each(WIDTHS)("one Esc on an answered review asks before discarding (%i columns)", (width) => {
    const spec = example("demo");
    const answered = ["1", " ", KEY.enter, "1"];
    const help = screen(spec, answered, width).join(" ").replace(/\s+/g, " ");
    expect(help).toContain("Esc cancel (asks first)");
    const asked = screen(spec, [...answered, KEY.esc], width)
      .join(" ")
      .replace(/\s+/g, " ");
    expect(asked).toContain("Discard what you entered?");
    expect(asked).toContain("Review your answers");
  });
});

describe("help lines and fields", () => {
  it("a multi-select says that 1-9 toggle, a ticks all, i inverts", () => {
    const lines = screen(example("multi"), [], 120).join(" ");
    expect(lines).toContain("Space/1-9 toggle");
    expect(lines).toContain("a all/none");
    expect(lines).toContain("i invert");
  });

  it("a date field offers no new line, and shows its placeholder inside the empty field", () => {
    const spec = normalizeForm({
      questions: [{ prompt: "When?", options: [], kind: "text", text: { type: "date" }, placeholder: "YYYY-MM-DD" }],
    });
    const lines = screen(spec, [], 80);
    expect(lines.join(" ")).not.toContain("Shift+Enter");
    const field = lines.findIndex((l) => l.includes("YYYY-MM-DD"));
    // Between the editor's borders, not below the field.
    expect(lines[field - 1]).toMatch(/^ ─+$/);
    expect(lines[field + 1]).toMatch(/^ ─+$/);
  });

  it.each(WIDTHS)("at %i columns the help wraps between key groups, never inside one", (width) => {
    for (const name of ["rich", "demo", "multi", "branching"]) {
      const lines = screen(example(name), [], width);
      const help = lines.slice(lines.findIndex((l) => /move|submit|save/.test(l) && l.includes("•")));
      for (const line of help.filter((l) => l.includes("•"))) {
        for (const group of line.trim().split(" • "))
          expect(group).not.toMatch(/^(note|toggle|choose|questions|cancel)\b/);
      }
      expect(lines.every((l) => visibleWidth(l) <= width)).toBe(true);
    }
  });
});
