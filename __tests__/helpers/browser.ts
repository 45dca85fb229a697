/**
 * Review pages in a real browser: Debian's Chromium, headless, driven by
 * playwright-core (no browser is downloaded), and a page that records what
 * goes wrong on it.
 */
import { existsSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll } from "@jest/globals";
import { type Browser, chromium, type Page } from "playwright-core";
import { loadFormFile } from "../../bin/form-file.js";
import type { ReviewForm } from "../../renderers/review/page.js";

const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
/** Headless, and nothing of its own on the network. */
const FLAGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

export function launchChromium(): Promise<Browser> {
  if (!existsSync(CHROMIUM))
    throw new Error(`No Chromium at ${CHROMIUM}: apt-get install -y chromium (or set CHROMIUM_PATH)`);
  return chromium.launch({ executablePath: CHROMIUM, args: FLAGS });
}

/** One Chromium for a test file, launched before its tests and closed after, and the folder its screenshots go to. */
export function chromiumForFile(name: string): { readonly browser: Browser; readonly out: string } {
  const held = { out: join(import.meta.dirname, "..", "..", "test-output", name) } as { browser: Browser; out: string };
  beforeAll(async () => {
    held.browser = await launchChromium();
    mkdirSync(held.out, { recursive: true });
  }, 60_000);
  afterAll(async () => {
    await held.browser?.close();
  });
  return held;
}

/** An example's form as the review page takes it. */
export function exampleForm(name: string): ReviewForm {
  const loaded = loadFormFile(name);
  if (!loaded.ok) throw new Error(loaded.message);
  return { ...loaded.form, name, tool: loaded.tool };
}

export interface WatchedPage {
  page: Page;
  /** Console errors, page errors, and requests for anything but the page's own files. */
  problems: string[];
}

/** `file` (with `hash`) opened in a new page of `viewport`, with its problems recorded. */
export async function watchedPage(
  browser: Browser,
  file: string,
  viewport: { width: number; height: number },
  hash = "",
): Promise<WatchedPage> {
  const page = await browser.newPage({ viewport });
  const problems: string[] = [];
  page.on("console", (m) => {
    if (m.type() === "error") problems.push(`console: ${m.text()}`);
  });
  page.on("pageerror", (e) => problems.push(`page error: ${e.message}`));
  page.on("request", (r) => {
    if (!r.url().startsWith("file://")) problems.push(`request: ${r.url()}`);
  });
  page.on("requestfailed", (r) => problems.push(`failed: ${r.url()}`));
  await page.goto(pathToFileURL(file).href + hash);
  return { page, problems };
}
