/**
 * A form's layout fitted into the rows it may use. Contract: the header and
 * the prompt stay; only the list scrolls, a row at a time, "↑/↓ n more"
 * counting rows, not lines. When that does not fit, the chrome goes first,
 * then the prompt is cut. Each clickable line keeps its target.
 */
import { visibleWidth } from "@earendil-works/pi-tui";
import { fitTo } from "../text.js";
import type { FormTheme } from "../theme.js";

export type Target =
  | { kind: "row"; row: number }
  | { kind: "tab"; q: number }
  | { kind: "submit" }
  | { kind: "entry"; k: number; number: number };

/** Columns `from`…`to` (exclusive) of line `line` are `target`. */
export interface Hit {
  line: number;
  from: number;
  to: number;
  target: Target;
}

/** One row with the lines under it, or a group of lines. */
export interface Block {
  /** May be a memoized wrap's, shared with every other caller. */
  lines: readonly string[];
  /** Counted in "n more" (an option, a typed choice, a review entry). */
  row?: boolean;
  target?: Target;
  /** Holds an open editor: a block taller than the room keeps its end (the caret) in view. */
  editor?: boolean;
}

export interface Layout {
  header: readonly string[];
  headerHits: Hit[];
  pinned: readonly string[];
  blocks: Block[];
  focus: number;
  /** Rows before and after the blocks that were not laid out (very long lists). */
  above: number;
  below: number;
  status: readonly string[];
  footer: readonly string[];
  /** An option's preview beside the list, laid out in `listWidth` columns. */
  side?: { lines: readonly string[]; listWidth: number };
  /** Kept by the view per width; else drawn here. */
  border?: string;
}

export interface Screen {
  lines: string[];
  hits: Hit[];
}

const MIN_LIST = 3;

export function frame(layout: Layout, theme: FormTheme, width: number, height: number, targets = true): Screen {
  const border = layout.border ?? theme.fg("accent", "─".repeat(width));
  const blank = layout.header.length ? 1 : 0;
  const listLines = layout.blocks.reduce((n, b) => n + b.lines.length, 0) + markerLines(layout);
  const bodyLines = Math.max(listLines, layout.side?.lines.length ?? 0);
  const listWidth = layout.side?.listWidth ?? width;
  const topLength = 1 + layout.header.length + blank;
  const need = topLength + layout.pinned.length + bodyLines + layout.status.length + 1 + layout.footer.length + 1;
  if (need <= height) {
    const lines: string[] = [border];
    append(lines, layout.header);
    if (blank) lines.push("");
    append(lines, layout.pinned);
    if (layout.side && layout.side.lines.length > 0)
      append(lines, beside(allBlockLines(layout, theme, listWidth), layout, theme, bodyLines));
    else appendBlockLines(lines, layout, theme, listWidth);
    append(lines, layout.status);
    lines.push("");
    append(lines, layout.footer);
    lines.push(border);
    if (!targets) return { lines, hits: [] };
    const at = topLength + layout.pinned.length + (layout.above > 0 ? 1 : 0);
    return { lines, hits: hitsOf(layout, 1, at, at, 0, layout.blocks.length) };
  }

  // Too tall: drop the chrome (borders, blank lines), then the header, until a list has room.
  let top: readonly string[] = [border, ...layout.header, ...(blank ? [""] : [])];
  let topHitsAt = 1;
  let bottom: readonly string[] = [...layout.status, "", ...layout.footer, border];
  if (height - top.length - bottom.length - layout.pinned.length < MIN_LIST) {
    top = layout.header;
    topHitsAt = 0;
    bottom = [...layout.status, ...layout.footer];
  }
  if (height - top.length - bottom.length - Math.min(layout.pinned.length, 1) < MIN_LIST) {
    bottom = layout.status;
  }
  if (height - top.length - bottom.length - Math.min(layout.pinned.length, 1) < MIN_LIST) {
    top = [];
    topHitsAt = -1;
  }
  const available = Math.max(1, height - top.length - bottom.length);
  // The prompt gives way last: it keeps what is left after a minimal list.
  const pinnedRoom = Math.max(Math.min(1, layout.pinned.length), Math.min(layout.pinned.length, available - MIN_LIST));
  const pinned = cutPinned(layout.pinned, pinnedRoom, theme, width);
  const room = Math.max(1, available - pinned.length);
  const window = scrollWindow(layout, room, theme, listWidth);
  const body = beside(window.lines, layout, theme, room);
  const lines = [...top, ...pinned, ...body, ...bottom].slice(0, height);
  if (!targets) return { lines, hits: [] };
  const at = top.length + pinned.length + window.offset;
  const hits = hitsOf(layout, topHitsAt, at - window.skip, at, window.first, window.last);
  return { lines, hits: hits.filter((h) => h.line < lines.length) };
}

function append(lines: string[], more: readonly string[]): void {
  for (const line of more) lines.push(line);
}

function beside(list: readonly string[], layout: Layout, theme: FormTheme, room: number): readonly string[] {
  const side = layout.side;
  if (!side || side.lines.length === 0) return list;
  const count = Math.min(room, Math.max(list.length, side.lines.length));
  const gap = theme.fg("dim", " │ ");
  const lines: string[] = [];
  for (let i = 0; i < count; i++) {
    const left = fitTo(list[i] ?? "", side.listWidth);
    const right = i === count - 1 && side.lines.length > count ? theme.fg("dim", " …") : (side.lines[i] ?? "");
    lines.push(`${left}${" ".repeat(Math.max(0, side.listWidth - visibleWidth(left)))}${gap}${right}`);
  }
  return lines;
}

function markerLines(layout: Layout): number {
  return (layout.above > 0 ? 1 : 0) + (layout.below > 0 ? 1 : 0);
}

function allBlockLines(layout: Layout, theme: FormTheme, width: number): string[] {
  const lines: string[] = [];
  appendBlockLines(lines, layout, theme, width);
  return lines;
}

function appendBlockLines(lines: string[], layout: Layout, theme: FormTheme, width: number): void {
  if (layout.above > 0) lines.push(marker(`↑ ${layout.above} more`, theme, width));
  for (const b of layout.blocks) append(lines, b.lines);
  if (layout.below > 0) lines.push(marker(`↓ ${layout.below} more`, theme, width));
}

function marker(text: string, theme: FormTheme, width: number): string {
  return theme.fg("dim", fitTo(`  ${text}`, width));
}

function cutPinned(pinned: readonly string[], room: number, theme: FormTheme, width: number): readonly string[] {
  if (pinned.length <= room) return pinned;
  if (room <= 0) return [];
  return [...pinned.slice(0, room - 1), theme.fg("dim", fitTo(" …", width))];
}

interface Window {
  lines: string[];
  offset: number;
  first: number;
  last: number;
  /** Lines of the first block cut off at its top. */
  skip: number;
}

function scrollWindow(layout: Layout, room: number, theme: FormTheme, width: number): Window {
  const { blocks, focus } = layout;
  const rowsIn = (from: number, to: number) => blocks.slice(from, to).filter((b) => b.row).length;
  const heightOf = (from: number, to: number) => blocks.slice(from, to).reduce((n, b) => n + b.lines.length, 0);
  const place = (inner: number) => {
    const f = Math.min(Math.max(0, focus), Math.max(0, blocks.length - 1));
    let first = f;
    let last = blocks.length === 0 ? 0 : f + 1;
    if (blocks.length === 0) first = 0;
    else {
      // Context above the focus (about a third of the room), then below, then above again.
      while (first > 0 && heightOf(first - 1, last) <= Math.max(blocks[f].lines.length, Math.floor(inner / 3))) first--;
      while (last < blocks.length && heightOf(first, last + 1) <= inner) last++;
      while (first > 0 && heightOf(first - 1, last) <= inner) first--;
    }
    let body = blocks.slice(first, last).flatMap((b) => b.lines);
    let skip = 0;
    if (body.length > inner) {
      // The focused row alone is taller than the room: show its top, or the end where an editor is.
      skip = blocks[first]?.editor ? body.length - inner : 0;
      body = body.slice(skip, skip + inner);
    }
    return {
      first,
      last,
      body,
      skip,
      above: layout.above + rowsIn(0, first),
      below: layout.below + rowsIn(last, blocks.length),
    };
  };
  // With three or more lines, a line is kept for each marker; one not needed gives its line back to the list.
  const markers = room >= 3;
  let w = place(markers ? room - 2 : room);
  const top = markers && w.above > 0;
  const bottom = markers && w.below > 0;
  if (markers && (!top || !bottom)) w = place(room - Number(top) - Number(bottom));
  const lines: string[] = [];
  if (top) lines.push(theme.fg("dim", fitTo(`  ↑ ${w.above} more`, width)));
  lines.push(...w.body);
  if (bottom) lines.push(theme.fg("dim", fitTo(w.below > 0 ? `  ↓ ${w.below} more` : "", width)));
  return { lines: lines.slice(0, room), offset: top ? 1 : 0, first: w.first, last: w.last, skip: w.skip };
}

/** Block `first` starts at screen line `startsAt` (above the screen when its top is cut). */
function hitsOf(
  layout: Layout,
  headerAt: number,
  startsAt: number,
  visibleFrom: number,
  first: number,
  last: number,
): Hit[] {
  const hits: Hit[] = headerAt < 0 ? [] : layout.headerHits.map((h) => ({ ...h, line: h.line + headerAt }));
  let line = startsAt;
  for (let i = first; i < last; i++) {
    const b = layout.blocks[i];
    for (let j = 0; j < b.lines.length; j++, line++) {
      // Beside a preview, only the list's columns are the row.
      const to = layout.side ? layout.side.listWidth : Number.MAX_SAFE_INTEGER;
      if (b.target && line >= visibleFrom) hits.push({ line, from: 0, to, target: b.target });
    }
  }
  return hits;
}
