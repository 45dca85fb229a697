import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "@jest/globals";
import { normalizeForm, type QuestionInput } from "../machines/spec.js";
import { memo, sanitize, visibleControls } from "../renderers/text.js";
import { KEY, openForm, overflowingLines } from "./helpers/fake-host.js";
import { DEJAVU_MONO, fontCoverage, haveDejaVuMono, missingGlyphs } from "./helpers/font.js";

const questions: QuestionInput[] = [
  {
    id: "lang",
    label: "言語",
    prompt: "どの言語でドキュメントを書きますか？ Which language should the docs use? 📚",
    options: [
      { label: "日本語", description: "チーム全員が読める" },
      { label: "English 🇬🇧", description: "The default for open-source projects, read by most contributors worldwide" },
      { label: "Both, side by side 👩‍👩‍👧" },
    ],
  },
  {
    id: "extras",
    label: "Extras ✨",
    prompt: "Which extras should ship with the first release?",
    multiple: true,
    options: [{ label: "Search 🔍" }, { label: "Dark mode 🌙" }, { label: "Offline support" }],
  },
];
const spec = normalizeForm({ questions });
const WIDTHS = [20, 40, 80, 120];

function screens(keys: string[]) {
  const { form, press } = openForm(spec);
  press(...keys);
  return WIDTHS.map((width) => ({ width, lines: form.render(width) }));
}

describe.each([
  ["first question", []],
  ["multi-select with two choices", [KEY.enter, KEY.space, KEY.down, KEY.down, KEY.space]],
  ["typing a custom answer", ["4", ..."自分で書く ✍️"]],
  ["review with a question unanswered", [KEY.enter, KEY.tab]],
] as const)("screen: %s", (_name, keys) => {
  it.each(screens([...keys]))("fits and matches at $width columns", ({ width, lines }) => {
    expect(overflowingLines(lines, width)).toEqual([]);
    expect(lines.join("\n")).toMatchSnapshot();
  });
});

describe("layout", () => {
  it("every line fits at every width from 20 to 300 columns", () => {
    for (const keys of [[], [KEY.enter], ["4", "x"], [KEY.enter, KEY.tab]]) {
      const { form, press } = openForm(spec);
      press(...keys);
      for (let width = 20; width <= 300; width++) expect(overflowingLines(form.render(width), width)).toEqual([]);
    }
  });

  it("wraps a long prompt without losing a word", () => {
    const prompt = "Should the migration run before or after the nightly backup window closes on the primary cluster";
    const { form } = openForm(
      normalizeForm({ questions: [{ prompt, options: [{ label: "Before" }, { label: "After" }] }] }),
    );
    const text = form.render(24).join(" ");
    for (const word of prompt.split(" ")) expect(text).toContain(word);
  });

  it("shows a scrolling window around the highlighted row when the form is taller than the screen", () => {
    const options = Array.from({ length: 30 }, (_, i) => ({ label: `Option number ${i + 1}` }));
    const { form, press } = openForm(normalizeForm({ questions: [{ prompt: "Pick one", options }] }), {
      maxHeight: () => 12,
    });
    expect(form.render(60).length).toBeLessThanOrEqual(12);
    press(KEY.end);
    const lines = form.render(60);
    expect(lines.length).toBeLessThanOrEqual(12);
    expect(lines.some((l) => l.includes("› 31. Type something."))).toBe(true);
    expect(lines.some((l) => /↑ \d+ more/.test(l))).toBe(true);
    press(KEY.home);
    expect(form.render(60).some((l) => l.includes("› 1. Option number 1"))).toBe(true);
  });

  it("keeps to the height even when it is tiny", () => {
    const { form } = openForm(spec, { maxHeight: () => 3 });
    for (const width of [20, 50]) {
      const lines = form.render(width);
      expect(lines.length).toBeLessThanOrEqual(3);
      expect(overflowingLines(lines, width)).toEqual([]);
    }
  });
});

describe("model-supplied text is neutralized", () => {
  const hostile =
    "Pick \x1b[31mred\x1b[0m \x1b]0;pwned\x07 \x1b]8;;http://x\x1b\\link\x1b]8;;\x1b\\ bell\x07 \u202eevil\u202c \x9b31m";

  it("strips escape sequences and shows stray controls as pictures", () => {
    expect(sanitize(hostile)).toBe("Pick red  link bell^G evil ");
    expect(sanitize("tab\there\r\nnext")).toBe("tab  here\nnext");
  });

  it("no escape or control byte from a label reaches the screen", () => {
    const { form, press } = openForm(
      normalizeForm({
        questions: [
          { prompt: hostile, label: hostile, options: [{ label: hostile, description: hostile }, { label: "ok" }] },
          { prompt: "b", options: [{ label: "x" }] },
        ],
      }),
    );
    for (const keys of [[], [KEY.enter, KEY.tab]]) {
      press(...keys);
      const screen = form.render(80).join("\n");
      expect(screen).not.toMatch(/[\x00-\x09\x0b-\x1f\x7f-\x9f\u202e]/);
      expect(screen).toContain("Pick red");
    }
  });
});

describe("the memo behind sanitizing and wrapping", () => {
  /** A memo that counts how often each key was computed. */
  function counted(limits: { maxEntries?: number; maxChars?: number }) {
    const computed = new Map<string, number>();
    const get = memo((key) => {
      computed.set(key, (computed.get(key) ?? 0) + 1);
      return key.length;
    }, limits);
    return { get, times: (key: string) => computed.get(key) ?? 0 };
  }

  it("answers a key again without computing it, while what it holds stays within its size", () => {
    const m = counted({ maxChars: 1000 });
    const keys = Array.from({ length: 9 }, (_, i) => `${i}`.padEnd(100, "x"));
    for (const key of keys) m.get(key);
    for (const key of keys) m.get(key);
    expect(keys.map(m.times)).toEqual(new Array(9).fill(1));
  });

  it("lets go of what it held once its keys together pass the size, whatever their number", () => {
    const m = counted({ maxChars: 1000, maxEntries: 4096 });
    const keys = Array.from({ length: 11 }, (_, i) => `${i}`.padEnd(100, "x"));
    for (const key of keys) m.get(key);
    // The eleventh key passed 1,000 characters: the first ten were let go, the eleventh kept.
    m.get(keys[0]);
    m.get(keys[10]);
    expect(m.times(keys[0])).toBe(2);
    expect(m.times(keys[10])).toBe(1);
  });

  it("never keeps a key of more than 4,000 characters", () => {
    const m = counted({});
    const huge = "y".repeat(4001);
    m.get(huge);
    m.get(huge);
    expect(m.times(huge)).toBe(2);
  });
});

// Debian's default monospace font: a glyph it lacks draws as a box in the terminals that use it.
(haveDejaVuMono ? describe : describe.skip)("glyphs in Debian's default monospace font", () => {
  const covered = fontCoverage(DEJAVU_MONO);
  const ROOT = join(import.meta.dirname ?? ".", "..");

  it("every character the terminal side writes into its sources is one the font has", () => {
    // The terminal view and Pi's transcript lines: whatever they draw is spelled in these files.
    const files = [
      ...readdirSync(join(ROOT, "renderers"))
        .filter((f) => f.endsWith(".ts") && !f.startsWith("review"))
        .map((f) => join("renderers", f)),
      ...readdirSync(join(ROOT, "tools"))
        .filter((f) => f.endsWith(".ts"))
        .map((f) => join("tools", f)),
    ];
    const missing = files.flatMap((file) => {
      const glyphs = missingGlyphs(readFileSync(join(ROOT, file), "utf8"), covered);
      return glyphs.length ? [{ file, glyphs }] : [];
    });
    expect(missing).toEqual([]);
  });

  it("control characters from the model show as characters the font has", () => {
    const controls = Array.from({ length: 0x20 }, (_, c) => String.fromCharCode(c)).join("") + "\x7f";
    for (const shown of [sanitize(`a${controls}b`), visibleControls(controls)]) {
      expect(shown).not.toMatch(/[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]/);
      expect(missingGlyphs(shown, covered)).toEqual([]);
    }
  });
});
