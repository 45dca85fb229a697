/**
 * A form's page as people who did not make it use it, in headless Chromium:
 * a keyboard walking the tab list with ←/→ as a tab list is walked.
 */
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import type { Browser, Page } from "playwright-core";
import { loadFormFile } from "../../bin/form-file.js";
import { FormSession } from "../../machines/session.js";
import { PageScreen } from "../../renderers/web/page-screen.js";
import { openWebServer } from "../../renderers/web/server.js";
import { launchChromium } from "../helpers/browser.js";

let browser: Browser;
const served: PageScreen[] = [];
beforeAll(async () => {
  browser = await launchChromium();
}, 60_000);
afterAll(async () => {
  for (const form of served) form.session.abort();
  await browser?.close();
});

/** An example served as `npm start -- --web` serves it, and a page open on its link. */
async function openExample(name: string, options: Parameters<Browser["newPage"]>[0] = {}) {
  const loaded = loadFormFile(name);
  if (!loaded.ok) throw new Error(loaded.message);
  const spec = { ...loaded.form.spec, waitMs: undefined };
  const server = await openWebServer({ title: name });
  const form = new PageScreen(new FormSession({ spec }));
  void form.session.outcome.then(() => server.close("Closed where it was served."));
  server.serve(form);
  served.push(form);
  const page = await browser.newPage(options);
  await page.goto(server.url);
  await page.locator('[data-part="body"]').waitFor();
  return { page, form };
}

/** `read` again until `ok` (a screen state, not a sleep); fails saying what was last read. */
async function until<T>(read: () => Promise<T> | T, ok: (value: T) => boolean, what: string): Promise<T> {
  const end = Date.now() + 10_000;
  for (;;) {
    const value = await read();
    if (ok(value)) return value;
    if (Date.now() > end) throw new Error(`${what}; last seen: ${JSON.stringify(value)}`);
    await new Promise((r) => setTimeout(r, 15));
  }
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
