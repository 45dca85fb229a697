/**
 * An option's preview as lines of a given width.
 *
 * Contract: a preview is text the model wrote (already sanitized by the
 * presentation model), a few lines of prose or fenced code blocks. Prose
 * wraps; a code line keeps its indentation, sits behind a dim dotted border and
 * wraps under it rather than being cut; in a `diff` block added and removed
 * lines are coloured. At most `maxLines` lines are drawn, the last ending in
 * "…" when more would follow. Every line fits `width`.
 */
import { fitTo, wrap } from "../text.js";
import type { FormColor, FormTheme } from "../theme.js";

const FENCE = /^\s*(`{3,}|~{3,})\s*([^\s`]*)/;

interface PreviewLine {
  text: string;
  code: boolean;
  color: FormColor;
}

/** The preview's logical lines: prose, or code with the language of its block; fence lines themselves are not shown. */
function parse(preview: string): PreviewLine[] {
  const out: PreviewLine[] = [];
  let fence: { marker: string; lang: string } | undefined;
  for (const line of preview.replace(/\s+$/, "").split("\n")) {
    const m = FENCE.exec(line);
    if (fence && m && m[1][0] === fence.marker[0] && m[1].length >= fence.marker.length && m[2] === "") {
      fence = undefined;
      continue;
    }
    if (!fence && m) {
      fence = { marker: m[1], lang: m[2].toLowerCase() };
      continue;
    }
    if (!fence) {
      out.push({ text: line, code: false, color: "text" });
      continue;
    }
    const diff = fence.lang === "diff" || fence.lang === "patch";
    const color: FormColor =
      diff && line.startsWith("+") ? "success" : diff && line.startsWith("-") ? "error" : "muted";
    out.push({ text: line, code: true, color });
  }
  return out;
}

/** The preview drawn in `width` columns, at most `maxLines` lines. */
export function previewLines(preview: string, width: number, maxLines: number, theme: FormTheme): string[] {
  const room = Math.max(1, maxLines);
  const lines: string[] = [];
  let cut = false;
  for (const line of parse(preview)) {
    if (lines.length >= room) {
      cut = true;
      break;
    }
    // A code line wraps under its border; narrower than the border, it is drawn without one.
    const border = line.code && width >= 4 ? "┆ " : "";
    const pieces = wrap(line.text, width, border);
    for (const piece of pieces) {
      if (lines.length >= room) {
        cut = true;
        break;
      }
      const styled = border
        ? theme.fg("dim", border) + theme.fg(line.color, piece.slice(border.length))
        : theme.fg(line.color, piece);
      lines.push(styled);
    }
  }
  if (cut && lines.length > 0) lines[lines.length - 1] = theme.fg("dim", fitTo(" …", width));
  return lines;
}

/** The preview on one line, for a front end that has one line per option (a select dialog): its lines without fences, joined by ⏎. */
export function previewLine(preview: string): string {
  return parse(preview)
    .map((l) => l.text.trim())
    .filter((t) => t !== "")
    .join(" ⏎ ");
}
