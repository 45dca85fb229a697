/**
 * Nothing typed is lost: a form closed without submit leaves a draft in the
 * session; the same form asked again opens with it restored; submit clears it.
 */

import { describe, expect, it } from "@jest/globals";
import type { FormComponent } from "../renderers/terminal/component.js";
import { DRAFT_ENTRY } from "../tools/engine/drafts.js";
import { RESTORED_NOTICE } from "../tools/engine/run.js";
import { createFormchart } from "../tools/index.js";
import { KEY } from "./helpers/fake-host.js";
import { fakePi, fakeUiContext, rpcContext } from "./helpers/fake-pi.js";
import { tempAgentDir } from "./helpers/temp.js";

const args = {
  questions: [
    { id: "db", prompt: "Which database?", options: [{ label: "PostgreSQL" }, { label: "SQLite" }] },
    { id: "why", prompt: "Why?", options: [{ label: "Speed" }, { label: "Cost" }] },
  ],
};

function setup() {
  const pi = fakePi();
  createFormchart({ agentDir: tempAgentDir() })(pi.api);
  const ask = (keys: string[], a: unknown = args, onOpen?: (form: FormComponent) => void) => {
    const { ctx, notices } = fakeUiContext((c) => {
      onOpen?.(c as FormComponent);
      keys.forEach((k) => {
        c.handleInput(k);
      });
    }, pi.entries);
    return { result: pi.tools.get("question")!.execute("c", a, undefined, undefined, ctx), notices };
  };
  return { pi, ask };
}

describe("drafts", () => {
  it("cancel keeps a draft, the same form restores it and says so, submit clears it", async () => {
    const { pi, ask } = setup();
    // Esc closes the editor, Esc asks whether to discard, Esc discards.
    const first = await ask(["2", "3", ..."because", KEY.esc, KEY.esc, KEY.esc]).result;
    expect(first.details.cancelled).toBe(true);
    expect(pi.entries).toHaveLength(1);
    expect(pi.entries[0]).toMatchObject({
      customType: DRAFT_ENTRY,
      data: { context: { answered: [true, false], drafts: ["", "because"] } },
    });

    let screen = "";
    const second = await ask([KEY.tab, "3", KEY.enter, KEY.enter], args, (form) => {
      screen = form.render(80).join("\n");
    }).result;
    expect(screen).toContain(RESTORED_NOTICE);
    expect(screen).toContain("■ Q1");
    // The typed text came back in the editor: Enter on "Type something." then Enter saves it.
    expect(second.content[0].text).toBe("Q1: user selected: 2. SQLite\nQ2: user wrote: because");
    expect(pi.entries.at(-1)).toEqual({ type: "custom", customType: DRAFT_ENTRY, data: { key: expect.any(String) } });

    let third = "";
    await ask([KEY.esc], args, (form) => {
      third = form.render(80).join("\n");
    }).result;
    expect(third).not.toContain(RESTORED_NOTICE);
  });

  it("a different form does not get the draft; a cancel with nothing entered leaves none", async () => {
    const { pi, ask } = setup();
    await ask(["2", KEY.esc, KEY.esc]).result;
    let screen = "";
    await ask([KEY.esc], { questions: [{ prompt: "Other?", options: [{ label: "X" }] }] }, (form) => {
      screen = form.render(80).join("\n");
    }).result;
    expect(screen).not.toContain("↺");
    expect(pi.entries).toHaveLength(1);
  });

  const three = {
    questions: [
      { id: "db", prompt: "Which database?", options: [{ label: "PostgreSQL" }, { label: "SQLite" }] },
      { id: "host", prompt: "Where?", options: [{ label: "Cloud" }, { label: "On site" }] },
      { id: "why", prompt: "Why?", options: [{ label: "Speed" }, { label: "Cost" }] },
    ],
  };

  it("a changed form gets back the answers whose question still matches, and says which", async () => {
    const { ask } = setup();
    // Answer the first two of three, then Esc asks whether to discard, Esc discards.
    await ask(["2", "1", KEY.esc, KEY.esc], three).result;
    const changed = {
      questions: [
        three.questions[0],
        { id: "host", prompt: "Where?", options: [{ label: "Cloud" }, { label: "Edge" }, { label: "On site" }] },
        three.questions[2],
        { id: "when", prompt: "When?", options: [{ label: "Now" }, { label: "Later" }] },
      ],
    };
    let screen = "";
    // Q1 came back; Q2 (options changed), Q3 (never answered) and Q4 (new) are answered now: then submit.
    const r = await ask([KEY.tab, "3", "2", "1", KEY.enter], changed, (form) => {
      screen = form.render(100).join("\n");
    }).result;
    expect(screen).toContain("■ Q1  □ Q2  □ Q3  □ Q4");
    // The notice names what came back, and only that.
    const notice = screen.split("\n").find((line) => line.includes("↺")) ?? "";
    expect(notice).toMatch(/\bQ1\b/);
    expect(notice).not.toMatch(/Q2|Q3|Q4/);
    expect(screen).not.toContain(RESTORED_NOTICE);
    expect(r.content[0].text).toBe(
      "Q1: user selected: 2. SQLite\nQ2: user selected: 3. On site\nQ3: user selected: 2. Cost\nQ4: user selected: 1. Now",
    );
  });

  it("a form with the same ids but other options gets nothing back", async () => {
    const { ask } = setup();
    await ask(["2", "1", KEY.esc, KEY.esc], three).result;
    const other = {
      questions: three.questions.map((q) => ({ ...q, options: [{ label: "Yes" }, { label: "No" }] })),
    };
    let screen = "";
    await ask([KEY.esc], other, (form) => {
      screen = form.render(100).join("\n");
    }).result;
    expect(screen).not.toContain("↺");
    expect(screen).not.toContain("■ Q1");
  });

  it("a failure inside the form closes it as cancelled, keeps a draft and says so", async () => {
    const { pi, ask } = setup();
    type Keyed = { screen: { key: (d: string) => void } };
    const run = ask(["2"], args, (form) => {
      (form as unknown as Keyed).screen.key = () => {
        throw new Error("boom");
      };
    });
    const r = await run.result;
    expect(r.details.cancelled).toBe(true);
    expect(run.notices.at(-1)).toMatch(/the form closed after an error \(boom\); what was entered is kept/);
    expect(pi.entries).toHaveLength(0);
    // Nothing was entered before the failure in this run; now enter something first, then fail.
    const again = ask(["2"], args, (form) => {
      const { screen } = form as unknown as Keyed;
      const original = screen.key.bind(screen);
      let calls = 0;
      screen.key = (d: string) => {
        if (++calls > 1) throw new Error("boom");
        original(d);
      };
      setTimeout(() => form.handleInput("x"), 0);
    });
    expect((await again.result).details.answers).toEqual([{ id: "db", label: "SQLite", wasCustom: false, index: 2 }]);
    expect(pi.entries).toHaveLength(1);
  });

  it("drafts work through dialogs too", async () => {
    const pi = fakePi();
    createFormchart({ agentDir: tempAgentDir() })(pi.api);
    const tool = pi.tools.get("question")!;
    const pick = (needle: string) => (_t: string, options?: string[]) => options?.find((o) => o.includes(needle));
    // A dismissed dialog asks whether to discard what was entered; yes.
    await tool.execute("a", args, undefined, undefined, rpcContext([pick("SQLite"), undefined, true], pi.entries).ctx);
    const { ctx, asked } = rpcContext(["→ Next question", pick("Cost"), true], pi.entries);
    const r = await tool.execute("b", args, undefined, undefined, ctx);
    expect(asked[0].options).toContain("2. SQLite ✓");
    expect(r.content[0].text).toBe("Q1: user selected: 2. SQLite\nQ2: user selected: 2. Cost");
  });
});
