/**
 * The word-by-word comparison of the page of a change to a form
 * (renderers/review/word-diff.ts, line-diff.ts for lines and screen rows): what it marks in the lines a change
 * touches, that it loses no text and keeps the longest common part, that
 * hostile text reaches the markup escaped, that a terminal row is marked
 * without breaking its markup, and that lines of any size are compared
 * within bounds.
 */
import { describe, expect, it } from "@jest/globals";
import { linesDiffHtml, markRow, rowText, screenDiff } from "../renderers/review/line-diff.js";
import {
  diffRuns,
  MAX_EDITS,
  MAX_TOKENS,
  type Part,
  tokens,
  wordDiff,
  wordDiffHtml,
} from "../renderers/review/word-diff.js";
import { escapeHtml } from "../renderers/text.js";

const changed = (parts: readonly Part[]) => parts.filter((p) => p.changed).map((p) => p.text);
const joined = (parts: readonly Part[]) => parts.map((p) => p.text).join("");
const kept = (parts: readonly Part[]) =>
  parts
    .filter((p) => !p.changed)
    .map((p) => p.text)
    .join("");

/** A small deterministic generator (a linear congruential one), so a failure can be run again. */
function random(seed: number) {
  let s = seed >>> 0;
  return (n: number) => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s % n;
  };
}

/** The length of the longest common subsequence, by the textbook table: the oracle for small inputs. */
function lcs(a: readonly string[], b: readonly string[]): number {
  const row = new Array<number>(b.length + 1).fill(0);
  for (const x of a) {
    let diagonal = 0;
    for (let j = 1; j <= b.length; j++) {
      const up = row[j];
      row[j] = x === b[j - 1] ? diagonal + 1 : Math.max(row[j], row[j - 1]);
      diagonal = up;
    }
  }
  return row[b.length];
}

describe("tokens", () => {
  it("are words, runs of white space and single other characters, whole code points", () => {
    expect(tokens("Size ≥ 4 (4 or 5)")).toEqual(["Size", " ", "≥", " ", "4", " ", "(", "4", " ", "or", " ", "5", ")"]);
    expect(tokens("Café  naïve\n日本語")).toEqual(["Café", "  ", "naïve", "\n", "日本語"]);
    // An emoji is one token of two UTF-16 units, never half of one.
    expect(tokens("a😀b")).toEqual(["a", "😀", "b"]);
    expect(tokens("")).toEqual([]);
  });
});

describe("wordDiff", () => {
  it("marks the option added to a list, and nothing else", () => {
    const diff = wordDiff("options: Staff engineer, Security", "options: Staff engineer, Security, CTO");
    expect(changed(diff.old)).toEqual([]);
    expect(changed(diff.new)).toEqual([", CTO"]);
  });

  it("marks the values of a condition that moved", () => {
    const diff = wordDiff("shown when Size is 4 or more (4 or 5)", "shown when Size is 3 or more (3, 4 or 5)");
    expect(changed(diff.old)).toEqual(["4"]);
    expect(changed(diff.new)).toEqual(["3", "3, "]);
    expect(joined(diff.new)).toBe("shown when Size is 3 or more (3, 4 or 5)");
  });

  it("reads a replaced phrase as one change, and leaves the white space around a lone removal alone", () => {
    const phrase = wordDiff("Platform or Payments today", "Growth and Security today");
    expect(changed(phrase.old)).toEqual(["Platform or Payments"]);
    expect(changed(phrase.new)).toEqual(["Growth and Security"]);
    const removal = wordDiff("(1, 2 or 3)", "(1 or 2)");
    expect(changed(removal.new)).toEqual(["2"]);
  });

  it("loses no text and keeps a longest common part, on random texts", () => {
    const next = random(7);
    const words = ["a", "b", "c", " ", ", ", "Team", "Split", "<", "&", "\n"];
    for (let run = 0; run < 300; run++) {
      const text = () => Array.from({ length: next(30) }, () => words[next(words.length)]).join("");
      const [a, b] = [text(), text()];
      const diff = wordDiff(a, b);
      expect(joined(diff.old)).toBe(a);
      expect(joined(diff.new)).toBe(b);
      // What both keep is the same text on both sides.
      expect(kept(diff.old)).toBe(kept(diff.new));
      // And the script's shared tokens are as many as the longest common subsequence has.
      const [ta, tb] = [tokens(a), tokens(b)];
      const same = diffRuns(ta, tb).reduce((n, r) => n + ("same" in r ? r.same : 0), 0);
      expect(same).toBe(lcs(ta, tb));
    }
  });

  it("finds nothing in equal texts and everything in texts with nothing in common", () => {
    expect(wordDiff("same text", "same text")).toEqual({
      old: [{ text: "same text", changed: false }],
      new: [{ text: "same text", changed: false }],
    });
    expect(wordDiff("", "new")).toEqual({ old: [], new: [{ text: "new", changed: true }] });
    expect(wordDiff("x", "y")).toEqual({ old: [{ text: "x", changed: true }], new: [{ text: "y", changed: true }] });
  });
});

describe("wordDiffHtml with hostile text", () => {
  it("escapes every part, inside and outside the marks", () => {
    const before = `Pick <b>one</b> & "go"`;
    const after = `Pick <script>alert('x')</script> & "go"`;
    const html = wordDiffHtml(before, after);
    expect(html.new).not.toMatch(/<script|<\/script|<b>/);
    expect(html.new).toContain("&amp; &quot;go&quot;");
    // Without its marks, each side is its text escaped whole.
    expect(html.old.replace(/<\/?del>/g, "")).toBe(escapeHtml(before));
    expect(html.new.replace(/<\/?ins>/g, "")).toBe(escapeHtml(after));
    // The only tags are the marks.
    expect(html.old.replace(/<\/?del>/g, "")).not.toMatch(/[<>]/);
    expect(html.new.replace(/<\/?ins>/g, "")).not.toMatch(/[<>]/);
  });

  it("shows control characters as pictures and bidirectional overrides as U+FFFD, never raw", () => {
    const html = wordDiffHtml("Team\x1b[31m red", "Team\x07 \u202egreen\u202c");
    expect(html.old).toContain("^[");
    expect(html.new).toContain("^G");
    expect(`${html.old}${html.new}`).not.toMatch(/[\x00-\x08\x1b\x7f\u202a-\u202e]/);
    expect(html.new).toContain("\ufffd");
  });

  it("never cuts an escape or a code point in two at a mark", () => {
    const html = wordDiffHtml("a&b😀c", "a&d😀c");
    expect(html.old).toBe("a&amp;<del>b</del>😀c");
    expect(html.new).toBe("a&amp;<ins>d</ins>😀c");
  });
});

describe("lines of any size", () => {
  it("marks one changed word in the middle of a line of 200,000 characters", () => {
    const half = "word ".repeat(20_000);
    const diff = wordDiff(`${half}Team ${half}`, `${half}Split ${half}`);
    expect(changed(diff.old)).toEqual(["Team"]);
    expect(changed(diff.new)).toEqual(["Split"]);
  });

  it("reports a middle of more than MAX_TOKENS tokens as one change, losing nothing", () => {
    const a = Array.from({ length: MAX_TOKENS }, (_, i) => `a${i}`).join(" ");
    const b = Array.from({ length: MAX_TOKENS }, (_, i) => `b${i}`).join(" ");
    const diff = wordDiff(`start ${a} end`, `start ${b} end`);
    expect(diff.old).toEqual([
      { text: "start ", changed: false },
      { text: a, changed: true },
      { text: " end", changed: false },
    ]);
    expect(joined(diff.new)).toBe(`start ${b} end`);
  });

  it("stops at MAX_EDITS for a middle within MAX_TOKENS that differs everywhere: one change, all of it", () => {
    // Unbounded, a diff of 19,998 tokens with nothing in common takes as many edits.
    const side = (letter: string) => Array.from({ length: MAX_TOKENS / 4 }, (_, i) => `${letter}${i}`).join(" ");
    const [a, b] = [side("a"), side("b")];
    const diff = wordDiff(a, b);
    expect(diff).toEqual({ old: [{ text: a, changed: true }], new: [{ text: b, changed: true }] });
  });

  it("reports a middle of more than MAX_EDITS edits as one change, and one within them exactly", () => {
    // `n` words that differ (each a removal and an addition), each followed by one both share.
    const alternating = (n: number, letter: string) =>
      tokens(Array.from({ length: n }, (_, i) => `${letter}${i} same`).join(" "));
    const changes = (runs: ReturnType<typeof diffRuns>) => runs.filter((r) => "removed" in r);
    const over = MAX_EDITS / 2 + 1;
    const coarse = diffRuns(alternating(over, "x"), alternating(over, "y"));
    expect(changes(coarse)).toHaveLength(1);
    // Only the last word and the space before it are set aside as the common end.
    expect(coarse[coarse.length - 1]).toEqual({ same: 2 });
    const within = diffRuns(alternating(10, "x"), alternating(10, "y"));
    expect(changes(within)).toEqual(Array.from({ length: 10 }, () => ({ removed: 1, added: 1 })));
  });
});

describe("terminal rows", () => {
  const row = `<span></span><span style='color: #06989a;'>› 1. A&lt;b&gt; &amp; c</span><span> tail</span>`;

  it("reads a row's text through its tags and escapes", () => {
    expect(rowText(row)).toBe("› 1. A<b> & c tail");
  });

  it("marks characters inside the row's spans, closing a mark at each tag, and keeps the markup", () => {
    const text = rowText(row);
    // Mark "b> & c t": across an escape, and across the end of one span into the next.
    const from = text.indexOf("b>");
    const to = text.indexOf("ail");
    const parts: Part[] = [
      { text: text.slice(0, from), changed: false },
      { text: text.slice(from, to), changed: true },
      { text: text.slice(to), changed: false },
    ];
    const marked = markRow(row, parts, "ins");
    expect(marked).toBe(
      `<span></span><span style='color: #06989a;'>› 1. A&lt;<ins>b&gt; &amp; c</ins></span><span><ins> t</ins>ail</span>`,
    );
    expect(rowText(marked.replace(/<\/?ins>/g, ""))).toBe(text);
  });

  it("compares two screens row by row: a row added is tinted, a changed row marked word by word", () => {
    const before = ["<span>Who should review?</span>", "<span>1. Staff</span>", "<span>2. Security</span>"];
    const after = [
      "<span>Who else should review?</span>",
      "<span>1. Staff</span>",
      "<span>2. Security</span>",
      "<span>3. CTO</span>",
    ];
    const diff = screenDiff(before, after);
    expect(diff.changed).toBe(true);
    expect(diff.old).toEqual([
      `<div class="del"><span>Who should review?</span></div>`,
      "<div><span>1. Staff</span></div>",
      "<div><span>2. Security</span></div>",
    ]);
    expect(diff.new).toEqual([
      `<div class="ins"><span>Who <ins>else </ins>should review?</span></div>`,
      "<div><span>1. Staff</span></div>",
      "<div><span>2. Security</span></div>",
      `<div class="ins"><span><ins>3. CTO</ins></span></div>`,
    ]);
    // The terminal's blank padding at a row's end is no change, nor is it marked in a row that changed.
    expect(screenDiff(["<span>same</span>"], ["<span>same     </span>"]).changed).toBe(false);
    const padded = screenDiff(
      ["<span>Team</span>", "<span>one two  </span>"],
      ["<span>Team</span>", "<span>one three    </span>"],
    );
    expect(padded.new).toEqual([
      "<div><span>Team</span></div>",
      `<div class="ins"><span>one <ins>three</ins>    </span></div>`,
    ]);
  });

  it("tints the rows of two different screens without marking their words", () => {
    // Seven rows with text, two of them (the borders) shared: less than a third.
    const review = [
      "<span>───</span>",
      "<span>Review your answers</span>",
      "<span>1. Size: 4</span>",
      "<span>2. Split: Yes</span>",
      "<span>Ready. Press Enter to submit.</span>",
      "<span>Enter submit • Esc cancel</span>",
      "<span>───</span>",
    ];
    const closed = ["<span>───</span>", "<span> Submitted.</span>", "", "<span>───</span>"];
    const diff = screenDiff(review, closed);
    expect(diff.old.filter((r) => r.startsWith(`<div class="del">`))).toHaveLength(5);
    expect(diff.new.filter((r) => r.startsWith(`<div class="ins">`))).toHaveLength(2);
    expect([...diff.old, ...diff.new].join("")).not.toMatch(/<(del|ins)>/);
  });
});

describe("texts of several lines (what the model receives)", () => {
  it("mark a line inserted whole, and leave the lines around it unmarked", () => {
    const old = "Size: user selected: 3\nChecks: (skipped)";
    // Word by word alone, the new line's `: (skipped)` would match the old one's and `Checks` be marked.
    expect(linesDiffHtml(old, `${old}\nOwner: (skipped)`)).toEqual({
      old: "Size: user selected: 3\nChecks: (skipped)",
      new: "Size: user selected: 3\nChecks: (skipped)\n<ins>Owner: (skipped)</ins>",
    });
    expect(linesDiffHtml("Size: 3\nChecks: (skipped)", "Size: 3\nOwner: (skipped)\nChecks: (skipped)").new).toBe(
      "Size: 3\n<ins>Owner: (skipped)</ins>\nChecks: (skipped)",
    );
  });

  it("mark a line removed whole, and a line that changed where it changed, paired with the line most like it", () => {
    const marked = linesDiffHtml(
      "Size: 3\nTeam: user selected: 1. Platform\nSkipped by conditions: split",
      "Size: 3\nSkipped by conditions: split, team",
    );
    expect(marked).toEqual({
      old: "Size: 3\n<del>Team: user selected: 1. Platform</del>\nSkipped by conditions: split",
      new: "Size: 3\nSkipped by conditions: split<ins>, team</ins>",
    });
  });

  it("escape what they mark", () => {
    expect(linesDiffHtml("a", "a\n<script>")).toEqual({ old: "a", new: "a\n<ins>&lt;script&gt;</ins>" });
  });
});
