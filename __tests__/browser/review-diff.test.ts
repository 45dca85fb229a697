/**
 * The page of a change to a form (`npm run visualize -- --diff`) in a real
 * browser (headless Chromium driven by playwright-core), at 1400×1000 and
 * 1024×768: a route that a moved condition changed (Split shown from a
 * Size of 3) with both its end screens side by side, whole and legible, and
 * the changed words marked; and the branching example before and after its
 * Split question, with what was added. No page logs an error. The pages are
 * written fresh from the sources into a temporary folder; screenshots go to
 * test-output/review-chart/.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "@jest/globals";
import { loadFormFile } from "../../bin/form-file.js";
import { formDiff, formDiffPage } from "../../renderers/review/diff.js";
import { chromiumForFile, exampleForm, watchedPage } from "../helpers/browser.js";
import { tempAgentDir } from "../helpers/temp.js";

const ROOT = join(import.meta.dirname, "..", "..");
const VIEWPORT = { width: 1400, height: 1000 };

const chromium = chromiumForFile("review-chart");
const OUT = chromium.out;
const dir = tempAgentDir();

const example = exampleForm;

const written = new Set<string>();

describe("the page of a change to a form", () => {
  // Needs routes that choose each value at a condition's boundary (Size 3 and 4), not only the first option.
  it.each([
    [1400, 1000],
    [1024, 768],
  ])(
    "shows the route choosing Size 3 as changed, both its end screens side by side, the changed words marked (%i×%i)",
    async (width, height) => {
      const file = join(dir, "size-3.html");
      if (!written.has(file)) {
        const source = JSON.parse(readFileSync(join(ROOT, "examples", "branching.json"), "utf8"));
        const [, split, team] = source.arguments.questions;
        split.when = "size gte 3";
        team.when = { field: "size", operator: "lt", value: 3 };
        const variant = join(dir, "branching-size-3.json");
        writeFileSync(variant, JSON.stringify(source));
        const loaded = loadFormFile(variant);
        if (!loaded.ok) throw new Error(loaded.message);
        writeFileSync(
          file,
          formDiffPage(await formDiff({ ...example("branching"), name: "before" }, { ...loaded.form, name: "after" })),
        );
        written.add(file);
      }
      const { page, problems } = await watchedPage(chromium.browser, file, { width, height });
      const route = page.locator("#routes details.route", { has: page.locator("summary .keys", { hasText: /^3$/ }) });
      await expect(route.locator("summary .ends").textContent()).resolves.toBe(
        "Team · options (q3.choosing) → now Split · options (q2.choosing)",
      );
      if ((await route.getAttribute("open")) === null) await route.locator("summary").click();
      const layout = await route.evaluate((details) => {
        const terms = [...details.querySelectorAll<HTMLElement>(".pair .term")];
        const box = (e: Element) => e.getBoundingClientRect().toJSON() as DOMRect;
        return {
          boxes: terms.map(box),
          // How much of a row a screen cuts off, at most.
          cut: Math.max(...terms.flatMap((t) => [...t.children].map((row) => row.scrollWidth - t.clientWidth))),
          font: Math.min(...terms.map((t) => Number.parseFloat(getComputedStyle(t).fontSize))),
          marked: terms.map((t) => [...t.querySelectorAll("del, ins")].map((m) => m.textContent)),
          tint: terms.map((t) => getComputedStyle(t.querySelector("del, ins") as Element).backgroundColor),
          page: document.documentElement.scrollWidth,
        };
      });
      // Before and after, next to each other and whole: in one row, inside the window, no row cut off, legible.
      expect(layout.boxes).toHaveLength(2);
      const [before, after] = layout.boxes;
      expect(Math.abs(before.top - after.top)).toBeLessThanOrEqual(1);
      expect(before.right).toBeLessThanOrEqual(after.left);
      expect(after.right).toBeLessThanOrEqual(width);
      expect(layout.page).toBeLessThanOrEqual(width);
      expect(layout.cut).toBeLessThanOrEqual(1);
      expect(layout.font).toBeGreaterThanOrEqual(9);
      // The words that changed, marked on each side, and drawn so.
      expect(layout.marked[0]).toContain("Which team owns the code it touches");
      expect(layout.marked[1]).toContain("Can it be split into smaller pull requests");
      expect(layout.tint.every((c) => c !== "rgba(0, 0, 0, 0)")).toBe(true);
      // The condition that moved, marked word by word in the question's line.
      await expect(
        page.locator("#questions ul.changed li", { hasText: "Split (split)" }).locator("ins").first().textContent(),
      ).resolves.toBe("3");
      await route.scrollIntoViewIfNeeded();
      await page.screenshot({ path: join(OUT, `changes-size-3-${width}.png`) });
      await page.close();
      expect(problems).toEqual([]);
    },
    120_000,
  );

  it("lists the added question, its states and screens, the keys and routes that changed", async () => {
    const before = loadFormFile(join(ROOT, "__tests__", "fixtures", "branching-before-split.json"));
    if (!before.ok) throw new Error(before.message);
    const file = join(dir, "changes.html");
    writeFileSync(
      file,
      formDiffPage(await formDiff({ ...before.form, name: "before" }, { ...example("branching"), name: "after" })),
    );
    const { page, problems } = await watchedPage(chromium.browser, file, VIEWPORT);
    const items = (selector: string) =>
      page.locator(selector).evaluateAll((lis) => lis.map((li) => li.textContent ?? ""));
    expect(await items("#questions ul.added li")).toEqual([
      expect.stringMatching(/^Split \(split\): .*shown when Size is 4 or more \(4 or 5\)$/),
    ]);
    expect(await items("#states ul.added li")).toEqual([
      "Split · options (q2.choosing)",
      "Split · discard what was entered? (q2.discarding)",
    ]);
    expect((await items("#edges ul.added li")).some((t) => t.includes("→ Split · options (q2.choosing): Enter"))).toBe(
      true,
    );
    // The route whose result changed first, open, with what the model receives before and after.
    const first = page.locator("#routes details.route").first();
    await expect(first.getAttribute("open")).resolves.toBe("");
    await expect(first.locator("summary").textContent()).resolves.toBe(
      "4 · Enterthe result changedSubmitted (submitted) → now Review your answers (review.reviewing)",
    );
    await expect(first.locator(".pair .term").count()).resolves.toBe(2);
    await expect(first.locator(".texts pre").count()).resolves.toBe(2);
    // The added question's screen after the change, and nothing before it.
    const added = page.locator("#screens .pair").first();
    await expect(added.locator(".none").textContent()).resolves.toBe("No such state before the change.");
    await expect(added.locator(".term").textContent()).resolves.toContain(
      "Can it be split into smaller pull requests?",
    );
    // The model text, before and after, on each route through the added or changed questions.
    const texts = await page.locator("#model-text pre").count();
    expect(texts % 2).toBe(0);
    expect(texts).toBeGreaterThanOrEqual(4);
    await page.screenshot({ path: join(OUT, "changes.png"), fullPage: true });
    await page.close();
    expect(problems).toEqual([]);
  }, 120_000);

  it("relabelling Size's option 3 `3 (medium)`: the summary counts the answer the routes list, the chart marks Size and Team, and both review pages open from it", async () => {
    const source = JSON.parse(readFileSync(join(ROOT, "examples", "branching.json"), "utf8"));
    source.arguments.questions[0].options[2].label = "3 (medium)";
    const variant = join(dir, "relabelled.json");
    writeFileSync(variant, JSON.stringify(source));
    const loaded = loadFormFile(variant);
    if (!loaded.ok) throw new Error(loaded.message);
    const before = { ...example("branching"), name: "branching" };
    const pages = { old: "relabel.before.html", new: "relabel.after.html" };
    const built = await formDiff(before, { ...loaded.form, name: "relabelled" }, pages);
    writeFileSync(join(dir, pages.old), built.reviewPages.old);
    writeFileSync(join(dir, pages.new), built.reviewPages.new);
    const file = join(dir, "relabel.html");
    writeFileSync(file, formDiffPage(built));
    const { page, problems } = await watchedPage(chromium.browser, file, { width: 1400, height: 900 });
    const contents = await page.locator("nav.contents a").allTextContents();
    // Two routes choose 3 now, each reaching another question before the change: both differ.
    expect(contents).toContain("Where behaviour differs: 2");
    expect(contents).toContain("Routes that end elsewhere: 4");
    expect(contents).toContain("What the model receives: another text after 4 routes");
    await expect(page.locator("#decisions li").allTextContents()).resolves.toEqual([
      "Size 3 → now 3 (medium): before → Team · options (q3.choosing), after → Review your answers (review.reviewing)",
      "Size 3 → now 3 (medium): before → Review · options (q4.choosing), after → Review your answers (review.reviewing)",
    ]);
    // The chart after the change: drawn whole inside the window, the changed states filled and outlined.
    const chart = page.locator("#changes-chart svg");
    await chart.scrollIntoViewIfNeeded();
    const drawn = await chart.evaluate((svg) => {
      const fill = (id: string) =>
        getComputedStyle(svg.querySelector(`g[id="changes-${id}"] > :is(polygon, path)`) as Element).fill;
      return {
        right: svg.getBoundingClientRect().right,
        size: fill("q1_choosing"),
        team: fill("q3_choosing"),
        split: fill("q2_choosing"),
      };
    });
    expect(drawn.right).toBeLessThanOrEqual(1400);
    expect(drawn.size).toBe("rgb(255, 241, 194)");
    expect(drawn.team).toBe("rgb(255, 241, 194)");
    expect(drawn.split).not.toBe("rgb(255, 241, 194)");
    await page.locator("#changes-chart").screenshot({ path: join(OUT, "changes-relabel-chart.png") });
    await page.screenshot({ path: join(OUT, "changes-relabel.png") });
    // Each link opens that form's review page.
    for (const [link, title] of [
      ["before the change (branching)", "Review: branching"],
      ["after the change (relabelled)", "Review: relabelled"],
    ]) {
      await page.locator("#changes-chart a", { hasText: link }).click();
      await expect(page.title()).resolves.toBe(title);
      await page.goBack();
    }
    await page.close();
    expect(problems).toEqual([]);
  }, 120_000);
});
