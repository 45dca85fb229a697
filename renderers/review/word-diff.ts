/**
 * What changed inside a line, word by word, for the page of a change to a
 * form; the same comparison pairs the rows of two terminal screens.
 *
 * Contract: texts are compared as tokens (a run of letters, digits and marks,
 * a run of white space, or any other single character) by jsdiff's Myers
 * diff, after the common beginning and end are set aside. It is bounded for
 * texts of any size: past `MAX_TOKENS` tokens or `MAX_EDITS` edits in what
 * differs, the differing middle is one change (all removed, all added),
 * coarser but still true. White space between two replacements joins them,
 * so a replaced phrase reads as one. Text is escaped after it is split, so
 * no mark cuts an escape; a terminal row (the serializer's markup, already
 * escaped) is marked without touching its tags or entities.
 */
import { diffArrays } from "diff";
import { escapeHtml } from "./html.js";

/** Tokens of the differing middle past which it is one change (Myers' time grows with tokens × edits). */
export const MAX_TOKENS = 20_000;
/** Edits past which the differing middle is one change. */
export const MAX_EDITS = 400;

export interface Change {
  removed: number;
  added: number;
}

export type Run = { same: number } | Change;

export interface Part {
  text: string;
  changed: boolean;
}

const TOKEN = /[\p{L}\p{M}\p{N}_]+|\s+|[\s\S]/gu;

export function tokens(text: string): string[] {
  return text.match(TOKEN) ?? [];
}

/** The edit script from `a` to `b` (bounded: see the contract). */
export function diffRuns(a: readonly string[], b: readonly string[]): Run[] {
  let start = 0;
  while (start < a.length && start < b.length && a[start] === b[start]) start++;
  let [endA, endB] = [a.length, b.length];
  while (endA > start && endB > start && a[endA - 1] === b[endB - 1]) {
    endA--;
    endB--;
  }
  const runs: Run[] = [];
  const push = (run: Run) => {
    const last = runs[runs.length - 1];
    if ("same" in run) {
      if (run.same === 0) return;
      if (last && "same" in last) last.same += run.same;
      else runs.push({ ...run });
    } else if (run.removed || run.added) {
      if (last && "removed" in last) {
        last.removed += run.removed;
        last.added += run.added;
      } else runs.push({ ...run });
    }
  };
  const [midA, midB] = [a.slice(start, endA), b.slice(start, endB)];
  const whole = { removed: midA.length, added: midB.length };
  const script =
    midA.length && midB.length && midA.length + midB.length <= MAX_TOKENS
      ? diffArrays(midA, midB, { maxEditLength: MAX_EDITS })
      : undefined;
  push({ same: start });
  if (!script) push(whole);
  else
    for (const c of script)
      push(c.added ? { removed: 0, added: c.count } : c.removed ? { removed: c.count, added: 0 } : { same: c.count });
  push({ same: a.length - endA });
  return runs;
}

/** Runs of white space between two replacements (words removed and others added), made part of one replacement. */
function joinChanges(runs: readonly Run[], a: readonly string[]): Run[] {
  const out: Run[] = [];
  let at = 0;
  runs.forEach((run, i) => {
    const last = out[out.length - 1];
    if ("same" in run) {
      const next = runs[i + 1];
      const blank = a.slice(at, at + run.same).every((t) => /^\s+$/u.test(t));
      const replaced = (r: Run | undefined): r is Change => !!r && "removed" in r && r.removed > 0 && r.added > 0;
      if (blank && replaced(last) && replaced(next)) {
        last.removed += run.same;
        last.added += run.same;
      } else out.push({ ...run });
      at += run.same;
    } else {
      if (last && "removed" in last) {
        last.removed += run.removed;
        last.added += run.added;
      } else out.push({ ...run });
      at += run.removed;
    }
  });
  return out;
}

export function wordDiff(a: string, b: string): { old: Part[]; new: Part[] } {
  const [ta, tb] = [tokens(a), tokens(b)];
  const runs = joinChanges(diffRuns(ta, tb), ta);
  const old: Part[] = [];
  const add: Part[] = [];
  const part = (into: Part[], list: readonly string[], from: number, count: number, changed: boolean) => {
    if (count === 0) return;
    const text = list.slice(from, from + count).join("");
    const last = into[into.length - 1];
    if (last && last.changed === changed) last.text += text;
    else into.push({ text, changed });
  };
  let [i, j] = [0, 0];
  for (const run of runs) {
    if ("same" in run) {
      part(old, ta, i, run.same, false);
      part(add, tb, j, run.same, false);
      i += run.same;
      j += run.same;
    } else {
      part(old, ta, i, run.removed, true);
      part(add, tb, j, run.added, true);
      i += run.removed;
      j += run.added;
    }
  }
  return { old, new: add };
}

export function partsHtml(parts: readonly Part[], tag: "del" | "ins"): string {
  return parts.map((p) => (p.changed ? `<${tag}>${escapeHtml(p.text)}</${tag}>` : escapeHtml(p.text))).join("");
}

export function wordDiffHtml(a: string, b: string): { old: string; new: string } {
  const diff = wordDiff(a, b);
  return { old: partsHtml(diff.old, "del"), new: partsHtml(diff.new, "ins") };
}

/** How much two texts share, from 0 (nothing) to 1 (the same): twice the shared tokens over all of them. */
export function likeness(a: string, b: string): number {
  const [ta, tb] = [tokens(a), tokens(b)];
  if (ta.length + tb.length === 0) return 1;
  const same = diffRuns(ta, tb).reduce((n, run) => n + ("same" in run ? run.same : 0), 0);
  return (2 * same) / (ta.length + tb.length);
}

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
 * like it has its changed words marked. With `words` false (two screens that
 * share too little to be one changed) no word is marked.
 */
function lineMarks(oldText: readonly string[], newText: readonly string[], words = true): LineMarks {
  // A line's blank end (a screen's padding) is not text: it is left out of the comparison.
  const runs = diffRuns(
    oldText.map((t) => t.trimEnd()),
    newText.map((t) => t.trimEnd()),
  );
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
  const runs = diffRuns(
    oldText.map((t) => t.trimEnd()),
    newText.map((t) => t.trimEnd()),
  );
  const filled = (texts: readonly string[]) => texts.filter((t) => t.trim()).length;
  let shared = 0;
  let at = 0;
  for (const run of runs) {
    if ("same" in run) shared += filled(oldText.slice(at, at + run.same));
    at += "same" in run ? run.same : run.removed;
  }
  const words = 3 * shared >= Math.max(filled(oldText), filled(newText));
  const marks = lineMarks(oldText, newText, words);
  const row = (html: string, cls?: "del" | "ins") => `<div${cls ? ` class="${cls}"` : ""}>${html}</div>`;
  const rows = (raw: readonly string[], m: LineMarks["old"], tag: "del" | "ins") =>
    raw.map((r, k) => (m[k].changed ? row(m[k].parts ? markRow(r, m[k].parts, tag) : r, tag) : row(r)));
  return { old: rows(oldRows, marks.old, "del"), new: rows(newRows, marks.new, "ins"), changed: marks.changed };
}
