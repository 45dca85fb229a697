/**
 * What changed inside a line, word by word, for the page of a change to a
 * form; line-diff.ts compares texts of several lines and screens' rows.
 *
 * Contract: texts are compared as tokens (a run of letters, digits and marks,
 * a run of white space, or any other single character) by jsdiff's Myers
 * diff, after the common beginning and end are set aside. It is bounded for
 * texts of any size: past `MAX_TOKENS` tokens or `MAX_EDITS` edits in what
 * differs, the differing middle is one change (all removed, all added),
 * coarser but still true. White space between two replacements joins them,
 * so a replaced phrase reads as one. Text is escaped after it is split, so
 * no mark cuts an escape.
 */
import { diffArrays } from "diff";
import { escapeHtml } from "../text.js";

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
  const push = (run: Run) => pushRun(runs, run);
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

/** Appends a copy of `run`, added to the last run when both are of one kind; an empty run adds nothing. */
function pushRun(runs: Run[], run: Run): void {
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
}

/** Runs of white space between two replacements (words removed and others added), made part of one replacement. */
function joinChanges(runs: readonly Run[], a: readonly string[]): Run[] {
  const out: Run[] = [];
  let at = 0;
  const replaced = (r?: Run) => !!r && "removed" in r && r.removed > 0 && r.added > 0;
  runs.forEach((run, i) => {
    const count = "same" in run ? run.same : run.removed;
    const blank = "same" in run && a.slice(at, at + count).every((t) => /^\s+$/u.test(t));
    const joined = blank && replaced(out[out.length - 1]) && replaced(runs[i + 1]);
    pushRun(out, joined ? { removed: count, added: count } : run);
    at += count;
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
