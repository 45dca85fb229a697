/**
 * A form's page as people who did not make it use it, in headless Chromium:
 * a keyboard walking the tab list with ←/→ as a tab list is walked, and the
 * system's own colours (forced colours, as Windows' contrast themes set
 * them) still telling the current question and the highlight apart, and
 * Hebrew and Arabic reading right to left, their punctuation where it
 * belongs; a screen reader told of the clock that closes the form.
 */

import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import type { Browser, Page } from "playwright-core";
import { loadFormFile } from "../../bin/form-file.js";
import { FormSession } from "../../machines/session.js";
import type { FormSpec } from "../../machines/spec.js";
import { PageScreen } from "../../renderers/web/page-screen.js";
import { openWebServer } from "../../renderers/web/server.js";
import { prepareFormFile } from "../../tools/engine/catalog.js";
import { launchChromium } from "../helpers/browser.js";
import { until } from "../helpers/until.js";

let browser: Browser;
const served: PageScreen[] = [];
beforeAll(async () => {
  browser = await launchChromium();
}, 60_000);
afterAll(async () => {
  for (const form of served) form.session.abort();
  await browser?.close();
});

/** An example (or a form) served as `npm start -- --web` serves it, and a page open on its link. */
async function openExample(name: string | FormSpec, options: Parameters<Browser["newPage"]>[0] = {}) {
  const loaded = typeof name === "string" ? loadFormFile(name) : { ok: true as const, form: { spec: name } };
  if (!loaded.ok) throw new Error(loaded.message);
  const spec = { ...loaded.form.spec, waitMs: undefined };
  const server = await openWebServer({ title: "form" });
  const form = new PageScreen(new FormSession({ spec }));
  void form.session.outcome.then(() => server.close("Closed where it was served."));
  server.serve(form);
  served.push(form);
  const page = await browser.newPage(options);
  await page.goto(server.url);
  await page.locator('[data-part="body"]').waitFor();
  return { page, form };
}

const shown = (page: Page) => page.evaluate(() => document.body.dataset.version);
const focusedKey = (page: Page) =>
  page.evaluate(() => (document.activeElement as HTMLElement | null)?.dataset.key ?? document.activeElement?.tagName);

describe("the tab list by keyboard", () => {
  it.each(["questionnaire", "form-signup"])(
    "%s: → and ← walk the tabs one by one, the focus on the current tab, Tab going into its question",
    async (name) => {
      const { page, form } = await openExample(name);
      const count = await page.getByRole("tab").count();
      await page.getByRole("tab", { selected: true }).focus();
      const walk = [
        ...Array.from({ length: count - 1 }, (_, i) => ["ArrowRight", i + 1] as const),
        ["ArrowLeft", count - 2] as const,
      ];
      for (const [key, tab] of walk) {
        await page.keyboard.press(key);
        await until(
          async () => ({ shown: await shown(page), focus: await focusedKey(page) }),
          (s) => s.shown === String(form.version) && s.focus === `tab:${tab}`,
          `${key} selects tab ${tab} and the focus stays on it`,
        );
        expect(await page.getByRole("tab", { selected: true }).getAttribute("data-key")).toBe(`tab:${tab}`);
      }
      expect(form.session.position).toMatchObject({ kind: "question", q: count - 2 });
      await page.keyboard.press("Tab");
      expect(await page.evaluate(() => !!document.activeElement?.closest('[role="tabpanel"]'))).toBe(true);
      await page.close();
    },
  );
});

describe("a question that comes on a phone", () => {
  it("is shown from its top, its prompt in view, the focus on its first option all the same", async () => {
    const prompt = `Which of these should the release notes lead with? ${"Say why in a note where it helps. ".repeat(14)}`;
    const spec = prepareFormFile({
      tool: "question",
      arguments: {
        questions: [
          { id: "a", label: "Lead", prompt, options: ["Speed", "Safety", "Price"] },
          { id: "b", label: "Tone", prompt, options: ["Plain", "Warm"] },
        ],
      },
    });
    if (!spec.ok) throw new Error(spec.message);
    const { page, form } = await openExample(spec.form.spec, { viewport: { width: 360, height: 640 }, hasTouch: true });
    const atTop = () =>
      page.evaluate(() => ({
        scrolled: scrollY,
        legend: document.querySelector("legend")!.getBoundingClientRect().top,
        focus: (document.activeElement as HTMLElement | null)?.dataset.key,
      }));
    expect(await atTop()).toEqual({ scrolled: 0, legend: expect.any(Number), focus: "row:0:0" });
    expect((await atTop()).legend).toBeGreaterThanOrEqual(0);
    // The next question comes after a choice made far down the page.
    await page.locator(".row input").nth(2).scrollIntoViewIfNeeded();
    await page.locator(".row input").nth(2).focus();
    await page.keyboard.press("Space");
    await until(
      async () => ({ q: form.session.position.kind === "question" && form.session.position.q, ...(await atTop()) }),
      (s) => s.q === 1 && s.focus === "row:1:0",
      "the next question has the focus",
    );
    expect(await atTop()).toMatchObject({ scrolled: 0 });
    await page.close();
  });
});

describe("a long preview beside a short list", () => {
  it("is shown whole on a wide screen, above the buttons, and under its option on a narrow one", async () => {
    const code = Array.from({ length: 30 }, (_, i) => `line ${i + 1}: const value${i} = compute(${i});`).join("\n");
    const spec = prepareFormFile({
      tool: "question",
      arguments: {
        questions: [
          {
            id: "a",
            prompt: "Which change?",
            options: [{ label: "Inline", preview: `\`\`\`ts\n${code}\n\`\`\`` }, { label: "Keep" }],
          },
        ],
      },
    });
    if (!spec.ok) throw new Error(spec.message);
    const { page } = await openExample(spec.form.spec, { viewport: { width: 1200, height: 900 } });
    const layout = () =>
      page.evaluate(() => {
        const shown = [...document.querySelectorAll<HTMLElement>(".preview")].filter((e) => e.offsetParent !== null);
        const box = (e: Element | null) => e?.getBoundingClientRect();
        return {
          shown: shown.length,
          whole: shown[0].scrollHeight <= shown[0].clientHeight,
          lines: shown[0].querySelectorAll(".line").length,
          previewBottom: box(shown[0])!.bottom,
          buttonsTop: box(document.querySelector("section > .buttons"))!.top,
          rightOfList: box(shown[0])!.left >= box(document.querySelector(".rows"))!.right,
          underOption: box(shown[0])!.top >= box(document.querySelector(".row label"))!.bottom,
        };
      });
    const wide = await layout();
    expect(wide).toMatchObject({ shown: 1, whole: true, lines: 30, rightOfList: true });
    expect(wide.buttonsTop).toBeGreaterThanOrEqual(wide.previewBottom);
    await page.setViewportSize({ width: 390, height: 900 });
    const narrow = await layout();
    expect(narrow).toMatchObject({ shown: 1, lines: 30, rightOfList: false, underOption: true });
    expect(narrow.buttonsTop).toBeGreaterThanOrEqual(narrow.previewBottom);
    await page.close();
  });
});

describe("names a screen reader reads", () => {
  it("a tab is its label and its state, as one phrase", async () => {
    const { page, form } = await openExample("questionnaire");
    const tabNames = async () => {
      const cdp = await page.context().newCDPSession(page);
      const { nodes } = await cdp.send("Accessibility.getFullAXTree");
      await cdp.detach();
      return nodes.filter((n) => n.role?.value === "tab").map((n) => n.name?.value);
    };
    expect(await tabNames()).toEqual(["Ship, open", "Confidence, open", "Channel, open", "Submit, not ready"]);
    await page.getByRole("radio").first().focus();
    await page.keyboard.press("Space");
    await until(
      () => form.session.position,
      (p) => p.kind === "question" && p.q === 1,
      "the first answer is taken",
    );
    await until(tabNames, (names) => names[0] === "Ship, answered", "the first tab says it is answered");
    await page.close();
  });
});

describe("the focus when a field closes", () => {
  it("a note closed by Esc, or saved by Ctrl+Enter or its button, leaves the focus on its option", async () => {
    const { page, form } = await openExample("rich");
    for (const close of ["Escape", "Control+Enter", "button"]) {
      await page.getByRole("button", { name: /on Staging/ }).focus();
      await page.keyboard.press("Enter");
      await until(
        () => focusedKey(page),
        (key) => key === "field:noting:0:1",
        "the note's field has the focus",
      );
      await page.keyboard.type("after lunch");
      if (close === "button") {
        await page.keyboard.press("Tab");
        expect(await focusedKey(page)).toMatch(/^save:/);
        await page.keyboard.press("Enter");
      } else await page.keyboard.press(close);
      await until(
        async () => ({
          mode: form.session.position.kind === "question" && form.session.position.mode,
          focus: await focusedKey(page),
        }),
        (s) => s.mode === "choosing" && s.focus === "row:0:1",
        `after ${close} the focus is on the option the note was on`,
      );
    }
    // And the keys go on working from there: Space chooses it.
    await page.keyboard.press("Space");
    await until(
      () => form.session.position,
      (p) => p.kind === "question" && p.q === 1,
      "Space chooses Staging and the next question comes",
    );
    await page.close();
  });
});

describe("the clock read out", () => {
  it("once when it starts and once near its end, not at each tick; stopped, it is said no more", async () => {
    const loaded = loadFormFile("single");
    if (!loaded.ok) throw new Error(loaded.message);
    const { page, form } = await openExample({ ...loaded.form.spec, timeoutMs: 12_000 });
    const heard = page.locator("#heard");
    expect(await heard.getAttribute("aria-live")).toBe("polite");
    expect(await heard.textContent()).toMatch(/^◷ Closes in 1[12]s\. Take my time stops the clock\.$/);
    await page.evaluate(() => {
      const w = window as unknown as { heardSince: string[]; ticks: string[] };
      w.heardSince = [];
      w.ticks = [];
      // Every change of the region, and every text of the clock while it changes.
      new MutationObserver(() => w.heardSince.push(document.getElementById("heard")?.textContent ?? "")).observe(
        document.getElementById("heard")!,
        { subtree: true, childList: true, characterData: true },
      );
      new MutationObserver(() => w.ticks.push(document.querySelector(".clock p")?.textContent ?? "")).observe(
        document.body,
        { subtree: true, childList: true, characterData: true },
      );
    });
    await until(
      () => page.evaluate(() => new Set((window as unknown as { ticks: string[] }).ticks).size),
      (n) => n >= 4,
      "the clock ticks four times",
    );
    const said = await page.evaluate(() => [...new Set((window as unknown as { heardSince: string[] }).heardSince)]);
    expect(said).toEqual([expect.stringMatching(/^◷ Closes in (10|9|8)s\.$/)]);
    await page.getByRole("button", { name: "Take my time" }).click();
    await until(
      () => page.locator(".clock").count(),
      (n) => n === 0,
      "the clock stops",
    );
    expect(await heard.textContent()).toBe("");
    expect(form.session.answerLeftMs()).toBeUndefined();
    await page.close();
  });
});

/** What an element looks like in colours: its background (a transparent one shows the page's), text and border. */
function look(page: Page, selector: string): Promise<string> {
  return page
    .locator(selector)
    .first()
    .evaluate((el) => {
      const style = getComputedStyle(el);
      const clear = (c: string) => c === "transparent" || /rgba\(.*, 0\)$/.test(c);
      const background = clear(style.backgroundColor)
        ? getComputedStyle(document.documentElement).backgroundColor
        : style.backgroundColor;
      return [background, style.color, style.borderTopColor, style.borderTopWidth, style.borderTopStyle].join(" ");
    });
}

describe("forced colours", () => {
  it("the current tab and the highlighted option and answer look unlike the others", async () => {
    const { page, form } = await openExample("questionnaire");
    await page.emulateMedia({ forcedColors: "active" });
    // The focus elsewhere: what tells the highlight is the look of its row, not the focus ring.
    await page.getByRole("button", { name: "Next" }).focus();
    expect(await look(page, '[role="tab"][aria-selected="true"]')).not.toBe(
      await look(page, '[role="tab"][aria-selected="false"]'),
    );
    expect(await look(page, ".row.highlighted")).not.toBe(await look(page, ".row:not(.highlighted)"));
    await page.getByRole("tab", { name: /Submit/ }).click();
    await until(
      () => page.locator(".entry").count(),
      (n) => n > 0,
      "the review shows",
    );
    await page.locator(".entry").first().focus();
    await page.keyboard.press("ArrowDown");
    await until(
      () => page.locator(".entry.highlighted").getAttribute("data-key"),
      (key) => key === "entry:1",
      "↓ highlights the second answer",
    );
    await page.getByRole("button", { name: /^Submit/ }).focus();
    expect(await look(page, ".entry.highlighted")).not.toBe(await look(page, ".entry:not(.highlighted)"));
    await page.screenshot({ path: "test-output/web/forced-colours.png" });
    expect(form.session.closed).toBe(false);
    await page.close();
  });
});

/** Where the first and the last character of the first text in `selector` are drawn, from the left. */
function ends(page: Page, selector: string): Promise<{ text: string; first: number; last: number }> {
  return page
    .locator(selector)
    .first()
    .evaluate((el) => {
      const text = document.createTreeWalker(el, NodeFilter.SHOW_TEXT).nextNode() as Text;
      const range = document.createRange();
      const at: number[] = [];
      for (const i of [0, text.data.length - 1]) {
        range.setStart(text, i);
        range.setEnd(text, i + 1);
        at.push(range.getBoundingClientRect().left);
      }
      return { text: text.data, first: at[0], last: at[1] };
    });
}

describe("text that reads right to left", () => {
  it("a Hebrew or Arabic prompt, option, context and typed answer end on their left, where they are read last", async () => {
    const prepared = prepareFormFile({
      tool: "ask_rich_questions",
      arguments: {
        questions: [
          {
            id: "db",
            type: "radio",
            prompt: "באיזה מסד נתונים להשתמש?",
            context: "השירות החדש צריך מסד נתונים.",
            options: [{ label: "כן.", description: "זה מה שכולם משתמשים בו!" }, { label: "لا، شكرا!" }],
          },
          { id: "why", type: "text", prompt: "למה?" },
        ],
      },
    });
    if (!prepared.ok) throw new Error(prepared.message);
    const { page, form } = await openExample(prepared.form.spec, { viewport: { width: 600, height: 700 } });
    for (const selector of [
      "legend",
      ".row .label",
      ".row .description",
      ".row:nth-child(2) .label",
      ".context span",
    ]) {
      const drawn = await ends(page, selector);
      expect({ selector, ...drawn, rightToLeft: drawn.last < drawn.first }).toMatchObject({ rightToLeft: true });
    }
    await page.getByRole("tab", { name: /Q2/ }).click();
    const field = page.locator("[data-field]");
    await field.fill("כי זה טוב.");
    await until(
      () => form.session.editorText,
      (t) => t === "כי זה טוב.",
      "the answer reaches the form",
    );
    expect(await field.evaluate((el) => el.matches(":dir(rtl)"))).toBe(true);
    await page.screenshot({ path: "test-output/web/right-to-left.png" });
    await page.close();
  });
});
