/**
 * The mouse in a form, opt-in: reporting on while the form has focus, off on
 * every way out, and a click turned into the event a key would send.
 *
 * Contract: with the setting on, SGR mouse reporting (`?1000h` + `?1006h`) is
 * switched on when the form gets focus and off when it loses focus, closes,
 * is cancelled, aborted or fails, and when the process exits while it is on;
 * the terminal is never left reporting. A left click on an option row (the
 * free-text row included) sends SELECT for that row; on a question's tab, the
 * tab moves that reach it; on Submit, the moves to the review screen, or
 * CONFIRM when it is already there; on a review entry, SELECT of its number.
 * The wheel moves the highlight. A click is another way to produce the events
 * keys produce: the statechart has no transition for the mouse.
 */
import { visibleWidth } from "@earendil-works/pi-tui";
import type { FormEvent } from "../../machines/context.js";
import type { FormPosition } from "../../machines/position.js";
import { plainText } from "../text.js";
import type { Screen, Target } from "./frame.js";

export const MOUSE_ON = "\x1b[?1000h\x1b[?1006h";
export const MOUSE_OFF = "\x1b[?1000l\x1b[?1006l";

/** Turns reporting on and off, once each, and off at process exit if it is still on. */
export class MouseReporting {
  private on = false;
  private readonly offAtExit = () => this.write(MOUSE_OFF);

  constructor(private readonly write: (data: string) => void) {}

  /** The terminal reports the mouse now. */
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
 * A mouse report that reaches the form in pieces: the terminal's bytes can
 * be split across reads by more than the input buffer waits, and then the
 * start (`ESC [ < 0 ; 12`) and the rest (`; 7 M`, even one character at a
 * time) arrive as separate inputs. The pieces are put back together here
 * and never typed: `take` returns the whole report once it is complete,
 * `"held"` for a piece it keeps, and undefined for input that is no part of
 * a report (which then goes on as a key).
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

/** The longest SGR report: `ESC [ < b ; x ; y M` with numbers of up to five digits. */
const MAX_REPORT = 22;

/** What the host last drew: pi-tui's screen lines and the first of them on screen. */
export interface DrawnScreen {
  previousLines?: string[];
  previousViewportTop?: number;
}

/**
 * Where the form's lines stand on the terminal screen (0-based row and
 * column), found among the lines the host last drew, inline or in an overlay;
 * undefined when they are not all there.
 */
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

/** The target at a line and column of the form's own screen. */
export function targetAt(screen: Screen, line: number, col: number): Target | undefined {
  return screen.hits.find((h) => h.line === line && col >= h.from && col < h.to)?.target;
}

/** Tabs in order, as the tab bar shows them: the shown questions, then Submit (-1). */
export interface TabOrder {
  shown: number[];
}

/**
 * The events a click on `target` sends where the form stands: the same a
 * person would press. Moving to a tab is a run of tab moves (hidden questions
 * pass them on), at most one lap of the tabs.
 */
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
