/**
 * Previews beside options: drawn beside the list from 100 columns, under the
 * highlighted option when narrower, as part of the option's text in dialogs;
 * sanitized, bounded, fitting every width; the answer says the chosen option
 * had one.
 */
import { describe, expect, it } from "@jest/globals";
import { createActor } from "xstate";
import { formMachine } from "../machines/form.js";
import { normalizeForm, type QuestionInput } from "../machines/spec.js";
import { PREVIEW_BESIDE_WIDTH, screen } from "../renderers/terminal/view.js";
import { plainTheme } from "../renderers/theme.js";
import { LIMITS } from "../schemas/fields.js";
import { createFormchart } from "../tools/index.js";
import { KEY, openForm, overflowingLines } from "./helpers/fake-host.js";
import { fakePi, fakeUiContext, rpcContext } from "./helpers/fake-pi.js";
import { tempAgentDir } from "./helpers/temp.js";

const DIFF = "```diff\n-  await upload(file);\n+  await retry(() => upload(file), { times: 3 });\n```";
const CONFIG = "```toml\n[network]\n    timeout = 30\n```";
const PROSE = "Every setting on one page.";

const choices = (multiple: boolean): QuestionInput => ({
  id: "change",
  prompt: "Which change?",
  multiple,
  options: [
    { label: "Retry uploads", preview: DIFF },
    { label: "Longer timeout", description: "Network", preview: CONFIG },
    { label: "One page", preview: PROSE },
    { label: "Nothing" },
  ],
});

const specOf = (...questions: QuestionInput[]) => normalizeForm({ questions });

/** The line holding `needle`, and the column it starts at. */
function find(lines: string[], needle: string) {
  const line = lines.findIndex((l) => l.includes(needle));
  return { line, column: line < 0 ? -1 : lines[line].indexOf(needle) };
}

describe.each([false, true])("a question with previews (multiple: %s)", (multiple) => {
  const spec = specOf(choices(multiple));

  it("draws the highlighted option's preview beside the list at 120 columns, and it follows the highlight", () => {
    const { form, press } = openForm(spec);
    let lines = form.render(120);
    const option = find(lines, "Retry uploads");
    const removed = find(lines, "-  await upload(file);");
    expect(removed.line).toBe(option.line);
    expect(removed.column).toBeGreaterThan(option.column + "Retry uploads".length);
    expect(lines.join("\n")).not.toContain("timeout = 30");
    press(KEY.down);
    lines = form.render(120);
    expect(lines.join("\n")).not.toContain("await upload");
    // The preview starts beside the list's first line.
    expect(find(lines, "[network]").line).toBe(find(lines, "Retry uploads").line);
    press(KEY.down, KEY.down);
    // An option without a preview shows none.
    lines = form.render(120);
    expect(lines.join("\n")).not.toMatch(/network|await|Every setting/);
  });

  it("draws it under the highlighted option below 100 columns", () => {
    const { form, press } = openForm(spec);
    press(KEY.down);
    const lines = form.render(60);
    const option = find(lines, "Longer timeout");
    const description = find(lines, "Network");
    const code = find(lines, "[network]");
    expect(description.line).toBe(option.line + 1);
    expect(code.line).toBe(description.line + 1);
    expect(code.column).toBeGreaterThanOrEqual(description.column);
    expect(find(lines, "One page").line).toBeGreaterThan(code.line);
    expect(lines.join("\n")).not.toContain("await upload");
  });

  it("switches from under to beside at 100 columns", () => {
    const { form } = openForm(spec);
    const at = (width: number) => {
      const lines = form.render(width);
      return find(lines, "-  await").line - find(lines, "Retry uploads").line;
    };
    expect(at(PREVIEW_BESIDE_WIDTH - 1)).toBeGreaterThan(0);
    expect(at(PREVIEW_BESIDE_WIDTH)).toBe(0);
  });

  it("draws a fenced block as code: no fence lines, a border, indentation kept", () => {
    const { form, press } = openForm(spec);
    press(KEY.down);
    for (const width of [60, 120]) {
      const lines = form.render(width);
      expect(lines.join("\n")).not.toContain("```");
      expect(lines.join("\n")).toContain("┆ [network]");
      expect(lines.join("\n")).toContain("┆     timeout = 30");
    }
    press(KEY.down);
    // Prose has no border.
    expect(form.render(120).join("\n")).toMatch(/│ Every setting on one page\./);
    expect(form.render(120).join("\n")).not.toContain("┆ Every");
  });

  it("every line fits at every width from 1 to 300, on every row", () => {
    const { form, press } = openForm(spec);
    for (let row = 0; row < 5; row++) {
      for (let width = 1; width <= 300; width++) expect(overflowingLines(form.render(width), width)).toEqual([]);
      press(KEY.down);
    }
  });
});

describe("what a preview may hold", () => {
  it("wide characters, emoji and tabs fit every width from 1 to 300, beside and under, in every height", () => {
    const preview = "日本語のプレビュー 👩‍👩‍👧 ".repeat(8) + "\n```\n\t缩进的代码行 ".repeat(6) + "\n```";
    const spec = specOf({
      prompt: "Q?",
      multiple: true,
      options: [{ label: "幅の広い選択肢 ✨", preview }, { label: "B" }],
    });
    const snapshot = createActor(formMachine(spec), { input: { spec } }).start().getSnapshot();
    for (const height of [4, 8, 40])
      for (let width = 1; width <= 300; width++) {
        const lines = screen({ spec, snapshot, theme: plainTheme, width, height }).lines;
        expect(overflowingLines(lines, width)).toEqual([]);
        expect(lines.length).toBeLessThanOrEqual(height);
      }
  });

  it("is sanitized: no escape sequence reaches the screen, controls are shown as pictures", () => {
    const preview = "red \x1b[31mtext\x1b[0m\n\x1b]8;;http://x\x07link\x1b]8;;\x07 bell\x07";
    const { form } = openForm(specOf({ prompt: "Q?", options: [{ label: "A", preview }, { label: "B" }] }));
    for (const width of [60, 120]) {
      const text = form.render(width).join("\n");
      expect(text).not.toContain("\x1b");
      expect(text).not.toContain("\x07");
      expect(text).toContain("red text");
      expect(text).toContain("bell^G");
    }
  });

  it("is cut to a few lines on screen, ending in …", () => {
    const preview = Array.from({ length: 60 }, (_, i) => `line ${i + 1}`).join("\n");
    const { form } = openForm(specOf({ prompt: "Q?", options: [{ label: "A", preview }, { label: "B" }] }));
    for (const width of [60, 120]) {
      const text = form.render(width).join("\n");
      expect(text).toContain("line 1\n");
      expect(text).not.toContain("line 60");
      expect(text).toContain("…");
    }
  });

  it("keeps a click on the preview from choosing the row beside it", () => {
    const spec = specOf(choices(false));
    const snapshot = createActor(formMachine(spec), { input: { spec } }).start().getSnapshot();
    const drawn = screen({ spec, snapshot, theme: plainTheme, width: 120, height: 40 });
    const hits = drawn.hits.filter((h) => h.target.kind === "row");
    expect(hits.length).toBeGreaterThan(0);
    for (const h of hits) expect(h.to).toBeLessThan(60);
  });
});

function tools() {
  const pi = fakePi();
  createFormchart({ agentDir: tempAgentDir() })(pi.api);
  return pi.tools;
}

function press(...keys: string[]) {
  return fakeUiContext((c) =>
    keys.forEach((k) => {
      c.handleInput(k);
    }),
  ).ctx;
}

const question = (multiple: boolean) => ({
  questions: [
    {
      id: "change",
      prompt: "Which change?",
      multiple,
      allowOther: false,
      options: [
        { label: "Retry uploads", preview: DIFF },
        { label: "Longer timeout", preview: CONFIG },
        { label: "Nothing" },
      ],
    },
  ],
});

describe("the tools", () => {
  it.each([
    ["question", { questions: [{ prompt: "Q?", options: [{ label: "A", preview: "x".repeat(LIMITS.preview + 1) }] }] }],
    [
      "questionnaire",
      {
        questions: [
          { id: "a", prompt: "Q?", options: [{ label: "A", preview: "x".repeat(LIMITS.preview + 1) }, { label: "B" }] },
        ],
      },
    ],
    [
      "ask_rich_questions",
      { questions: [{ prompt: "Q?", options: [{ label: "A", preview: "x".repeat(LIMITS.preview + 1) }] }] },
    ],
  ])("%s refuses a preview past the limit with the category of every limit", async (name, args) => {
    const tool = tools().get(name)!;
    const r = await tool.execute(
      "c",
      tool.prepareArguments ? tool.prepareArguments(args) : args,
      undefined,
      undefined,
      press(),
    );
    expect(r.content[0].text).toContain(
      `questions[0].options[0].preview: must be at most ${LIMITS.preview} characters`,
    );
    expect((r.details as { error?: string }).error ?? r.content[0].text).toMatch(/invalid_arguments/);
  });

  it("question: the text and details say the chosen option had a preview", async () => {
    const tool = tools().get("question")!;
    const r = await tool.execute("c", question(false), undefined, undefined, press(KEY.down, KEY.enter));
    expect(r.content[0].text).toBe("Q1: user selected: 2. Longer timeout (with its preview)");
    expect(r.details).toMatchObject({
      answers: [{ id: "change", label: "Longer timeout", index: 2, previewed: true }],
    });
    const plain = await tool.execute("c", question(false), undefined, undefined, press("3"));
    expect(plain.content[0].text).toBe("Q1: user selected: 3. Nothing");
    expect((plain.details as { answers: object[] }).answers[0]).not.toHaveProperty("previewed");
  });

  it("questionnaire: a multi-select's details list the chosen options that had a preview", async () => {
    const tool = tools().get("questionnaire")!;
    const { multiple: _, ...item } = question(true).questions[0];
    const args = { questions: [{ ...item, type: "multi" as const }] };
    const r = await tool.execute("c", args, undefined, undefined, press("1", "3", KEY.enter, KEY.enter));
    expect(r.content[0].text).toBe("Q1: user selected: 1. Retry uploads (with its preview), 3. Nothing");
    expect(r.details).toMatchObject({
      answers: [{ id: "change", label: ["Retry uploads", "Nothing"], previewed: [1] }],
    });
  });

  it("ask_rich_questions: the text is the same as without previews; details echo each option's preview", async () => {
    const tool = tools().get("ask_rich_questions")!;
    const withPreviews = {
      questions: [
        {
          id: "change",
          prompt: "Which change?",
          options: [
            { label: "Retry uploads", preview: DIFF },
            { label: "Longer timeout", preview: CONFIG },
          ],
        },
      ],
    };
    const without = {
      questions: [
        { ...withPreviews.questions[0], options: withPreviews.questions[0].options.map(({ label }) => ({ label })) },
      ],
    };
    const keys = [KEY.down, KEY.enter, KEY.enter];
    const a = await tool.execute("c", withPreviews, undefined, undefined, press(...keys));
    const b = await tool.execute("c", without, undefined, undefined, press(...keys));
    expect(a.content[0].text).toBe(b.content[0].text);
    expect(a.content[0].text).toContain("Longer timeout");
    expect((a.details as { questions: Array<{ options: object[] }> }).questions[0].options[1]).toMatchObject({
      label: "Longer timeout",
      preview: CONFIG,
    });
  });

  it("in dialogs a preview is part of the option's text, on one line without its fences", async () => {
    const { ctx, asked } = rpcContext([(_t, options) => options?.find((o) => o.includes("Longer timeout"))]);
    const r = await tools().get("question")!.execute("c", question(false), undefined, undefined, ctx);
    expect(asked[0].options).toEqual([
      "1. Retry uploads — Preview: -  await upload(file); ⏎ +  await retry(() => upload(file), { times: 3 });",
      "2. Longer timeout — Preview: [network] ⏎ timeout = 30",
      "3. Nothing",
    ]);
    expect(r.content[0].text).toBe("Q1: user selected: 2. Longer timeout (with its preview)");
  });
});
