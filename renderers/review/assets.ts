/**
 * The script and style every review page uses: inlined into a page, or
 * written beside a folder of pages that link them.
 */
import { readFileSync } from "node:fs";

/** The script and style every review page uses. */
export function reviewAssets(): { script: string; style: string } {
  const read = (file: string) => readFileSync(new URL(file, import.meta.url), "utf8");
  return { script: read("./page.client.js"), style: read("./page.css") };
}
