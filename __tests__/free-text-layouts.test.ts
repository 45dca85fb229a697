/**
 * An answer of the person's own in every layout a choice question has: a
 * plain list, a multi-select, options with previews beside the list (from
 * 100 columns) and under the option (narrower), at 60, 100 and 120
 * columns. What is typed stays through moving to another question and back,
 * folding the form, and the review, and reaches the result as typed.
 */
import { describe, expect, it } from "@jest/globals";
import { normalizeForm, type QuestionInput } from "../machines/spec.js";
import { plainText } from "../renderers/text.js";
import { fakeHost, KEY, openForm } from "./helpers/fake-host.js";

const FOLD = "\x1bh";
const preview = "```\n┌──────┐\n│ menu │\n└──────┘\n```";
const LAYOUTS: Record<string, QuestionInput> = {
  list: { prompt: "Which layout?", options: [{ label: "Sidebar" }, { label: "Tabs" }] },
  "multi-select": { prompt: "Which layout?", multiple: true, options: [{ label: "Sidebar" }, { label: "Tabs" }] },
  previews: {
    prompt: "Which layout?",
    options: [
      { label: "Sidebar", preview },
      { label: "Tabs", preview },
    ],
  },
  "multi-select with previews": {
    prompt: "Which layout?",
    multiple: true,
    options: [
      { label: "Sidebar", preview },
      { label: "Tabs", preview },
    ],
  },
};
const next: QuestionInput = { prompt: "And the theme?", options: [{ label: "Dark" }, { label: "Light" }] };

function open(layout: QuestionInput, width: number) {
  const f = openForm(normalizeForm({ questions: [layout, next] }), { host: fakeHost(40, width) });
  const screen = () => f.form.render(width).map(plainText);
  return { ...f, screen, text: () => screen().join("\n") };
}

describe.each(Object.entries(LAYOUTS))("a typed answer in a %s", (_, layout) => {
  const multi = layout.multiple === true;
  describe.each([60, 100, 120])("at %i columns", (width) => {
    it("is kept through another question, a fold and the review, and reaches the result", () => {
      const f = open(layout, width);
      f.press(KEY.end, KEY.enter, ..."My own");
      // Leaving by Tab keeps what the editor holds, and coming back shows it.
      f.press(KEY.tab);
      expect(f.text()).toContain("And the theme?");
      f.press(KEY.shiftTab);
      expect(f.text()).toContain("✎ My own");
      f.press(FOLD, FOLD);
      expect(f.text()).toContain("✎ My own");
      if (multi) f.press(KEY.enter);
      else f.press(KEY.tab);
      f.press("1");
      expect(f.text()).toMatch(/Review your answers[\s\S]*✎ My own/);
      f.press(KEY.enter);
      expect(f.results[0].answers[0].custom).toEqual(["My own"]);
    });

    it("keeps an open editor's text through a fold", () => {
      const f = open(layout, width);
      f.press(KEY.end, KEY.enter, ..."Half typed", FOLD);
      expect(f.screen()).toHaveLength(1);
      f.press(FOLD);
      expect(f.text()).toContain("Half typed");
    });

    it("types in an editor as wide as the screen leaves beside the row", () => {
      const f = open(layout, width);
      f.press(KEY.end, KEY.enter);
      const border = f.screen().find((l) => /^ +─{8,}$/.test(l));
      expect(border).toBeDefined();
      // The row's own indent, and no preview pane beside the editor.
      expect(border!.trim().length).toBeGreaterThanOrEqual(width - 10);
    });
  });
});
