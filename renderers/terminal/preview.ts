/**
 * An option's preview (sanitized prose or fenced code) in `width` columns:
 * a code line keeps its indentation behind a dotted border and wraps rather
 * than being cut; a `diff` block is coloured; past `maxLines`, "…".
 */
import { fitTo, wrap } from "../text.js";
import type { FormColor, FormTheme } from "../theme.js";

const FENCE = /^\s*(`{3,}|~{3,})\s*([^\s`]*)/;

export interface PreviewLine {
  text: string;
  code: boolean;
  color: FormColor;
}

// Fence lines themselves are not shown.
export function previewParts(preview: string): PreviewLine[] {
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

export function previewLines(preview: string, width: number, maxLines: number, theme: FormTheme): string[] {
  const room = Math.max(1, maxLines);
  const lines: string[] = [];
  let cut = false;
  for (const line of previewParts(preview)) {
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

/** The preview on one line (a select dialog's option), joined by ⏎. */
export function previewLine(preview: string): string {
  return previewParts(preview)
    .map((l) => l.text.trim())
    .filter((t) => t !== "")
    .join(" ⏎ ");
}
