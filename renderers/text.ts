/**
 * Text safe to put on the screen, fitting the width. Contract: what the model
 * wrote never reaches the terminal raw: escape sequences are removed, other
 * controls shown in caret notation (`^[`: every font draws ASCII, where
 * control pictures are missing from common ones), bidi overrides dropped.
 * Wrapping never drops words; what still cannot fit is cut to the width.
 */
import { truncateToWidth, visibleWidth, wrapTextWithAnsi } from "@earendil-works/pi-tui";

// ESC followed by: CSI … final byte | OSC/DCS/SOS/PM/APC … terminator | any single character.
const ESCAPE_SEQUENCE =
  /\x1b(?:\[[0-?]*[ -/]*[@-~]|[\]PX^_][\s\S]*?(?:\x07|\x1b\\|$)|[\s\S]?)|\x9b[0-?]*[ -/]*[@-~]|[\x90\x98\x9d\x9e\x9f][\s\S]*?(?:\x07|\x1b\\|\x9c|$)/g;
const BIDI_CONTROL = /[\u202a-\u202e\u2066-\u2069\u200e\u200f\u061c]/g;
// C0 controls except newline, C1 controls, DEL.
const CONTROL = /[\x00-\x09\x0b-\x1f\x7f-\x9f]/g;

function caretNotation(ch: string): string {
  const code = ch.charCodeAt(0);
  if (ch === "\t") return "  ";
  if (code < 0x20) return `^${String.fromCharCode(0x40 + code)}`;
  if (code === 0x7f) return "^?";
  return "\ufffd";
}

// What a file must not carry raw for a terminal that shows it (`cat`, `less -R`): C0 controls but
// tab and line breaks, DEL, C1 controls, bidirectional controls.
const RAW_CONTROL = /[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

/** Text for a file read in a terminal: controls in caret notation or U+FFFD, nothing removed. */
export function visibleControls(text: string): string {
  return text.replace(RAW_CONTROL, (ch) => (ch.charCodeAt(0) < 0x80 ? caretNotation(ch) : "\ufffd"));
}

/**
 * A memo bounded by the characters of its keys too (long texts keep a few
 * hundred kilobytes, not tens of megabytes); longer keys are never kept.
 * What it hands out is shared, so an array or object is frozen: a caller
 * that adds to one fails at once instead of changing the next caller's.
 */
const MEMO_MAX_KEY = 4000;

export function memo<T>(
  compute: (key: string) => T,
  { maxEntries = 4096, maxChars = 256 * 1024 }: { maxEntries?: number; maxChars?: number } = {},
): (key: string) => T {
  const cache = new Map<string, T>();
  let chars = 0;
  return (key) => {
    if (key.length > MEMO_MAX_KEY) return compute(key);
    let value = cache.get(key);
    if (value === undefined) {
      if (cache.size >= maxEntries || chars + key.length > maxChars) {
        cache.clear();
        chars = 0;
      }
      value = compute(key);
      if (typeof value === "object" && value !== null) Object.freeze(value);
      cache.set(key, value);
      chars += key.length;
    }
    return value;
  };
}

/** `map`'s value for `key`, made once; past `max` entries the map starts again. */
export function keep<K, V>(map: Map<K, V>, key: K, make: () => V, max = Number.POSITIVE_INFINITY): V {
  let value = map.get(key);
  if (value === undefined && !map.has(key)) {
    if (map.size >= max) map.clear();
    value = make();
    map.set(key, value);
  }
  return value as V;
}

const sanitizeMemo = memo((text) =>
  text.replace(/\r\n?/g, "\n").replace(ESCAPE_SEQUENCE, "").replace(BIDI_CONTROL, "").replace(CONTROL, caretNotation),
);

/** Newlines are kept. */
export function sanitize(text: string): string {
  return sanitizeMemo(text);
}

/** One line for the host to show outside a form (a notification, a dialog's title): controls removed, white space folded. */
export function safeLine(text: string, maxChars = DISPLAY_CHARS): string {
  return text
    .slice(0, maxChars)
    .replace(ESCAPE_SEQUENCE, "")
    .replace(BIDI_CONTROL, "")
    .replace(CONTROL_OR_BREAK, " ")
    .replace(/\s+/g, " ")
    .trim();
}

// Controls of every kind, line breaks included (for one-line host texts).
const CONTROL_OR_BREAK = /[\x00-\x1f\x7f-\x9f\u2028\u2029]/g;

export function fitTo(line: string, width: number): string {
  if (visibleWidth(line) <= width) return line;
  return truncateToWidth(line, Math.max(0, width), width >= 4 ? "…" : "");
}

export function wrap(text: string, width: number, firstPrefix = "", restPrefix = firstPrefix): readonly string[] {
  return wrapMemo(`${width}\u0000${firstPrefix}\u0000${restPrefix}\u0000${text}`);
}

const wrapMemo = memo((key): readonly string[] => {
  const a = key.indexOf("\u0000");
  const b = key.indexOf("\u0000", a + 1);
  const c = key.indexOf("\u0000", b + 1);
  return wrapUncached(key.slice(c + 1), Number(key.slice(0, a)), key.slice(a + 1, b), key.slice(b + 1, c));
});

function wrapUncached(text: string, width: number, firstPrefix: string, restPrefix: string): string[] {
  const prefixWidth = Math.max(visibleWidth(firstPrefix), visibleWidth(restPrefix));
  const inner = Math.max(1, width - prefixWidth);
  const out: string[] = [];
  for (const paragraph of text.split("\n")) {
    const pieces = paragraph === "" ? [""] : wrapTextWithAnsi(paragraph, inner);
    for (const piece of pieces) {
      const prefix = out.length === 0 ? firstPrefix : restPrefix;
      out.push(fitTo(prefix + piece.trimEnd(), width));
    }
  }
  return out;
}

/** Sanitized, and past `maxChars` cut first (a pasted megabyte costs what its visible part costs) with a note of what is left out. */
export function displayText(raw: string, maxChars = DISPLAY_CHARS): string {
  if (raw.length <= maxChars) return sanitize(raw);
  const hidden = raw.length - maxChars;
  return `${sanitize(raw.slice(0, maxChars))} ⋯ (+${hidden.toLocaleString("en-US")} characters)`;
}

/** Characters of one value worth drawing: more than a wide terminal shows in a few lines. */
export const DISPLAY_CHARS = 2000;

export function displayLine(raw: string, maxChars = DISPLAY_CHARS): string {
  return displayText(raw, maxChars).replace(/\s*\n\s*/g, " ");
}

/** At most `maxLines` lines, the last ending in "…" when more would follow; cut before wrapping. */
export function wrapClipped(
  text: string,
  width: number,
  maxLines: number,
  firstPrefix = "",
  restPrefix = firstPrefix,
): readonly string[] {
  const rows = Math.max(1, maxLines);
  // No line holds more characters than columns, so this many characters fill the lines at most.
  const budget = rows * Math.max(1, width) + 1;
  const cut = text.length > budget;
  const lines = wrap(cut ? text.slice(0, budget) : text, width, firstPrefix, restPrefix);
  if (lines.length <= rows && !cut) return lines;
  const shown = lines.slice(0, rows);
  shown[shown.length - 1] = ellipsize(shown[shown.length - 1], width);
  return shown;
}

function ellipsize(line: string, width: number): string {
  const room = Math.max(0, width - 2);
  return fitTo(`${visibleWidth(line) > room ? truncateToWidth(line, room, "") : line} …`, width);
}

// What typing or pasting may not put into an answer: C0 controls but line break and tab, DEL, C1 controls, bidi controls.
const UNTYPABLE = /[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069\u200e\u200f\u061c]/g;

/** Typed or pasted text as it may enter an answer; a one-line field's line breaks become spaces. */
export function typedText(text: string, singleLineField = false): string {
  const clean = text.replace(UNTYPABLE, "").replace(/\t/g, " ");
  return singleLineField ? clean.replace(/\r?\n/g, " ") : clean;
}

export function plainText(line: string): string {
  return line.replace(ESCAPE_SEQUENCE, "");
}

const HTML_ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };

/** Text as HTML element or attribute content; a control character shows in caret notation (`^[`, `^G`) or as U+FFFD. */
export function escapeHtml(text: string): string {
  return visibleControls(text).replace(/[&<>"']/g, (c) => HTML_ESCAPES[c]);
}

/** `an object`, `an array`, `null`, `a number` …: what a value is, never what it says of itself. */
export function valueKind(value: unknown): string {
  if (value === null || value === undefined) return value === null ? "null" : "nothing";
  if (Array.isArray(value)) return "an array";
  return typeof value === "object" ? "an object" : `a ${typeof value}`;
}
