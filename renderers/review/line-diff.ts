/**
 * What changed in texts of several lines and in the rows of two terminal
 * screens, for the page of a change to a form: lines are compared as lines
 * first (an inserted line is marked whole), then a line that replaced one
 * like it word by word (word-diff.ts). A terminal row (the serializer's
 * markup, already escaped) is marked without touching its tags or entities.
 */
import { escapeHtml } from "../text.js";
import { diffRuns, likeness, type Part, partsHtml, type Run, wordDiff } from "./word-diff.js";

// A terminal row as the serializer writes it: tags, escapes (one character each) and characters.
const ROW_PIECE = /<[^>]*>|&(?:#\d+|#x[\da-f]+|[a-z]+);|[^<&]+|[<&]/giu;
const NAMED: Record<string, string> = { lt: "<", gt: ">", amp: "&", quot: '"', apos: "'", nbsp: "\u00a0" };

/** The character an escape stands for (the escape itself when it is not one). */
function entityChar(entity: string): string {
  const body = entity.slice(1, -1);
  if (body[0] === "#") {
    const code = body[1] === "x" || body[1] === "X" ? Number.parseInt(body.slice(2), 16) : Number(body.slice(1));
    return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : "\ufffd";
  }
  return NAMED[body.toLowerCase()] ?? entity;
}

export function rowText(row: string): string {
  let text = "";
  for (const [piece] of row.matchAll(ROW_PIECE)) {
    if (piece[0] === "<" && piece.length > 1) continue;
    text += piece[0] === "&" && piece.length > 1 ? entityChar(piece) : piece;
  }
  return text;
}

/**
 * A terminal row with the changed `parts` of its text (`rowText`) inside
 * `<tag>`: its own tags and escapes stay whole, and a mark closes before a
 * tag and opens again after it, so the markup stays nested.
 */
export function markRow(row: string, parts: readonly Part[], tag: "del" | "ins"): string {
  const changed: Array<[number, number]> = [];
  let at = 0;
  for (const p of parts) {
    if (p.changed && p.text) changed.push([at, at + p.text.length]);
    at += p.text.length;
  }
  if (!changed.length) return row;
  let out = "";
  let pos = 0;
  let open = false;
  let c = 0;
  const inside = () => {
    while (c < changed.length && changed[c][1] <= pos) c++;
    return c < changed.length && changed[c][0] <= pos;
  };
  const text = (chars: string, raw: string) => {
    if (inside() !== open) {
      out += open ? `</${tag}>` : `<${tag}>`;
      open = !open;
    }
    out += raw;
    pos += chars.length;
  };
  for (const [piece] of row.matchAll(ROW_PIECE)) {
    if (piece[0] === "<" && piece.length > 1) {
      if (open) out += `</${tag}>`;
      open = false;
      out += piece;
    } else if (piece[0] === "&" && piece.length > 1) text(entityChar(piece), piece);
    else for (const ch of piece) text(ch, ch === "<" ? "&lt;" : ch === "&" ? "&amp;" : ch);
  }
  if (open) out += `</${tag}>`;
  return out;
}

/** How alike two rows must be (`likeness`) to be compared word by word rather than marked whole. */
const ROWS_ALIKE = 0.4;

function wholeRow(text: string): Part[] {
  const start = text.length - text.trimStart().length;
  const end = text.trimEnd().length;
  if (end <= start) return [{ text, changed: false }];
  return [
    { text: text.slice(0, start), changed: false },
    { text: text.slice(start, end), changed: true },
    { text: text.slice(end), changed: false },
  ];
}

/** Two rows' texts compared word by word, their blank ends (padding) unmarked. */
function rowWords(a: string, b: string): { old: Part[]; new: Part[] } {
  const [ta, tb] = [a.trimEnd(), b.trimEnd()];
  const diff = wordDiff(ta, tb);
  return {
    old: [...diff.old, { text: a.slice(ta.length), changed: false }],
    new: [...diff.new, { text: b.slice(tb.length), changed: false }],
  };
}

/** Lines removed × lines added in one change past which a line pairs only with the one at its place. */
const PAIRS_TRIED = 400;

/** Each line's parts (undefined: not marked), and whether it changed. */
interface LineMarks {
  old: Array<{ parts?: Part[]; changed: boolean }>;
  new: Array<{ parts?: Part[]; changed: boolean }>;
  changed: boolean;
}

/**
 * Lines compared as lines first, so a line inserted or removed is marked
 * whole and the lines around it stay unmarked; then a line that replaced one
 * like it has its changed words marked, unless `marksWords` says no.
 */
function lineMarks(
  oldText: readonly string[],
  newText: readonly string[],
  marksWords: (runs: readonly Run[]) => boolean = () => true,
): LineMarks {
  // A line's blank end (a screen's padding) is not text: it is left out of the comparison.
  const runs = diffRuns(
    oldText.map((t) => t.trimEnd()),
    newText.map((t) => t.trimEnd()),
  );
  const words = marksWords(runs);
  const out: LineMarks = { old: [], new: [], changed: runs.some((run) => "removed" in run) };
  let [i, j] = [0, 0];
  for (const run of runs) {
    if ("same" in run) {
      for (let n = 0; n < run.same; n++, i++, j++) {
        out.old.push({ changed: false });
        out.new.push({ changed: false });
      }
      continue;
    }
    // Each added line pairs with the removed one most like it after the last paired (a few lines: all are tried).
    const [oldPairs, newPairs] = [new Map<number, Part[]>(), new Map<number, Part[]>()];
    const tryAll = run.removed * run.added <= PAIRS_TRIED;
    for (let n = 0, from = 0; words && n < run.added; n++) {
      let [best, most] = [-1, ROWS_ALIKE];
      for (let m = tryAll ? from : n; m < (tryAll ? run.removed : Math.min(run.removed, n + 1)); m++) {
        const alike = likeness(oldText[i + m].trimEnd(), newText[j + n].trimEnd());
        if (alike >= most) [best, most] = [m, alike];
      }
      if (best < 0) continue;
      const pair = rowWords(oldText[i + best], newText[j + n]);
      oldPairs.set(best, pair.old);
      newPairs.set(n, pair.new);
      from = best + 1;
    }
    for (let n = 0; n < run.removed; n++, i++)
      out.old.push({ changed: true, ...(words ? { parts: oldPairs.get(n) ?? wholeRow(oldText[i]) } : {}) });
    for (let n = 0; n < run.added; n++, j++)
      out.new.push({ changed: true, ...(words ? { parts: newPairs.get(n) ?? wholeRow(newText[j]) } : {}) });
  }
  return out;
}

/** Two texts of several lines, escaped, what changed marked line by line (`lineMarks`). */
export function linesDiffHtml(a: string, b: string): { old: string; new: string } {
  const [oldLines, newLines] = [a.split("\n"), b.split("\n")];
  const marks = lineMarks(oldLines, newLines);
  const html = (lines: readonly string[], m: LineMarks["old"], tag: "del" | "ins") =>
    lines.map((line, k) => (m[k].parts ? partsHtml(m[k].parts, tag) : escapeHtml(line))).join("\n");
  return { old: html(oldLines, marks.old, "del"), new: html(newLines, marks.new, "ins") };
}

/**
 * Two screens' rows with what changed marked: a changed row gets the class
 * `del` or `ins`. Screens sharing at least a third of their rows with text
 * are one screen changed: a row that replaced one like it has its changed
 * words marked, any other its whole text. Otherwise no word is marked.
 */
export function screenDiff(
  oldRows: readonly string[],
  newRows: readonly string[],
): { old: string[]; new: string[]; changed: boolean } {
  const [oldText, newText] = [oldRows.map(rowText), newRows.map(rowText)];
  const filled = (texts: readonly string[]) => texts.filter((t) => t.trim()).length;
  const marks = lineMarks(oldText, newText, (runs) => {
    let [shared, at] = [0, 0];
    for (const run of runs) {
      if ("same" in run) shared += filled(oldText.slice(at, at + run.same));
      at += "same" in run ? run.same : run.removed;
    }
    return 3 * shared >= Math.max(filled(oldText), filled(newText));
  });
  const row = (html: string, cls?: "del" | "ins") => `<div${cls ? ` class="${cls}"` : ""}>${html}</div>`;
  const rows = (raw: readonly string[], m: LineMarks["old"], tag: "del" | "ins") =>
    raw.map((r, k) => (m[k].changed ? row(m[k].parts ? markRow(r, m[k].parts, tag) : r, tag) : row(r)));
  return { old: rows(oldRows, marks.old, "del"), new: rows(newRows, marks.new, "ins"), changed: marks.changed };
}
