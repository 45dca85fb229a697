/**
 * How answering moves through a form, driven through the real component with
 * the key bytes a person presses: after a change made from the review screen
 * the form goes on to what is still open before it shows the review again.
 */
import { describe, expect, it } from "@jest/globals";
import { loadFormFile } from "../bin/form-file.js";
import { restoreContext } from "../machines/entered.js";
import { formPosition } from "../machines/position.js";
import { type FormSpec, normalizeForm } from "../machines/spec.js";
import { prepareFormFile } from "../tools/engine/catalog.js";
import { KEY, openForm } from "./helpers/fake-host.js";

function example(name: string): FormSpec {
  const loaded = loadFormFile(name);
  if (!loaded.ok) throw new Error(loaded.message);
  return { ...loaded.form.spec, waitMs: undefined };
}

/** The visible text of a render, without styling. */
function text(lines: string[]): string {
  return lines.map((l) => l.replace(/\x1b_pi:c\x07/g, "").replace(/\x1b\[[0-9;]*m/g, "")).join("\n");
}

describe("an answer given from the review screen", () => {
  it("goes on to the question it revealed, then back to the review", () => {
    const spec = example("branching");
    const { form, press } = openForm(spec);
    // Size 1 shows Team; Growth hides Review: the form is complete.
    press("1", "3");
    expect(formPosition(form.session.snapshot)).toEqual({ kind: "review", mode: "reviewing" });
    // Back to Size, now 5: Split is shown and unanswered.
    press("1", "5");
    expect(formPosition(form.session.snapshot)).toEqual({ kind: "question", q: 1, mode: "choosing" });
    expect(text(form.render(80))).toContain("Can it be split");
    press("1");
    expect(formPosition(form.session.snapshot)).toEqual({ kind: "review", mode: "reviewing" });
    form.dispose();
  });

  it("goes to the first open question even when it comes before the one changed", () => {
    const spec = normalizeForm({
      questions: [
        { prompt: "First?", options: [{ label: "A" }, { label: "B" }], allowOther: false },
        { prompt: "Second?", options: [{ label: "C" }, { label: "D" }], allowOther: false },
        { prompt: "Third?", options: [{ label: "E" }, { label: "F" }], allowOther: false },
      ],
    });
    const { form, press } = openForm(spec);
    // Skip the first question (Shift+Tab goes to the review), then go to the second from there.
    press(KEY.shiftTab, "2", "1");
    expect(formPosition(form.session.snapshot)).toEqual({ kind: "question", q: 0, mode: "choosing" });
    press("2");
    expect(formPosition(form.session.snapshot)).toEqual({ kind: "question", q: 2, mode: "choosing" });
    press("1");
    expect(formPosition(form.session.snapshot)).toEqual({ kind: "review", mode: "reviewing" });
    form.dispose();
  });

  it("returns to the review at once when nothing is left open", () => {
    const spec = example("questionnaire");
    const { form, press } = openForm(spec);
    const review = () => formPosition(form.session.snapshot).kind === "review";
    for (let i = 0; i < 10 && !review(); i++) press("1", KEY.enter);
    expect(review()).toBe(true);
    press("1", "2");
    expect(formPosition(form.session.snapshot)).toEqual({ kind: "review", mode: "reviewing" });
    form.dispose();
  });
});

describe("the review screen's cursor", () => {
  /** Twelve questions, all answered with their first option: the form stands on its review screen. */
  function answeredTwelve() {
    const spec = normalizeForm({
      questions: Array.from({ length: 12 }, (_, i) => ({
        label: `Topic ${i + 1}`,
        prompt: `Question ${i + 1}?`,
        options: [{ label: `Yes ${i + 1}` }, { label: `No ${i + 1}` }],
        allowOther: false,
      })),
    });
    const opened = openForm(spec);
    for (let i = 0; i < 12; i++) opened.press("1");
    expect(formPosition(opened.form.session.snapshot)).toEqual({ kind: "review", mode: "reviewing" });
    return opened;
  }
  /** The line the cursor marks on the screen. */
  const marked = (lines: string[]) =>
    text(lines)
      .split("\n")
      .find((l) => l.startsWith("›")) ?? "";

  it("starts on the submit line, and reaches a question past the ninth by ↑ and Enter", () => {
    const { form, press } = answeredTwelve();
    expect(marked(form.render(80))).toMatch(/^› Ready\. Press Enter to submit\.$/);
    press(KEY.up);
    expect(marked(form.render(80))).toMatch(/^› 12\. Topic 12: Yes 12$/);
    expect(text(form.render(80))).toContain("Enter change Topic 12");
    press(KEY.up, KEY.enter);
    expect(formPosition(form.session.snapshot)).toEqual({ kind: "question", q: 10, mode: "choosing" });
    // Its next answer comes back to the review, with the cursor on the submit line again.
    press("2");
    expect(formPosition(form.session.snapshot)).toEqual({ kind: "review", mode: "reviewing" });
    expect(marked(form.render(80))).toMatch(/^› Ready\./);
    press(KEY.enter);
    expect(form.session.snapshot.status).toBe("done");
    expect(form.session.snapshot.context.picks[10].options).toEqual([1]);
    form.dispose();
  });

  it("goes to the first entry with Home, stops at either end, and back to the submit line with End", () => {
    const { form, press } = answeredTwelve();
    press(KEY.home);
    expect(marked(form.render(80))).toMatch(/^› 1\. Topic 1:/);
    press(KEY.up);
    expect(marked(form.render(80))).toMatch(/^› 1\. Topic 1:/);
    press("\x1b[6~", "\x1b[6~");
    expect(marked(form.render(80))).toMatch(/^› 11\. Topic 11:/);
    press(KEY.end, KEY.down);
    expect(marked(form.render(80))).toMatch(/^› Ready\./);
    // A digit still goes straight to its question, wherever the cursor is.
    press(KEY.up, "3");
    expect(formPosition(form.session.snapshot)).toEqual({ kind: "question", q: 2, mode: "choosing" });
    form.dispose();
  });

  it("is on the submit line again when the review is reached by a tab move", () => {
    const { form, press } = answeredTwelve();
    press(KEY.up, KEY.up, KEY.tab, KEY.shiftTab);
    expect(formPosition(form.session.snapshot)).toEqual({ kind: "review", mode: "reviewing" });
    expect(marked(form.render(80))).toMatch(/^› Ready\./);
    form.dispose();
  });
});

describe("a yes/no question", () => {
  it("takes y and n as its answers", () => {
    const spec = example("questionnaire");
    const { form, press } = openForm(spec);
    press("y");
    expect(form.session.snapshot.context.answered[0]).toBe(true);
    expect(form.session.snapshot.context.picks[0].options).toEqual([0]);
    expect(formPosition(form.session.snapshot)).toEqual({ kind: "question", q: 1, mode: "choosing" });
    press(KEY.shiftTab, "n");
    expect(form.session.snapshot.context.picks[0].options).toEqual([1]);
    form.dispose();
  });

  it("says so in its help line, and a question that is not yes/no ignores y", () => {
    const spec = example("questionnaire");
    const { form, press } = openForm(spec);
    expect(text(form.render(120))).toContain("y/n yes/no");
    press("y");
    expect(text(form.render(120))).not.toContain("y/n yes/no");
    press("y");
    expect(form.session.snapshot.context.answered[1]).toBe(false);
    form.dispose();
  });
});

describe("the Submit tab", () => {
  it("is ticked only once the form can be submitted", () => {
    const spec = normalizeForm({
      questions: [
        { prompt: "First?", options: [{ label: "A" }, { label: "B" }], allowOther: false },
        { prompt: "Second?", options: [{ label: "C" }, { label: "D" }], allowOther: false },
      ],
    });
    const { form, press } = openForm(spec);
    const bar = () =>
      text(form.render(80))
        .split("\n")
        .find((l) => l.includes("Submit")) ?? "";
    expect(bar()).toContain("□ Submit");
    expect(bar()).not.toContain("✓");
    press("1");
    expect(bar()).toContain("□ Submit");
    press("1");
    expect(bar()).toContain("✓ Submit");
    form.dispose();
  });
});

describe("a typed choice of a multi-select", () => {
  const spec = normalizeForm({
    questions: [{ prompt: "Which extras?", multiple: true, options: [{ label: "Cache" }, { label: "Queue" }] }],
  });

  it("is unticked by Space and ticked again by Space, keeping its row", () => {
    const { form, press } = openForm(spec);
    press("3", ..."Vector index", KEY.enter);
    expect(form.session.snapshot.context.picks[0].custom).toEqual(["Vector index"]);
    press(" ");
    expect(form.session.snapshot.context.picks[0].custom).toEqual([]);
    expect(text(form.render(80))).toContain("› [ ] 3. ✎ Vector index");
    press(" ");
    expect(form.session.snapshot.context.picks[0].custom).toEqual(["Vector index"]);
    expect(text(form.render(80))).toContain("› [x] 3. ✎ Vector index");
    press(KEY.enter);
    expect(form.session.snapshot.output?.answers[0].custom).toEqual(["Vector index"]);
  });

  it("left unticked is not an answer, and Esc still asks before discarding it", () => {
    const { form, press, results } = openForm(spec);
    press("3", ..."Vector index", KEY.enter, " ", "1", KEY.enter);
    expect(results[0].answers[0]).toMatchObject({ options: [0], custom: [] });
    const again = openForm(spec);
    again.press("3", ..."Vector index", KEY.enter, " ", KEY.esc);
    expect(formPosition(again.form.session.snapshot)).toEqual({ kind: "question", q: 0, mode: "discarding" });
    form.dispose();
  });
});

describe("a text field that is one line", () => {
  it("an ask_form field with a pattern offers no new line, and Shift+Enter adds none", () => {
    const spec = example("form-one-field");
    const { form, press } = openForm(spec);
    expect(text(form.render(100))).not.toContain("Shift+Enter");
    press(..."12", "\x1b[13;2u");
    expect(text(form.render(100))).toContain("This answer is one line");
    press(..."34");
    expect(form.session.snapshot.context.drafts[0]).toBe("1234");
    form.dispose();
  });

  it("a plain string field still takes several lines", () => {
    const spec = normalizeForm({ questions: [{ prompt: "Notes?", options: [], kind: "text" }] });
    const { form, press } = openForm(spec);
    expect(text(form.render(100))).toContain("Shift+Enter new line");
    press("a", "\x1b[13;2u", "b");
    expect(form.session.snapshot.context.drafts[0]).toBe("a\nb");
    form.dispose();
  });
});

describe("the question Esc asks before discarding", () => {
  it("says that the whole form goes, with how many answers", () => {
    const { form, press } = openForm(example("demo"));
    press("1", " ", KEY.enter, KEY.esc);
    const asked = text(form.render(120)).replace(/\s+/g, " ");
    expect(asked).toContain("Discard what you entered?");
    expect(asked).toContain("closes the whole form and discards its 2 answers");
    press(KEY.tab);
    expect(formPosition(form.session.snapshot).kind).toBe("question");
    form.dispose();
  });

  it("names one answer and notes, or what was typed when nothing is answered yet", () => {
    const rich = example("rich");
    const { form, press } = openForm(rich);
    press("1");
    press(KEY.esc);
    expect(text(form.render(120)).replace(/\s+/g, " ")).toContain("discards its 1 answer;");
    const typed = openForm(
      normalizeForm({ questions: [{ prompt: "Pick", options: [{ label: "A" }, { label: "B" }] }] }),
    );
    // A typed draft left in its editor, not saved as the answer.
    typed.press("3", "C", KEY.esc, KEY.esc);
    expect(text(typed.form.render(120)).replace(/\s+/g, " ")).toContain("discards what you typed or ticked;");
    form.dispose();
  });
});

describe("tick all in a multi-select with a largest count", () => {
  const spec = normalizeForm({
    questions: [
      {
        prompt: "Which extras (up to 3)?",
        multiple: true,
        count: { min: 1, max: 3 },
        options: [{ label: "Cache" }, { label: "Queue" }, { label: "Search" }],
      },
    ],
  });

  it("refuses, and says why, where typed choices would take it past the largest count", () => {
    const { form, press } = openForm(spec);
    press("4", ..."Vector index", KEY.enter);
    expect(form.session.snapshot.context.answered[0]).toBe(true);
    press("a");
    expect(form.session.snapshot.context.picks[0]).toEqual({ options: [], custom: ["Vector index"] });
    expect(form.session.snapshot.context.answered[0]).toBe(true);
    expect(text(form.render(100))).toContain(
      'At most 3 may be chosen here (typed choices count too), so "a" cannot tick them all.',
    );
    form.dispose();
  });

  it("still ticks every option where they fit", () => {
    const { form, press } = openForm(spec);
    press("a");
    expect(form.session.snapshot.context.picks[0].options).toEqual([0, 1, 2]);
    expect(form.session.snapshot.context.answered[0]).toBe(true);
    form.dispose();
  });
});

describe("default answers and restored drafts", () => {
  const pick = (allowOther: boolean) =>
    normalizeForm({
      questions: [
        {
          prompt: "Pick",
          allowOther,
          options: [{ label: "A" }, { label: "B" }],
          initial: { options: [], custom: ["Z"] },
        },
        { prompt: "More", options: [{ label: "C" }, { label: "D" }] },
      ],
    });

  it("a default gives a typed answer only where typed answers are allowed, as a draft does", () => {
    const closed = openForm(pick(false));
    expect(closed.form.session.snapshot.context.picks[0]).toEqual({ options: [], custom: [] });
    expect(closed.form.session.snapshot.context.answered[0]).toBe(false);
    expect(text(closed.form.render(80))).not.toContain("Z");
    const open = openForm(pick(true));
    expect(open.form.session.snapshot.context.picks[0]).toEqual({ options: [], custom: ["Z"] });
    expect(open.form.session.snapshot.context.answered[0]).toBe(true);
  });

  it("fit the same picks to a question the same way", () => {
    const spec = normalizeForm({
      questions: [
        {
          prompt: "Several",
          multiple: true,
          options: [{ label: "X" }, { label: "Y" }],
          initial: { options: [1, 1, 0, 5], custom: ["T", "T"] },
        },
      ],
    });
    const opened = openForm(spec).form.session.snapshot.context;
    const stored = { ...opened, picks: [{ options: [1, 1, 0, 5], custom: ["T", "T"] }], answered: [true] };
    const restored = restoreContext(spec, stored);
    expect(restored?.picks).toEqual(opened.picks);
    expect(restored?.answered).toEqual(opened.answered);
    expect(opened.picks[0]).toEqual({ options: [0, 1], custom: ["T"] });
  });
});

describe("Esc on a question a default answer shows", () => {
  const spec = normalizeForm({
    questions: [
      {
        id: "go",
        prompt: "Go ahead?",
        allowOther: false,
        options: [{ label: "Go" }, { label: "Stop" }],
        initial: { options: [0], custom: [] },
      },
      {
        id: "how",
        prompt: "How?",
        allowOther: false,
        options: [{ label: "Fast" }, { label: "Slow" }],
        when: [{ field: "go", operator: "equals", value: "Go" }],
      },
    ],
  });

  it("cancels at once while nothing was entered, as its footer says", () => {
    const { form, press, results } = openForm(spec);
    press(KEY.tab);
    expect(formPosition(form.session.snapshot)).toEqual({ kind: "question", q: 1, mode: "choosing" });
    const footer = text(form.render(120));
    expect(footer).toContain("Esc cancel");
    expect(footer).not.toContain("asks first");
    press(KEY.esc);
    expect(results).toHaveLength(1);
    expect(results[0].cancelled).toBe(true);
  });

  it("asks first once something was entered, as its footer then says", () => {
    const { form, press, results } = openForm(spec);
    // The second question answered, then back to it from the review.
    press(KEY.tab, "1", KEY.shiftTab);
    expect(formPosition(form.session.snapshot)).toMatchObject({ kind: "question", q: 1 });
    expect(text(form.render(120))).toContain("Esc cancel (asks first)");
    press(KEY.esc);
    expect(results).toHaveLength(0);
    expect(formPosition(form.session.snapshot)).toEqual({ kind: "question", q: 1, mode: "discarding" });
  });
});

/** A `question_branch` call as the model makes it, as its form. */
function branchForm(args: object): FormSpec {
  const prepared = prepareFormFile({ tool: "question_branch", arguments: args });
  if (!prepared.ok) throw new Error(prepared.message);
  return { ...prepared.form.spec, waitMs: undefined };
}

const branching = (questions: object[]) => branchForm({ questions });

/**
 * A change of answer that hides later questions says which it drops, and
 * what, until the person moves on; the result holds none of them. Each route
 * answers the later questions, goes back, and changes the earlier answer.
 */
describe("a change of answer that hides answered questions", () => {
  const platforms = branchForm({
    questions: [
      {
        id: "on",
        label: "Platforms",
        prompt: "Where does it run?",
        type: "multi",
        options: [{ label: "Web" }, { label: "Mobile" }],
        allowOther: false,
      },
      {
        id: "browser",
        label: "Browser",
        prompt: "Which browser?",
        when: "on equals Web",
        options: [{ label: "Firefox" }, { label: "Chrome" }],
        allowOther: false,
      },
    ],
  });
  const shipping = branching([
    { id: "ship", label: "Ship", prompt: "Ship today?", type: "yes_no", options: [] },
    {
      id: "channel",
      label: "Channel",
      prompt: "Which channel?",
      when: "ship equals yes",
      options: [{ label: "Stable" }, { label: "Beta" }],
    },
  ]);
  const rated = branching([
    { id: "confidence", label: "Confidence", prompt: "How confident?", type: "rating", options: [] },
    {
      id: "worry",
      label: "Worry",
      prompt: "What worries you?",
      when: "confidence lt 3",
      options: [{ label: "Tests" }, { label: "Docs" }],
    },
  ]);
  const routes: Array<{
    name: string;
    spec: () => FormSpec;
    answer: string[];
    change: string[];
    dropped: string;
    gone: string[];
    end: string[];
  }> = [
    {
      name: "branching: Size changed from the review hides Team and Review",
      spec: () => example("branching"),
      answer: ["1", "1", "1"],
      change: ["1", "5"],
      dropped: "Team (Platform) and Review (Staff engineer) will no longer be asked; their answers are dropped.",
      gone: ["team", "review"],
      end: ["1", KEY.enter],
    },
    {
      name: "branching: Team changed after going back with Shift+Tab hides Review",
      spec: () => example("branching"),
      answer: ["1", "1", "2"],
      change: [KEY.shiftTab, KEY.shiftTab, "3"],
      dropped: "Review (Security) will no longer be asked; its answer is dropped.",
      gone: ["review"],
      end: [KEY.enter],
    },
    {
      name: "a multi-select: unticking Web hides Browser, said on the question itself",
      spec: () => platforms,
      answer: ["1", KEY.enter, "2"],
      change: [KEY.shiftTab, KEY.shiftTab, "1"],
      dropped: "Browser (Chrome) will no longer be asked; its answer is dropped.",
      gone: ["browser"],
      end: ["2", KEY.enter, KEY.enter],
    },
    {
      name: "a yes/no: No hides Channel",
      spec: () => shipping,
      answer: ["y", "1"],
      change: [KEY.shiftTab, KEY.shiftTab, "n"],
      dropped: "Channel (Stable) will no longer be asked; its answer is dropped.",
      gone: ["channel"],
      end: [KEY.enter],
    },
    {
      name: "a rating: 5 hides Worry",
      spec: () => rated,
      answer: ["2", "2"],
      change: [KEY.shiftTab, KEY.shiftTab, "5"],
      dropped: "Worry (Docs) will no longer be asked; its answer is dropped.",
      gone: ["worry"],
      end: [KEY.enter],
    },
  ];

  it.each(routes)("$name", ({ spec, answer, change, dropped, gone, end }) => {
    const s = spec();
    const { form, press, results } = openForm(s);
    press(...answer);
    const shown = () => text(form.render(200));
    expect(shown()).not.toContain("will no longer be asked");
    press(...change);
    expect(shown()).toContain(dropped);
    // The answers are gone already, not at the end.
    for (const id of gone)
      expect(form.session.snapshot.context.answered[s.questions.findIndex((q) => q.id === id)]).toBe(false);
    press(...end);
    expect(results).toHaveLength(1);
    for (const id of gone)
      expect(results[0].answers.find((a) => a.id === id)).toMatchObject({ answered: false, options: [], custom: [] });
    form.dispose();
  });

  it("the notice goes once the person moves on, and comes back for no other change", () => {
    const { form, press } = openForm(example("branching"));
    press("1", "1", "1", "1", "5");
    expect(text(form.render(100))).toContain("will no longer be asked");
    press(KEY.tab);
    expect(text(form.render(100))).not.toContain("will no longer be asked");
    form.dispose();
  });
});
