/**
 * The lines a form keeps between frames (rows, head, footer, tab bar) are
 * reused only while what they show is the same: every frame equals the frame
 * of a form drawn from nothing, after any key, at any width, and after the
 * host's theme changes in place.
 */
import { describe, expect, it } from "@jest/globals";
import { type FormSpec, normalizeForm } from "../machines/spec.js";
import { ansiTheme, type FormColor, type FormTheme } from "../renderers/theme.js";
import { KEY, openForm } from "./helpers/fake-host.js";

const questions = (n: number, m: number, kind?: "multi") =>
  Array.from({ length: n }, (_, i) => ({
    prompt: `Question ${i + 1}?`,
    label: `Q${i + 1}`,
    ...(kind ? { kind } : {}),
    options: Array.from({ length: m }, (_, j) => ({
      label: `Option ${j + 1}`,
      description: `About ${j + 1}: long enough to wrap on a narrow screen`,
    })),
  }));
const tabbed = () => normalizeForm({ questions: [...questions(2, 4), ...questions(1, 3, "multi")] } as never);

/** The frame a new form shows after the same keys at the same width (nothing kept from earlier frames). */
function fresh(spec: () => FormSpec, keys: string[], width: number, theme: FormTheme = ansiTheme): string[] {
  const { form, press } = openForm(spec(), { theme });
  press(...keys);
  return form.render(width);
}

describe("lines kept between frames", () => {
  it("every frame is the frame a new form draws, through moves, ticks, answers, tabs and width changes", () => {
    const script = [KEY.down, KEY.down, KEY.up, KEY.enter, KEY.down, "2", KEY.tab, KEY.space, KEY.down];
    script.push(KEY.space, "a", KEY.shiftTab, KEY.up, KEY.tab, KEY.tab, "1", KEY.down);
    const widths = [80, 120, 50, 80];
    const { form, press } = openForm(tabbed(), { theme: ansiTheme });
    for (let i = 0; i < script.length; i++) {
      press(script[i]);
      for (const width of widths) expect(form.render(width)).toEqual(fresh(tabbed, script.slice(0, i + 1), width));
    }
  });

  it("every frame is the frame a new form draws, through notes, typed answers edited, typed choices and previews", () => {
    const rich = () =>
      normalizeForm({
        questions: [
          { prompt: "One?", label: "One", notes: true, options: [{ label: "A" }, { label: "B" }, { label: "C" }] },
          { prompt: "Many?", label: "Many", multiple: true, options: [{ label: "X" }, { label: "Y" }] },
          {
            prompt: "Shown?",
            label: "Shown",
            options: [
              { label: "P", preview: "first preview\nline two" },
              { label: "Q", preview: "second preview" },
            ],
          },
        ],
      } as never);
    const BACKSPACE = "\x7f";
    // A note written and taken away; a typed answer given, then edited; a typed choice added, unticked, ticked; previews.
    const script = [KEY.down, "n", "x", KEY.enter, KEY.up, KEY.down, "n", BACKSPACE, KEY.enter, KEY.end, KEY.enter];
    script.push("h", "i", KEY.enter, KEY.shiftTab, KEY.enter, BACKSPACE, "o", KEY.enter, KEY.shiftTab, KEY.up);
    script.push(KEY.tab, KEY.end, KEY.enter, "z", KEY.enter, KEY.space, KEY.up, KEY.down, KEY.space, KEY.tab);
    script.push(KEY.down, KEY.up, KEY.esc, "x", KEY.tab);
    // One width a form: a row kept from the frame before is reused only while the width stays.
    for (const width of [120, 60]) {
      const { form, press } = openForm(rich(), { theme: ansiTheme });
      for (let i = 0; i < script.length; i++) {
        press(script[i]);
        expect(form.render(width)).toEqual(fresh(rich, script.slice(0, i + 1), width));
      }
    }
  });

  it("the help line says Esc asks first exactly while something is entered, a draft alone included", () => {
    const lone = () => normalizeForm({ questions: [{ prompt: "Which?", options: [{ label: "A" }] }] } as never);
    const script = [KEY.end, KEY.enter, "k", KEY.esc, KEY.up, KEY.down, KEY.enter, "\x7f", KEY.esc, KEY.up];
    const { form, press } = openForm(lone(), { theme: ansiTheme });
    const asks: boolean[] = [];
    for (let i = 0; i < script.length; i++) {
      press(script[i]);
      const frame = form.render(80);
      expect(frame).toEqual(fresh(lone, script.slice(0, i + 1), 80));
      asks.push(frame.join("\n").includes("(asks first)"));
    }
    expect(asks).toEqual([false, false, false, true, true, true, false, false, false, false]);
  });

  it("a row whose tick changes is drawn again, highlighted or not", () => {
    const multi = () => normalizeForm({ questions: questions(1, 4, "multi") } as never);
    const { form, press } = openForm(multi(), { theme: ansiTheme });
    const keys = [KEY.down, KEY.up, KEY.space, KEY.down, KEY.up, "i", KEY.down, KEY.up];
    for (let i = 0; i < keys.length; i++) {
      press(keys[i]);
      expect(form.render(80)).toEqual(fresh(multi, keys.slice(0, i + 1), 80));
    }
  });

  it("after the host's theme changes in place and invalidates the form, no line keeps the old colours", () => {
    // Pi's theme is one object whose colours change when the person picks another theme.
    let mark = "old";
    const theme: FormTheme = {
      fg: (color: FormColor, text: string) => `<${mark}:${color}>${text}`,
      bg: (_color, text) => `<${mark}:bg>${text}`,
      bold: (text) => `<${mark}:b>${text}`,
    };
    const spec = tabbed();
    const { form, press } = openForm(spec, { theme });
    press(KEY.down, KEY.up);
    const before = form.render(80);
    expect(before.join("\n")).toContain("<old:");
    mark = "new";
    form.invalidate();
    const after = form.render(80);
    expect(after.join("\n")).not.toContain("<old:");
    expect(after).toEqual(before.map((line) => line.replaceAll("<old:", "<new:")));
  });

  it("a form opened after the theme changed in place draws its colours, with no line of the form before it", () => {
    let mark = "old";
    const theme: FormTheme = {
      fg: (color: FormColor, text: string) => `<${mark}:${color}>${text}`,
      bg: (_color, text) => `<${mark}:bg>${text}`,
      bold: (text) => `<${mark}:b>${text}`,
    };
    const spec = tabbed();
    const first = openForm(spec, { theme });
    first.press(KEY.down);
    expect(first.form.render(80).join("\n")).toContain("<old:");
    for (const next of ["new", "old", "new"]) {
      mark = next;
      const again = openForm(spec, { theme });
      again.press(KEY.down);
      const frame = again.form.render(80);
      expect(frame).toEqual(fresh(tabbed, [KEY.down], 80, theme));
      expect(frame.join("\n")).not.toContain(next === "new" ? "<old:" : "<new:");
    }
  });

  it("a form asked again draws no row, head, footer or tab bar the one before it drew", () => {
    const drawn: string[] = [];
    const counting: FormTheme = {
      fg: (color, text) => {
        drawn.push(text);
        return ansiTheme.fg(color, text);
      },
      bg: (color, text) => ansiTheme.bg(color, text),
      bold: (text) => ansiTheme.bold(text),
    };
    const spec = tabbed();
    const keys = [KEY.down, KEY.down, KEY.up, KEY.up];
    const first = openForm(spec, { theme: counting });
    for (const key of keys) {
      first.press(key);
      first.form.render(80);
    }
    drawn.length = 0;
    const again = openForm(spec, { theme: counting });
    const frames = [again.form.render(80)];
    for (const key of keys) {
      again.press(key);
      frames.push(again.form.render(80));
    }
    expect(drawn.filter((text) => /Option|About|Question|move|Q1/.test(text))).toEqual([]);
    expect(frames.at(-1)).toEqual(fresh(tabbed, keys, 80));
  });

  it("↑/↓ between rows drawn before draws no row, footer or tab bar again", () => {
    const drawn: string[] = [];
    const counting: FormTheme = {
      fg: (color, text) => {
        drawn.push(text);
        return ansiTheme.fg(color, text);
      },
      bg: (color, text) => ansiTheme.bg(color, text),
      bold: (text) => ansiTheme.bold(text),
    };
    const { form, press } = openForm(tabbed(), { theme: counting });
    for (const key of [KEY.down, KEY.down, KEY.down, KEY.up, KEY.up, KEY.up]) {
      press(key);
      form.render(80);
    }
    drawn.length = 0;
    for (const key of [KEY.down, KEY.down, KEY.up, KEY.up]) {
      press(key);
      form.render(80);
    }
    expect(drawn.filter((text) => /Option|About|move|Q1/.test(text))).toEqual([]);
  });
});
