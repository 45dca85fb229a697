/**
 * The overview of a form of many questions: one node per question, the
 * review and the outcomes. Building its page replays every route of a
 * seven-question chain (seven is the fewest that opens on the overview), so
 * it runs with the slow tests, not in the quick loop.
 */
import { describe, expect, it } from "@jest/globals";
import { normalizeForm } from "../machines/spec.js";
import { reviewChart } from "../renderers/review/chart.js";
import { reviewModel, reviewPage } from "../renderers/review/page.js";

describe("the overview of a form of many questions", () => {
  it("draws one node per question, the review and the outcomes, with keys and conditions on its edges", async () => {
    const spec = normalizeForm({
      questions: Array.from({ length: 7 }, (_, i) => ({
        id: `s${i + 1}`,
        label: `Step ${i + 1}`,
        prompt: `Step ${i + 1}?`,
        allowOther: false,
        options: [{ label: "Go" }, { label: "Stop" }],
        when: i === 0 ? undefined : [{ field: `s${i}`, operator: "equals" as const, value: "Go" }],
      })),
    });
    const model = await reviewModel({ spec });
    const overview = reviewChart(spec, model, { overview: true });
    const nodes = [...overview.dot.matchAll(/^ {2}(\w+) \[id=/gm)].map((m) => m[1]).filter((n) => n !== "__start");
    expect(nodes.sort()).toEqual(
      ["any_question", "cancelled", "q1", "q2", "q3", "q4", "q5", "q6", "q7", "review", "submitted"].sort(),
    );
    const step2 = overview.edges.find((e) => e.from === "q1" && e.to === "q2");
    expect(step2?.lines).toContain("Tab / → / Enter / 1 — when Step 1 is Go");
    const html = await reviewPage({ spec, name: "seven" });
    expect(html).toContain('data-view="overview" aria-pressed="true"');
  }, 120_000);
});
