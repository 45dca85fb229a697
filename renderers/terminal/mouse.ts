/**
 * The mouse in a form, opt-in. Contract: SGR reporting is on while the form
 * has focus and off on every way out, process exit included; the terminal is
 * never left reporting. A click sends the events a key would (the statechart
 * has no transition for the mouse).
 */
import { visibleWidth } from "@earendil-works/pi-tui";
import type { FormEvent } from "../../machines/context.js";
import type { FormPosition } from "../../machines/position.js";
import { plainText } from "../text.js";
import type { Screen, Target } from "./frame.js";

export const MOUSE_ON = "\x1b[?1000h\x1b[?1006h";
export const MOUSE_OFF = "\x1b[?1000l\x1b[?1006l";

export class MouseReporting {
  private on = false;
  private readonly offAtExit = () => this.write(MOUSE_OFF);

  constructor(private readonly write: (data: string) => void) {}

  get reporting(): boolean {
    return this.on;
  }

  set(on: boolean): void {
    if (on === this.on) return;
    this.on = on;
    this.write(on ? MOUSE_ON : MOUSE_OFF);
    if (on) process.once("exit", this.offAtExit);
    else process.removeListener("exit", this.offAtExit);
  }
}

export interface MouseReport {
  /** 0 left, 1 middle, 2 right, 64 wheel up, 65 wheel down (modifier bits removed). */
  button: number;
  /** 1-based screen column and row. */
  x: number;
  y: number;
  press: boolean;
}

/** An SGR mouse report, `ESC [ < b ; x ; y M` (press) or `m` (release). */
export function parseMouse(data: string): MouseReport | undefined {
  const m = /^\x1b\[<(\d+);(\d+);(\d+)([Mm])$/.exec(data);
  if (!m) return undefined;
  const raw = Number(m[1]);
  // Bits 2–4 are Shift, Alt and Ctrl; bit 5 motion. What is left says which button.
  return { button: raw & ~(4 | 8 | 16 | 32), x: Number(m[2]), y: Number(m[3]), press: m[4] === "M" };
}

/**
 * A report split across reads (`ESC [ < 0 ; 12`, then `; 7 M`, even a
 * character at a time) is put back together, never typed: `take` gives the
 * whole report, `"held"` for a piece, undefined for input that is a key.
 */
export class ReportJoiner {
  private pending = "";

  take(data: string): string | "held" | undefined {
    if (this.pending) {
      const joined = this.pending + data;
      if (/^\x1b\[<[\d;]*[Mm]$/.test(joined)) {
        this.pending = "";
        return joined;
      }
      if (/^\x1b\[<[\d;]*$/.test(joined) && joined.length <= MAX_REPORT) {
        this.pending = joined;
        return "held";
      }
      this.pending = "";
    }
    if (/^\x1b\[<[\d;]*$/.test(data) && data.length <= MAX_REPORT) {
      this.pending = data;
      return "held";
    }
    return undefined;
  }
}

// `ESC [ < b ; x ; y M` with numbers of up to five digits.
const MAX_REPORT = 22;

/** What the host last drew: pi-tui's screen lines and the first of them on screen. */
export interface DrawnScreen {
  previousLines?: string[];
  previousViewportTop?: number;
}

/** Where the form's lines stand among the lines the host last drew (0-based), inline or in an overlay. */
export function locate(drawn: DrawnScreen, mine: readonly string[]): { row: number; col: number } | undefined {
  const lines = drawn.previousLines;
  if (!lines?.length || mine.length === 0) return undefined;
  const ours = mine.map(plainText);
  const theirs = lines.map(plainText);
  for (let start = theirs.length - ours.length; start >= 0; start--) {
    const at = theirs[start].indexOf(ours[0]);
    if (at < 0) continue;
    if (ours.every((line, i) => theirs[start + i].slice(at, at + line.length) === line)) {
      return { row: start - (drawn.previousViewportTop ?? 0), col: visibleWidth(theirs[start].slice(0, at)) };
    }
  }
  return undefined;
}

export function targetAt(screen: Screen, line: number, col: number): Target | undefined {
  return screen.hits.find((h) => h.line === line && col >= h.from && col < h.to)?.target;
}

/** Tabs in order, as the tab bar shows them: the shown questions, then Submit (-1). */
export interface TabOrder {
  shown: number[];
}

/** The events a click on `target` sends: the keys a person would press; a tab is reached by tab moves. */
export function clickEvents(target: Target, position: FormPosition, tabs: TabOrder): FormEvent[] {
  const at = position.kind === "review" ? -1 : position.kind === "question" ? position.q : undefined;
  switch (target.kind) {
    case "row":
      return position.kind === "question" && position.mode === "choosing" ? [{ type: "SELECT", row: target.row }] : [];
    case "entry":
      return position.kind === "review" && position.mode === "reviewing"
        ? [{ type: "SELECT", row: target.number - 1 }]
        : [];
    case "submit":
      // On the review screen Submit submits wherever its cursor is: the cursor to the submit line (End), Enter.
      if (at === -1)
        return position.kind === "review" && position.mode === "reviewing"
          ? [{ type: "MOVE_TO", to: "last" }, { type: "CONFIRM" }]
          : [];
      return at === undefined ? [] : tabMoves(at, -1, tabs);
    case "tab":
      return at === undefined || at === target.q ? [] : tabMoves(at, target.q, tabs);
  }
}

/** The shorter way round the tabs from `from` to `to` (-1 is Submit). */
function tabMoves(from: number, to: number, tabs: TabOrder): FormEvent[] {
  const order = [...tabs.shown, -1];
  const a = order.indexOf(from);
  const b = order.indexOf(to);
  if (a < 0 || b < 0) return [];
  const forward = (b - a + order.length) % order.length;
  const backward = (a - b + order.length) % order.length;
  return forward <= backward
    ? new Array<FormEvent>(forward).fill({ type: "NEXT_TAB" })
    : new Array<FormEvent>(backward).fill({ type: "PREV_TAB" });
}
