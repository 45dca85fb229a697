/**
 * The review page's statechart in a real browser (headless Chromium driven
 * by playwright-core), at the size a reviewer reads it: 1400×1000. For every
 * example and for forms of 12 and 50 questions: each view of the chart opens
 * legible (no text under 11 px) and fits its panel when asked to, the view
 * of every state draws every state, the page opens with the start state in view, the
 * chart names states by question and edges by keys (no event names),
 * dragging pans and the wheel zooms, 120-column screens are not cut, and no
 * page logs an error. The pages are written fresh from the sources into a
 * temporary folder; a screenshot of each goes to test-output/review-chart/.
 * The page of a change to a form is tested in review-diff.test.ts.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "@jest/globals";
import type { Page } from "playwright-core";
import { exampleNames } from "../../bin/form-file.js";
import { type FormSpec, normalizeForm } from "../../machines/spec.js";
import { questionName } from "../../renderers/review/condition-words.js";
import { type ReviewForm, reviewPage } from "../../renderers/review/page.js";
import { chromiumForFile, exampleForm, type WatchedPage, watchedPage } from "../helpers/browser.js";
import { questionsAtLimit } from "../helpers/limit-forms.js";
import { tempAgentDir } from "../helpers/temp.js";

const VIEWPORT = { width: 1400, height: 1000 };

const chromium = chromiumForFile("review-chart");
const OUT = chromium.out;
const dir = tempAgentDir();

/** `n` questions, each after the first shown only when the one before it was answered "Go". */
function chain(n: number): FormSpec {
  return normalizeForm({
    questions: Array.from({ length: n }, (_, i) => ({
      id: `s${i + 1}`,
      label: `Step ${i + 1}`,
      prompt: `Step ${i + 1}: go on?`,
      allowOther: false,
      options: [{ label: "Go" }, { label: "Stop" }],
      when: i === 0 ? undefined : [{ field: `s${i}`, operator: "equals" as const, value: "Go" }],
    })),
  });
}

const example = exampleForm;

const written = new Map<string, string>();
async function write(form: ReviewForm): Promise<string> {
  const file = join(dir, `${form.name}.html`);
  if (!written.has(file)) {
    writeFileSync(file, await reviewPage(form));
    written.set(file, file);
  }
  return file;
}

/** A review page at the size a reviewer reads it, opened once its panel is drawn. */
async function open(file: string): Promise<WatchedPage> {
  const opened = await watchedPage(chromium.browser, file, VIEWPORT);
  await opened.page.locator("#panel h2").first().waitFor();
  return opened;
}

const SHOWN = "#chart .chart-scroll:not([hidden])";

/** How the shown chart lies in its panel: the chart's box, the panel's visible box, the start node's box. */
function geometry(page: Page) {
  return page.evaluate((shown) => {
    const scroller = document.querySelector(shown) as HTMLElement;
    const svg = scroller.querySelector("svg") as SVGSVGElement;
    const box = (r: DOMRect) => ({ left: r.left, top: r.top, right: r.right, bottom: r.bottom, width: r.width });
    const view = scroller.getBoundingClientRect();
    // The visible part of the scroller, without its scroll bars.
    const inner = {
      left: view.left + scroller.clientLeft,
      top: view.top + scroller.clientTop,
      right: view.left + scroller.clientLeft + scroller.clientWidth,
      bottom: view.top + scroller.clientTop + scroller.clientHeight,
      width: scroller.clientWidth,
    };
    const start = scroller.querySelector("g.node.state.selected") as SVGGElement | null;
    return {
      chart: box(svg.getBoundingClientRect()),
      view: inner,
      start: start ? box(start.getBoundingClientRect()) : undefined,
      scroll: { left: scroller.scrollLeft, top: scroller.scrollTop },
      zoom: Number(scroller.dataset.zoom),
    };
  }, SHOWN);
}

/** The height in pixels of the smallest text of the shown chart, as drawn. */
function smallestText(page: Page) {
  return page.evaluate((shown) => {
    const sizes = [...document.querySelectorAll<SVGTextElement>(`${shown} svg text`)].map(
      (t) => (t.getScreenCTM()?.a ?? 0) * Number.parseFloat(t.getAttribute("font-size") ?? "0"),
    );
    return Math.min(...sizes);
  }, SHOWN);
}

const inside = (a: { left: number; top: number; right: number; bottom: number }, b: typeof a) =>
  a.left >= b.left - 1 && a.top >= b.top - 1 && a.right <= b.right + 1 && a.bottom <= b.bottom + 1;

const forms: Array<[string, () => ReviewForm]> = [
  ...exampleNames().map((name): [string, () => ReviewForm] => [name, () => example(name)]),
  ["12 questions", () => ({ spec: chain(12), name: "twelve-questions" })],
  // The question tool's limit: its page is the largest any tool makes (built once, a few seconds).
  ["50 questions", () => ({ spec: questionsAtLimit(), name: "fifty-questions", tool: "question" })],
];

describe.each(forms)("the chart of %s at 1400×1000", (_name, form) => {
  it("opens with the start state in view, fits its panel in every view, and names states as the person knows them", async () => {
    const f = form();
    const { page, problems } = await open(await write(f));
    const opening = await geometry(page);
    expect(opening.start).toBeDefined();
    expect(inside(opening.start!, opening.view)).toBe(true);
    // The chart is not squeezed beside the screen: it has at least a third of the window.
    expect(opening.view.width).toBeGreaterThan(1400 / 3);
    // And it opens legible: no text of it under 11 pixels.
    expect(await smallestText(page)).toBeGreaterThanOrEqual(11);

    const views = await page.locator("#chart .views button").evaluateAll((bs) => bs.map((b) => b.dataset.view ?? ""));
    expect(views).toEqual(f.spec.questions.length > 6 ? ["overview", "states", "loops"] : ["states", "loops"]);
    for (const view of views) {
      await page.locator(`#chart .views button[data-view="${view}"]`).click();
      // Each view opens legible too.
      expect({ view, smallest: (await smallestText(page)) >= 11 }).toEqual({ view, smallest: true });
      await page.locator("#chart .zoom button[data-zoom=fit]").click();
      const fitted = await geometry(page);
      expect({ view, fits: inside(fitted.chart, fitted.view) }).toEqual({ view, fits: true });
      // It fills the panel in one direction at least, unless that would enlarge it more than half again.
      const fill = Math.max(
        fitted.chart.width / fitted.view.width,
        (fitted.chart.bottom - fitted.chart.top) / (fitted.view.bottom - fitted.view.top),
      );
      expect({ view, fills: fill > 0.85 || fitted.zoom >= 1.5 }).toEqual({ view, fills: true });
    }
    // The view of every state and key draws every state of the index, however many questions there are.
    await page.locator(`#chart .views button[data-view="loops"]`).click();
    const drawn = await page
      .locator(`${SHOWN} g.node.state`)
      .evaluateAll((gs) => gs.map((g) => (g as SVGGElement).dataset.state));
    const listed = await page
      .locator("#state-index a.state-link")
      .evaluateAll((as) => as.map((a) => (a as HTMLElement).dataset.state));
    expect(drawn.sort()).toEqual(listed.sort());
    await page.locator(`#chart .views button[data-view="states"]`).click();
    const texts = await page
      .locator(`${SHOWN} g.node text, ${SHOWN} g.cluster text`)
      .evaluateAll((ts) => ts.map((t) => t.textContent ?? "").join(" "));
    f.spec.questions.forEach((_, i) => {
      expect(texts).toContain(questionName(f.spec, i));
    });
    const edges = await page
      .locator(`${SHOWN} g.edge text`)
      .evaluateAll((ts) => ts.map((t) => t.textContent ?? "").join(" "));
    expect(edges).not.toMatch(/\b(CONFIRM|NEXT_TAB|PREV_TAB|MOVE_TO|ADVANCE|SELECT|TOGGLE|RESUME)\b/);
    await page.screenshot({ path: join(OUT, `${f.name}.png`) });
    await page.close();
    expect(problems).toEqual([]);
  }, 120_000);
});

describe("the chart's controls", () => {
  it("pans by dragging, zooms by the wheel, and a drag is not a click", async () => {
    const { page, problems } = await open(await write(example("demo")));
    // Zoomed in past the panel's width, across the window as demo's chart opens, too.
    for (let i = 0; i < 4; i++) await page.locator("#chart .zoom button[data-zoom=in]").click();
    const before = await geometry(page);
    const { view } = before;
    // Press on an empty spot of the chart (its top left corner is margin) and drag.
    const x = view.left + 30;
    const y = view.top + 30;
    await page.mouse.move(x, y);
    await page.mouse.down();
    await page.mouse.move(x - 150, y - 120, { steps: 8 });
    await page.mouse.up();
    const after = await geometry(page);
    expect(after.scroll.left).toBeGreaterThan(before.scroll.left + 100);
    expect(after.scroll.top).toBeGreaterThan(before.scroll.top + 80);
    expect(after.chart.left).toBeLessThan(before.chart.left - 100);
    // Nothing was selected as text while dragging, and the state shown did not change.
    await expect(page.evaluate(() => String(window.getSelection()))).resolves.toBe("");
    await expect(page.locator("#panel h2 small").textContent()).resolves.toBe("q1.choosing");

    const width = before.chart.width;
    await page.mouse.move(view.left + 200, view.top + 200);
    await page.mouse.wheel(0, 400);
    await page.waitForTimeout(100);
    const zoomedOut = await geometry(page);
    expect(zoomedOut.chart.width).toBeLessThan(width * 0.8);
    await page.mouse.wheel(0, -800);
    await page.waitForTimeout(100);
    expect((await geometry(page)).chart.width).toBeGreaterThan(zoomedOut.chart.width * 1.5);
    await page.close();
    expect(problems).toEqual([]);
  }, 60_000);

  it("gives the chart the whole width when asked, legible, with the screen and the routes below it", async () => {
    // A chart legible beside the screen opens there (a wider one opens across the window).
    const { page, problems } = await open(await write(example("form-signup")));
    await expect(page.locator("#chart button.wide").getAttribute("aria-pressed")).resolves.toBe("false");
    const narrow = await geometry(page);
    await page.locator("#chart button.wide").click();
    await expect(page.locator("#chart button.wide").getAttribute("aria-pressed")).resolves.toBe("true");
    const wide = await geometry(page);
    expect(wide.view.width).toBeGreaterThan(1400 * 0.9);
    expect(wide.view.width).toBeGreaterThan(narrow.view.width * 1.5);
    expect(wide.start && inside(wide.start, wide.view)).toBe(true);
    expect(await smallestText(page)).toBeGreaterThanOrEqual(11);
    const below = await page.evaluate(() => {
      const bottom = (document.querySelector("#chart") as HTMLElement).getBoundingClientRect().bottom;
      const top = (id: string) => (document.querySelector(id) as HTMLElement).getBoundingClientRect().top;
      return top("#panel") >= bottom && top("#routes") >= bottom;
    });
    expect(below).toBe(true);
    await page.screenshot({ path: join(OUT, "form-signup-wide.png") });
    await page.locator("#chart button.wide").click();
    expect((await geometry(page)).view.width).toBeCloseTo(narrow.view.width, 0);
    await page.close();
    expect(problems).toEqual([]);
  }, 60_000);

  it("shows a 120-column screen whole beside a chart that keeps its room", async () => {
    const { page, problems } = await open(await write(example("branching")));
    await page.locator('.widths button[data-width="120"]').click();
    const sizes = await page.evaluate(() => {
      const term = (document.querySelector("#panel .term") as HTMLElement).getBoundingClientRect();
      const panel = (document.querySelector("#panel") as HTMLElement).getBoundingClientRect();
      const chart = (document.querySelector("#chart") as HTMLElement).getBoundingClientRect();
      const routes = (document.querySelector("#route-list") as HTMLElement).getBoundingClientRect();
      const row = document.querySelector("#panel .term > div") as HTMLElement;
      return {
        term: term.right,
        panel: panel.right,
        chart: chart.width,
        routes: routes.width,
        overflow: row.scrollWidth - (document.querySelector("#panel .term") as HTMLElement).clientWidth,
        font: Number.parseFloat(getComputedStyle(document.querySelector("#panel .term") as HTMLElement).fontSize),
      };
    });
    expect(sizes.term).toBeLessThanOrEqual(sizes.panel);
    expect(sizes.overflow).toBeLessThanOrEqual(1);
    expect(sizes.chart).toBeGreaterThan(1400 / 3);
    // The screen stays legible: its characters at least 9 pixels high.
    expect(sizes.font).toBeGreaterThanOrEqual(9);
    expect(sizes.routes).toBeGreaterThan(250);
    await page.screenshot({ path: join(OUT, "branching-120.png") });
    await page.close();
    expect(problems).toEqual([]);
  }, 60_000);

  it("opens a form of many questions on the overview, and a question of it into its states", async () => {
    const { page, problems } = await open(await write({ spec: chain(12), name: "twelve-questions" }));
    await expect(page.locator("#chart .views button[aria-pressed=true]").getAttribute("data-view")).resolves.toBe(
      "overview",
    );
    const nodes = await page.locator(`${SHOWN} g.node.state`).count();
    // One node per question, the review and the two outcomes.
    expect(nodes).toBe(12 + 1 + 2);
    // And a few edges per question: the review is a hub, not joined to every question from every other.
    expect(await page.locator(`${SHOWN} g.edge`).count()).toBeLessThanOrEqual(3 * 12);
    await page.locator(`${SHOWN} g.node.state[data-state="q2"]`).click();
    await expect(page.locator("#chart .views button[aria-pressed=true]").getAttribute("data-view")).resolves.toBe(
      "states",
    );
    await expect(page.locator("#panel h2 small").textContent()).resolves.toBe("q2.choosing");
    await expect(page.locator(`${SHOWN} g.node.state.selected`).getAttribute("data-state")).resolves.toBe(
      "q2.choosing",
    );
    // Zoomed onto that question, legible and in the middle of the panel.
    const focused = await geometry(page);
    expect(focused.zoom).toBeGreaterThanOrEqual(1);
    expect(focused.start && inside(focused.start, focused.view)).toBe(true);
    await page.close();
    expect(problems).toEqual([]);
  }, 120_000);

  it("says on the branching page which keys lead to Split, and when", async () => {
    const { page, problems } = await open(await write(example("branching")));
    await page.locator(`${SHOWN} g.node.state[data-state="q2.choosing"]`).click();
    const rows = await page
      .locator("#panel table.leads-here tr:not(:first-child)")
      .evaluateAll((trs) => trs.map((tr) => [...tr.querySelectorAll("td")].map((td) => td.textContent ?? "")));
    expect(rows).toEqual(expect.arrayContaining([["Size · options", "Enter", "when Size is 4 or more (4 or 5)"]]));
    await page.locator(`${SHOWN} g.node.state[data-state="q1.choosing"]`).click();
    const enter = await page
      .locator("#panel table.keys-here tr", { hasText: "CONFIRM" })
      .locator("td.outcomes")
      .textContent();
    expect(enter).toContain("→ Split · options when Size is 4 or more (4 or 5)");
    expect(enter).toContain("→ Team · options when Size is less than 4 (1, 2 or 3)");
    await page.close();
    expect(problems).toEqual([]);
  }, 60_000);

  it("finds a route pasted as the list shows it, and counts where the routes end", async () => {
    const { page, problems } = await open(await write(example("demo")));
    const outcomes = (await page.locator("#route-outcomes").textContent()) ?? "";
    expect(outcomes).toMatch(
      /^1 route ends submitted · \d+ routes end cancelled · \d+ routes stop with the form still open\./,
    );
    // A route of several keys, copied as displayed (`End · Enter`).
    const shown = await page
      .locator("#route-list li .keys")
      .evaluateAll((spans) => spans.map((s) => s.textContent ?? "").filter((t) => t.includes(" · ")));
    const target = shown[Math.floor(shown.length / 2)];
    await page.fill("#route-filter", target);
    const visible = await page
      .locator("#route-list li:not([hidden]) .keys")
      .evaluateAll((spans) => spans.map((s) => s.textContent ?? ""));
    expect(visible).toContain(target);
    expect(visible.length).toBeLessThan(shown.length);
    await expect(page.locator("#route-count").textContent()).resolves.toMatch(/^\d+ of \d+ routes$/);
    // The count of submitting routes filters the list to them.
    await page.locator("#route-outcomes a", { hasText: "submitted" }).click();
    const ends = await page
      .locator("#route-list li:not([hidden]) .to")
      .evaluateAll((spans) => spans.map((s) => s.textContent ?? ""));
    expect(ends).toEqual(["→ Submitted"]);
    await page.close();
    expect(problems).toEqual([]);
  }, 60_000);
});

describe("the page in the person's words", () => {
  it("lists routes and their steps by keys and questions, without event names or state paths", async () => {
    const { page, problems } = await open(await write(example("demo")));
    const list = (await page.locator("#route-list").textContent()) ?? "";
    await page.locator("#route-list li a").nth(3).click();
    await page.locator("#route-steps li").nth(1).waitFor();
    const steps = (await page.locator("#route-steps").textContent()) ?? "";
    const what = (await page.locator("#panel .step-what").textContent()) ?? "";
    for (const text of [list, steps, what]) {
      expect(text).not.toMatch(/\b(MOVE|ABORT|CONFIRM|SELECT|TOGGLE|NEXT_TAB|PREV_TAB|SUBMIT_TEXT|CANCEL)\b/);
      expect(text).not.toMatch(/\bq\d+\.\w+|\breview\.reviewing\b/);
    }
    expect(list).toContain("→ Submitted");
    await page.close();
    expect(problems).toEqual([]);
  }, 60_000);

  it("tells the Enter rows of a typed answer apart by what was typed", async () => {
    const { page, problems } = await open(await write(example("form-signup")));
    await page.goto(`${page.url().split("#")[0]}#state-q1.typing`);
    await page.locator("#panel table.keys-here").waitFor();
    const enter = await page
      .locator("#panel table.keys-here tr td.key")
      .evaluateAll((tds) => tds.map((td) => td.textContent ?? "").filter((t) => t.startsWith("Enter")));
    expect(enter.length).toBeGreaterThan(1);
    expect(new Set(enter).size).toBe(enter.length);
    expect(enter).toContain("Enter, with nothing typed");
    await page.close();
    expect(problems).toEqual([]);
  }, 60_000);
});
