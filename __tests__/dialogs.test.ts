/**
 * The dialog fallback (RPC hosts): the same machine driven through select,
 * input and confirm, one dialog per step.
 */

import { describe, expect, it } from "@jest/globals";
import { loadFormFile } from "../bin/form-file.js";
import { FormSession } from "../machines/session.js";
import { runDialogs } from "../renderers/terminal/dialogs.js";
import { createFormchart } from "../tools/index.js";
import { fakePi, rpcContext } from "./helpers/fake-pi.js";
import { tempAgentDir } from "./helpers/temp.js";

function tools() {
  const pi = fakePi();
  createFormchart({ agentDir: tempAgentDir() })(pi.api);
  return pi;
}

const pick = (needle: string) => (_title: string, options?: string[]) => options?.find((o) => o.includes(needle));

describe("a change of answer in the dialogs", () => {
  it("says which answered questions it drops, as the terminal does", async () => {
    const loaded = loadFormFile("branching");
    if (!loaded.ok) throw new Error(loaded.message);
    const first = (_title: string, options?: string[]) => options?.[0];
    // Size 1, Team Platform, Review Staff engineer; at the review, no; change Size to 5; Split; submit.
    const { ctx, notes } = rpcContext([first, first, first, false, pick("Size"), pick("5"), first, true]);
    const outcome = await runDialogs(ctx.ui, new FormSession({ spec: { ...loaded.form.spec, waitMs: undefined } }));
    expect(notes).toContain(
      "Team (Platform) and Review (Staff engineer) will no longer be asked; their answers are dropped.",
    );
    expect(outcome.result.answers.filter((a) => a.answered).map((a) => a.id)).toEqual(["size", "split"]);
  });
});

describe("every tool works through dialogs", () => {
  it("question: a typed custom answer", async () => {
    const { ctx, asked } = rpcContext([pick("Type something."), "MariaDB"]);
    const r = await tools()
      .tools.get("question")!
      .execute(
        "c",
        { question: "Which database?", options: [{ label: "PostgreSQL" }, { label: "SQLite" }] },
        undefined,
        undefined,
        ctx,
      );
    expect(r.details).toMatchObject({ answer: "MariaDB", wasCustom: true, cancelled: false });
    expect(asked[0]).toEqual({
      kind: "select",
      title: "Which database?",
      options: ["1. PostgreSQL", "2. SQLite", "3. Type something."],
    });
  });

  it("question_input: a refused answer is asked again with the reason", async () => {
    const { ctx, asked } = rpcContext(["2023-02-29", "2023-02-28"]);
    const r = await tools()
      .tools.get("question_input")!
      .execute("c", { question: "Date?", type: "date" }, undefined, undefined, ctx);
    expect(r.details).toEqual({ question: "Date?", answer: "2023-02-28", cancelled: false, outcome: "answered" });
    expect(asked[1].title).toBe("Date? — Must be a calendar date as YYYY-MM-DD.");
  });

  it("questionnaire: multi-select toggles, Done, then confirm submit", async () => {
    const args = {
      questions: [
        { id: "ok", prompt: "Ship?", type: "yes_no", options: [] },
        { id: "areas", prompt: "Areas?", type: "multi", options: [{ label: "UI" }, { label: "API" }] },
      ],
    };
    const { ctx, asked } = rpcContext([pick("Yes"), pick("API"), "✓ Done", true]);
    const r = await tools().tools.get("questionnaire")!.execute("c", args, undefined, undefined, ctx);
    expect(r.content[0].text).toBe("Q1: user selected: 1. Yes\nQ2: user selected: 2. API");
    expect(asked[2].options).toContain("[x] 2. API");
    expect(asked[3]).toMatchObject({ kind: "confirm", title: "Submit these answers?" });
  });

  it("question_branch: only the opened branch is asked", async () => {
    const args = {
      questions: [
        { id: "deploy", prompt: "Deploy?", type: "yes_no", options: [] },
        { id: "env", prompt: "Where?", when: "deploy equals Yes", options: [{ label: "staging" }, { label: "prod" }] },
        {
          id: "why",
          prompt: "Why not?",
          when: "deploy equals No",
          options: [{ label: "Review" }, { label: "Freeze" }],
        },
      ],
    };
    const { ctx, asked } = rpcContext([pick("No"), pick("Freeze"), true]);
    const r = await tools().tools.get("question_branch")!.execute("c", args, undefined, undefined, ctx);
    expect(r.details.skipped).toEqual(["env"]);
    expect(asked.map((a) => a.title)).toEqual(["(1/3) Deploy?", "(3/3) Why not?", "Submit these answers?"]);
  });

  it("question_throttle: waits, then asks", async () => {
    const pi = tools();
    await pi.tools
      .get("question")!
      .execute(
        "a",
        { question: "First?", options: [{ label: "A" }] },
        undefined,
        undefined,
        rpcContext([pick("A")]).ctx,
      );
    const started = Date.now();
    // The countdown is a dialog of its own; the client leaves it alone and it closes when the wait is over.
    const { ctx, asked } = rpcContext([undefined, pick("Yes")]);
    const r = await pi.tools
      .get("question_throttle")!
      .execute(
        "b",
        { question: "Go?", options: [{ label: "Yes" }, { label: "No" }], cooldown: 0.3 },
        undefined,
        undefined,
        ctx,
      );
    expect(r.details).toMatchObject({ answer: "Yes", throttled: true });
    expect(Date.now() - started).toBeGreaterThanOrEqual(250);
    expect(asked[0]).toMatchObject({ kind: "select", options: ["✗ Cancel this question"] });
    expect(asked[0].title).toMatch(/^A question is coming in 1s/);
  });

  it("question_throttle: the client can cancel the countdown", async () => {
    const pi = tools();
    await pi.tools
      .get("question")!
      .execute(
        "a",
        { question: "First?", options: [{ label: "A" }] },
        undefined,
        undefined,
        rpcContext([pick("A")]).ctx,
      );
    const { ctx, asked } = rpcContext([pick("Cancel")]);
    const args = { question: "Go?", options: [{ label: "Yes" }, { label: "No" }], cooldown: 30 };
    const r = await pi.tools.get("question_throttle")!.execute("b", args, undefined, undefined, ctx);
    expect(r.details).toMatchObject({ answer: null, throttled: true, cancelled: true });
    expect(asked).toHaveLength(1);
  });

  it("the form's title, a question's body and context, an option's details and author note reach the dialogs", async () => {
    const notices: string[] = [];
    const { ctx, asked } = rpcContext([pick("Staging"), true]);
    (ctx.ui as { notify: (t: string) => void }).notify = (t) => notices.push(t);
    const args = {
      title: "Release plan",
      description: "Routine release",
      questions: [
        {
          prompt: "Where?",
          body: "Pick a target",
          context: "Friday",
          options: [{ label: "Production", details: "Risky", note: "Freeze at 16:00" }, { label: "Staging" }],
        },
      ],
    };
    await tools().tools.get("ask_rich_questions")!.execute("c", args, undefined, undefined, ctx);
    expect(notices).toContain("Release plan — Routine release");
    expect(asked[0].title).toBe("(1/1) Where? — Pick a target — Context: Friday");
    expect(asked[0].options?.[0]).toBe("1. Production — Risky — » From the author: Freeze at 16:00");
  });

  it("ask_rich_questions: a note on an option and additional notes from the review menu", async () => {
    const args = {
      questions: [
        {
          id: "target",
          prompt: "Where should we deploy?",
          options: [
            { label: "Production", value: "prod" },
            { label: "Staging", value: "stage", recommended: true },
          ],
        },
      ],
    };
    const script = [
      pick("Write a note"),
      pick("Staging"),
      "After smoke tests",
      pick("Staging"),
      false,
      pick("Additional notes"),
      "Ping me",
      true,
    ];
    const { ctx, asked } = rpcContext(script);
    const r = await tools().tools.get("ask_rich_questions")!.execute("c", args, undefined, undefined, ctx);
    expect(r.content[0].text).toContain("     User note: After smoke tests\nSelected answer:\n  - Label: Staging");
    expect(r.details).toMatchObject({ additionalText: "Ping me", cancelled: false });
    expect(asked[0].options).toContain("2. Staging  ★ recommended");
  });

  it("a dismissed dialog backs out one level: the custom editor, then the form", async () => {
    const { ctx } = rpcContext([pick("Type something."), undefined, undefined]);
    const r = await tools()
      .tools.get("question")!
      .execute("c", { question: "Which?", options: [{ label: "A" }] }, undefined, undefined, ctx);
    expect(r.details).toMatchObject({ answer: null, cancelled: true, outcome: "cancelled" });
  });

  it("review names the questions left open, and Submit sends them open", async () => {
    const args = {
      questions: [
        { prompt: "One?", options: [{ label: "A" }] },
        { prompt: "Two?", options: [{ label: "B" }] },
      ],
    };
    const { ctx, asked } = rpcContext([pick("A"), "→ Next question", true]);
    const r = await tools().tools.get("question")!.execute("c", args, undefined, undefined, ctx);
    expect(asked[2].title).toBe("Open: Q2. Submit with it open?");
    expect(r.details).toMatchObject({ outcome: "partial", unanswered: ["q2"] });
  });

  it("review lists unanswered questions to go back to", async () => {
    const args = {
      questions: [
        { prompt: "One?", options: [{ label: "A" }], required: true },
        { prompt: "Two?", options: [{ label: "B" }], required: true },
      ],
    };
    const { ctx, asked } = rpcContext([
      "→ Next question",
      "→ Next question",
      pick("Change 1."),
      pick("A"),
      // An answer given after going back from the review goes on to the question still open, then back.
      pick("B"),
      true,
    ]);
    const r = await tools().tools.get("question")!.execute("c", args, undefined, undefined, ctx);
    expect(asked[2].title).toBe("Unanswered: Q1, Q2. Which question?");
    expect(r.details.answers.map((a: { label: string }) => a.label)).toEqual(["A", "B"]);
  });

  it("an aborted call closes the dialogs and keeps the answers so far", async () => {
    const controller = new AbortController();
    const args = {
      questions: [
        { prompt: "One?", options: [{ label: "A" }] },
        { prompt: "Two?", options: [{ label: "B" }] },
      ],
    };
    const { ctx } = rpcContext([
      pick("A"),
      () => {
        controller.abort();
        return undefined;
      },
    ]);
    const r = await tools().tools.get("question")!.execute("c", args, controller.signal, undefined, ctx);
    expect(r.details).toMatchObject({ cancelled: true, answers: [{ label: "A" }] });
  });
});

describe("the review menu through dialogs", () => {
  it("numbers the shown questions as the terminal does, and a change goes to the question it names", async () => {
    const args = {
      questions: [
        { id: "go", prompt: "Go?", type: "yes_no", options: [] },
        { id: "where", prompt: "Where?", when: "go equals Yes", options: [{ label: "A" }, { label: "B" }] },
        { id: "when", prompt: "When?", options: [{ label: "Now" }, { label: "Later" }] },
      ],
    };
    const { ctx, asked } = rpcContext([
      (_t, o) => o?.find((x) => x.includes("No")),
      (_t, o) => o?.find((x) => x.includes("Now")),
      false,
      (_t, o) => o?.find((x) => x.startsWith("Change 2.")),
      (_t, o) => o?.find((x) => x.includes("Later")),
      true,
    ]);
    const r = await tools().tools.get("question_branch")!.execute("c", args, undefined, undefined, ctx);
    expect(asked[3].options).toEqual(["Submit", "Change 1. Q1: No", "Change 2. Q3: Now", "✎ Additional notes"]);
    expect(asked[4].title).toContain("When?");
    expect(r.content[0].text).toBe(
      "Q1: user selected: 2. No\nQ3: user selected: 2. Later\nSkipped by conditions: where",
    );
  });
});
