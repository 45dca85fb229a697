/**
 * A review page as it opens in headless Chromium at 1400×900, the size of a
 * laptop's browser window: for every example and for the 50-question form,
 * the chart is in view without scrolling, the start state in it, and no
 * part of the chart is cut on the right; its edge labels do not overlap;
 * the page names states in the person's words (the panel's title, the
 * transition table, the waiting chart in the charts' font); and every digit
 * that selects a row is shown. At a phone's width the chart still opens in
 * view. Screenshots go to test-output/review-opening/.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "@jest/globals";
import type { Page } from "playwright-core";
import { exampleNames } from "../../bin/form-file.js";
import { type ReviewForm, reviewPage } from "../../renderers/review/page.js";
import { chromiumForFile, exampleForm, type WatchedPage, watchedPage } from "../helpers/browser.js";
import { questionsAtLimit } from "../helpers/limit-forms.js";
import { tempAgentDir } from "../helpers/temp.js";

const LAPTOP = { width: 1400, height: 900 };
const PHONE = { width: 390, height: 844 };
const SHOWN = "#chart .chart-scroll:not([hidden])";

const chromium = chromiumForFile("review-opening");
const OUT = chromium.out;
const dir = tempAgentDir();

const example = exampleForm;

const files = new Map<string, Promise<string>>();
function write(form: ReviewForm): Promise<string> {
  let file = files.get(form.name ?? "");
  if (!file) {
    const path = join(dir, `${form.name}.html`);
    file = reviewPage(form).then((html) => {
      writeFileSync(path, html);
      return path;
    });
    files.set(form.name ?? "", file);
  }
  return file;
}

async function open(form: ReviewForm, viewport = LAPTOP): Promise<WatchedPage> {
  const opened = await watchedPage(chromium.browser, await write(form), viewport);
  await opened.page.locator("#panel h2").first().waitFor();
  return opened;
}

/** Where the shown chart lies: the window, the panel's visible box, the chart's box and the start state's. */
function opening(page: Page) {
  return page.evaluate((shown) => {
    const scroller = document.querySelector(shown) as HTMLElement;
    const box = (r: DOMRect) => ({ left: r.left, top: r.top, right: r.right, bottom: r.bottom });
    const outer = scroller.getBoundingClientRect();
    const view = {
      left: outer.left + scroller.clientLeft,
      top: outer.top + scroller.clientTop,
      right: outer.left + scroller.clientLeft + scroller.clientWidth,
      bottom: outer.top + scroller.clientTop + scroller.clientHeight,
    };
    const start = scroller.querySelector("g.node.state.selected") as SVGGElement;
    return {
      window: { left: 0, top: 0, right: innerWidth, bottom: innerHeight },
      view,
      chart: box((scroller.querySelector("svg") as SVGSVGElement).getBoundingClientRect()),
      start: box(start.getBoundingClientRect()),
      scrolled: scrollY,
    };
  }, SHOWN);
}

type Box = { left: number; top: number; right: number; bottom: number };
const inside = (a: Box, b: Box) =>
  a.left >= b.left - 1 && a.top >= b.top - 1 && a.right <= b.right + 1 && a.bottom <= b.bottom + 1;

const forms: Array<[string, () => ReviewForm]> = [
  ...exampleNames().map((name): [string, () => ReviewForm] => [name, () => example(name)]),
  ["50 questions", () => ({ spec: questionsAtLimit(), name: "fifty-questions", tool: "question" })],
];

describe.each(forms)("the page of %s at 1400×900", (name, form) => {
  it("opens on the chart: in view without scrolling, the start state in it, nothing cut on the right", async () => {
    const { page, problems } = await open(form());
    const at = await opening(page);
    expect(at.scrolled).toBe(0);
    // Most of the window's height below the chart's top is chart.
    expect(at.view.top).toBeLessThan(LAPTOP.height * 0.25);
    expect({ start: inside(at.start, at.view) && inside(at.start, at.window) }).toEqual({ start: true });
    expect({ right: at.chart.right <= at.view.right + 1 }).toEqual({ right: true });
    await page.screenshot({ path: join(OUT, `${name}.png`) });
    await page.close();
    expect(problems).toEqual([]);
  }, 120_000);

  it("draws no edge label over another", async () => {
    const { page, problems } = await open(form());
    const overlaps = await page.evaluate((shown) => {
      const labels = [...document.querySelectorAll(`${shown} g.edge`)].map((g) => ({
        id: g.id,
        boxes: [...g.querySelectorAll("text")].map((t) => t.getBoundingClientRect()),
      }));
      const meet = (a: DOMRect, b: DOMRect) =>
        a.left < b.right - 0.5 && b.left < a.right - 0.5 && a.top < b.bottom - 0.5 && b.top < a.bottom - 0.5;
      const found: string[] = [];
      labels.forEach((a, i) => {
        for (const b of labels.slice(i + 1))
          if (a.boxes.some((x) => b.boxes.some((y) => meet(x, y)))) found.push(`${a.id} × ${b.id}`);
      });
      return found;
    }, SHOWN);
    expect(overlaps).toEqual([]);
    await page.close();
    expect(problems).toEqual([]);
  }, 120_000);
});

describe("a page at a phone's width", () => {
  it.each(["branching", "fifty-questions"])(
    "opens %s with the chart in view",
    async (name) => {
      const form =
        name === "branching" ? example(name) : { spec: questionsAtLimit(), name: "fifty-questions", tool: "question" };
      const { page, problems } = await open(form, PHONE);
      const at = await opening(page);
      expect(at.view.top).toBeLessThan(PHONE.height * 0.5);
      expect(inside(at.start, at.window)).toBe(true);
      await page.screenshot({ path: join(OUT, `${name}-phone.png`) });
      await page.close();
      expect(problems).toEqual([]);
    },
    120_000,
  );
});

describe("the page in the person's words", () => {
  it("titles a state by its words, lists states by question and finds one by a filter", async () => {
    const { page, problems } = await open(example("branching"));
    await expect(page.locator("#panel h2").textContent()).resolves.toMatch(/^Size · options/);
    const groups = await page.locator("#state-index .group").allTextContents();
    expect(groups.slice(0, 4)).toEqual(["Size", "Split", "Team", "Review"]);
    await page.locator("#state-index summary").click();
    await page.fill("#state-filter", "team");
    const shown = await page
      .locator("#state-index a.state-link:visible")
      .evaluateAll((as) => as.map((a) => (a as HTMLElement).dataset.state));
    expect(shown).toEqual(["q3.choosing", "q3.discarding"]);
    await page.close();
    expect(problems).toEqual([]);
  }, 60_000);

  it("names the transitions of the coverage table by question and state, the machine's names on hover", async () => {
    const { page, problems } = await open(example("branching"));
    const cells = await page
      .locator("#coverage table.transitions td:nth-child(1), #coverage table.transitions td:nth-child(3)")
      .allTextContents();
    expect(cells.length).toBeGreaterThan(10);
    expect(cells.filter((c) => /\bq\d+\.\w+|\breview\.\w+/.test(c))).toEqual([]);
    expect(cells).toContain("Size · options");
    await page.close();
    expect(problems).toEqual([]);
  }, 60_000);

  it("draws the waiting chart in the charts' font, its states in words", async () => {
    const { page, problems } = await open(example("demo"));
    const fonts = await page.evaluate(() => {
      const family = (t: Element) => getComputedStyle(t).fontFamily;
      const waiting = [...document.querySelectorAll("#waiting svg text")];
      return {
        waiting: [...new Set(waiting.map(family))],
        chart: [...new Set([...document.querySelectorAll("#chart svg text")].map(family))],
        states: [...document.querySelectorAll("#waiting svg g.node text")].map((t) => t.textContent ?? ""),
      };
    });
    expect(fonts.waiting).toEqual(fonts.chart);
    expect(fonts.waiting.join()).not.toMatch(/(^|,\s*)"?(times|serif)/i);
    expect(fonts.states.length).toBeGreaterThan(3);
    expect(fonts.states.filter((s) => /[a-z][A-Z]/.test(s))).toEqual([]);
    expect(fonts.states).toContain("put back");
    await page.close();
    expect(problems).toEqual([]);
  }, 60_000);
});

describe("the keys that select a row", () => {
  /** The digits a key list names: `1 2`, `1–3`, `Enter / 4 5`. */
  const digits = (texts: string[]) =>
    [
      ...new Set(
        texts.flatMap((text) =>
          [...text.matchAll(/\b([1-9])(?:–([1-9]))?\b/g)].flatMap(([, a, b]) => {
            const out: number[] = [];
            for (let d = Number(a); d <= Number(b ?? a); d++) out.push(d);
            return out;
          }),
        ),
      ),
    ].sort();

  it("shows every digit of Size's five options, in the key table and on the chart", async () => {
    const { page, problems } = await open(example("branching"));
    // Digits past the last option are ignored: those rows are marked so.
    const table = await page.locator("#panel table.keys-here tr:not(.refused) td.key").allTextContents();
    expect(digits(table)).toEqual([1, 2, 3, 4, 5]);
    const fromSize = await page.evaluate((shown) => {
      const size = document.querySelector(`${shown} g.node.state[data-state="q1.choosing"]`) as SVGGElement;
      return [...document.querySelectorAll(`${shown} g.edge`)]
        .filter((g) => g.classList.contains("out") && size)
        .map((g) => [...g.querySelectorAll("text")].map((t) => t.textContent ?? "").join(" "));
    }, SHOWN);
    expect(digits(fromSize)).toEqual([1, 2, 3, 4, 5]);
    // Each digit where it leads: 1–3 to Team, 4 and 5 to Split.
    const to = async (state: string) => {
      await page.locator(`${SHOWN} g.node.state[data-state="${state}"]`).click();
      const rows = await page
        .locator("#panel table.leads-here tr", { hasText: "Size · options" })
        .locator("td.key")
        .allTextContents();
      return digits(rows);
    };
    expect(await to("q3.choosing")).toEqual([1, 2, 3]);
    expect(await to("q2.choosing")).toEqual([4, 5]);
    await page.close();
    expect(problems).toEqual([]);
  }, 60_000);
});
