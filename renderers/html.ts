/**
 * What every page is made of: its head, and data as JSON inside a script
 * element that it cannot close, with no raw control character a terminal
 * would act on when the file is shown with `cat`.
 */
import { escapeHtml } from "./text.js";

/** Controls a terminal would run, and bidirectional ones that reorder what `cat` shows: escaped in the JSON. */
const CONTROLS = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

/** JSON that can sit inside a `<script>` element: no `<`, no line separators that end it early, no raw controls. */
export function scriptJson(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, "\\u003c")
    .replace(CONTROLS, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
}

/** The opening of a page up to its `<body>`: its style inline (`css`) or linked (`href`). */
export function pageHead(title: string, style: { css: string } | { href: string }, csp?: string): string {
  const styled =
    "css" in style ? `<style>\n${style.css}</style>` : `<link rel="stylesheet" href="${escapeHtml(style.href)}">`;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
${csp ? `<meta http-equiv="Content-Security-Policy" content="${csp}">\n` : ""}<title>${escapeHtml(title)}</title>
${styled}
</head>
`;
}
