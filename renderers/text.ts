/**
 * Text that is safe to put on the screen and fits the width.
 *
 * Contract: strings written by the model never reach the terminal raw.
 * Escape sequences (CSI, OSC, DCS, APC …) are removed, other control
 * characters are shown in caret notation (`^[` for ESC, `^G` for BEL: plain
 * ASCII, which every terminal font draws, where the Unicode control pictures
 * are missing from common ones such as DejaVu Sans Mono), bidirectional
 * overrides are dropped. Wrapping never drops words; a line that still cannot
 * fit (a wide character on a 1-column screen) is cut to the width.
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

/**
 * Text for a file a person may read in a terminal: every control character
 * shown in caret notation (`^[`, `^G`) or as U+FFFD, as on a form's screen, and
 * bidirectional controls as U+FFFD; tabs and line breaks kept. Nothing is
 * removed, so what the model wrote can still be read.
 */
export function visibleControls(text: string): string {
  return text.replace(RAW_CONTROL, (ch) => (ch.charCodeAt(0) < 0x80 ? caretNotation(ch) : "\ufffd"));
}

/**
 * A bounded memo: forms re-render the same strings on every keystroke, so
 * sanitizing and wrapping are looked up rather than recomputed. It is bounded
 * by what it holds, not only by how many entries: it is emptied when its keys
 * together pass `maxChars` (a long session of forms with long texts keeps a
 * few hundred kilobytes, not the tens of megabytes 4,096 long keys would), and
 * a key longer than `MEMO_MAX_KEY` is computed each time, never kept.
 * What it hands out is shared by every caller: an array or object is frozen,
 * so a caller that adds to it (a check line pushed onto a wrapped text) fails
 * at once instead of changing what the next caller gets.
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

const sanitizeMemo = memo((text) =>
  text.replace(/\r\n?/g, "\n").replace(ESCAPE_SEQUENCE, "").replace(BIDI_CONTROL, "").replace(CONTROL, caretNotation),
);

/** Neutralize a model-supplied string for display; newlines are kept. */
export function sanitize(text: string): string {
  return sanitizeMemo(text);
}

/**
 * Text handed to the host for display outside a form (a session name, a
 * notification, a dialog's title or placeholder): escape sequences and
 * control characters removed outright, white space folded to single spaces.
 */
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

/** Cut a styled line to the width (no ellipsis when the width is tiny). */
export function fitTo(line: string, width: number): string {
  if (visibleWidth(line) <= width) return line;
  return truncateToWidth(line, Math.max(0, width), width >= 4 ? "…" : "");
}

/**
 * Word-wrap plain text to `width` columns, keeping explicit line breaks.
 * `indent` prefixes continuation lines so wrapped text stays aligned.
 */
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

/**
 * A value written by the model or the person, ready to show: sanitized, and
 * past `maxChars` cut with a note of how much is left out. Cutting comes
 * first, so a pasted megabyte costs what its visible part costs; the full
 * text stays in the answer.
 */
export function displayText(raw: string, maxChars = DISPLAY_CHARS): string {
  if (raw.length <= maxChars) return sanitize(raw);
  const hidden = raw.length - maxChars;
  return `${sanitize(raw.slice(0, maxChars))} ⋯ (+${hidden.toLocaleString("en-US")} characters)`;
}

/** Characters of one value worth drawing: more than a wide terminal shows in a few lines. */
export const DISPLAY_CHARS = 2000;

/** `displayText` flattened to one line. */
export function displayLine(raw: string, maxChars = DISPLAY_CHARS): string {
  return displayText(raw, maxChars).replace(/\s*\n\s*/g, " ");
}

/**
 * Wrap at most `maxLines` lines of `text`; when more would follow, the last
 * line shown ends in "…". The text is cut before wrapping, so the cost is
 * that of the lines shown.
 */
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

/** A line that continues elsewhere: ends in "…" and still fits. */
function ellipsize(line: string, width: number): string {
  const room = Math.max(0, width - 2);
  return fitTo(`${visibleWidth(line) > room ? truncateToWidth(line, room, "") : line} …`, width);
}

// What typing or pasting may not put into an answer: C0 controls but line break and tab, DEL, C1 controls, bidi controls.
const UNTYPABLE = /[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069\u200e\u200f\u061c]/g;

/**
 * Text typed or pasted into an editor, as it may enter an answer: controls,
 * DEL and bidirectional overrides removed, tabs as spaces, and for a
 * single-line field line breaks as spaces.
 */
export function typedText(text: string, singleLineField = false): string {
  const clean = text.replace(UNTYPABLE, "").replace(/\t/g, " ");
  return singleLineField ? clean.replace(/\r?\n/g, " ") : clean;
}

/** A drawn line's text without its escape sequences (colours, links, the cursor marker). */
export function plainText(line: string): string {
  return line.replace(ESCAPE_SEQUENCE, "");
}
