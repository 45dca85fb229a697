/**
 * The page of a form in a browser tab and the files it loads, all served by
 * the form's own server: the page's script (client/, bundled by `npm run
 * build` into dist/web-client.js) and its style. Nothing comes from another
 * host; the page names no font, so the browser's own draws it.
 */
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { pageHead } from "../html.js";
import { escapeHtml } from "../text.js";

/** The page's files by name, read on first use. */
const FILES: Record<string, { type: string; paths: () => string[] }> = {
  "client.js": {
    type: "text/javascript",
    paths: () => [fileURLToPath(new URL("../../dist/web-client.js", import.meta.url))],
  },
  "style.css": { type: "text/css", paths: () => [fileURLToPath(new URL("./page.css", import.meta.url))] },
  "icon.svg": { type: "image/svg+xml", paths: () => [fileURLToPath(new URL("./icon.svg", import.meta.url))] },
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

/** The one text of the model's in the page's markup: the title, escaped; the form itself is drawn by the script. */
export function pageHtml(title: string, where: string): string {
  return `${pageHead(title, { href: "style.css" }).replace("</head>", '<link rel="icon" href="icon.svg">\n</head>')}<body>
<header>
<p id="status" role="status" data-where="${escapeHtml(where)}">Connecting…</p>
</header>
<main id="form" aria-busy="true"></main>
<p id="said" class="said" role="alert" hidden></p>
<p id="heard" class="hidden" aria-live="polite"></p>
<script src="client.js"></script>
</body>
</html>
`;
}
