/**
 * The page of a form in a browser tab and the files it loads, all served by
 * the form's own server: xterm.js and its fit addon from the package's
 * dependencies, the page's script (client/, bundled by `npm run build` into
 * dist/web-client.js) and style. Nothing comes from another host; the page
 * names no font, so the browser's own monospace font draws it.
 */
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { pageHead } from "../html.js";
import { escapeHtml } from "../text.js";

const require = createRequire(import.meta.url);
/** Where xterm.js is installed, looked up when a page first asks for a file. */
const xtermDir = () => dirname(require.resolve("@xterm/xterm"));

/** The page's files by name, read on first use. */
const FILES: Record<string, { type: string; paths: () => string[] }> = {
  "xterm.js": { type: "text/javascript", paths: () => [join(xtermDir(), "xterm.js")] },
  "fit.js": { type: "text/javascript", paths: () => [require.resolve("@xterm/addon-fit")] },
  "client.js": {
    type: "text/javascript",
    paths: () => [fileURLToPath(new URL("../../dist/web-client.js", import.meta.url))],
  },
  "style.css": {
    type: "text/css",
    paths: () => [join(xtermDir(), "..", "css", "xterm.css"), fileURLToPath(new URL("./page.css", import.meta.url))],
  },
};
const read = new Map<string, string>();

export function asset(name: string): { type: string; body: string } | undefined {
  const file = Object.hasOwn(FILES, name) ? FILES[name] : undefined;
  if (!file) return undefined;
  let body = read.get(name);
  if (body === undefined) {
    body = file
      .paths()
      .map((path) => readFileSync(path, "utf8"))
      .join("\n");
    read.set(name, body);
  }
  return { type: file.type, body };
}

/** The one text of the model's in the page's markup: the title, escaped (controls are gone: it is a display line). */
export function pageHtml(title: string, where: string): string {
  return `${pageHead(title, { href: "style.css" })}<body>
<p id="status" role="status" data-where="${escapeHtml(where)}">Connecting…</p>
<main id="screen" aria-label="The form"></main>
<script src="xterm.js"></script>
<script src="fit.js"></script>
<script src="client.js"></script>
</body>
</html>
`;
}
