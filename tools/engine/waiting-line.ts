/**
 * The line above the editor while questions asked with `wait: false` wait:
 * how many, which one the open key opens, how to reach the next, and the
 * nearest timeout. It names a key only where pressing it does something now.
 * With the `web` setting on, a second line gives the link that answers the
 * first in a browser tab; one open there is named.
 */
import { basename } from "node:path";
import type { ExtensionContext } from "@earendil-works/pi-coding-agent";
import type { Component, TuiMouseEvent, TuiMouseEventResult } from "@earendil-works/pi-tui";
import type { FormSpec } from "../../machines/spec.js";
import { displayLine, fitTo, safeLine } from "../../renderers/text.js";
import type { FormchartState } from "../state.js";
import { shownId } from "../waiting-names.js";

export interface LineQuestion {
  id: string;
  spec: FormSpec;
  since: number;
  /** When its timeout runs out (only a question nobody opened has one). */
  deadline?: number;
}

export function subjectOf(spec: FormSpec): string {
  const first = spec.title ?? spec.questions[0]?.prompt ?? "A question";
  const more = spec.title || spec.questions.length < 2 ? "" : ` (+${spec.questions.length - 1} more)`;
  return displayLine(first, 80) + more;
}

/** `0:42`, `12:05`. */
export function clock(ms: number): string {
  const s = Math.max(0, Math.floor(ms / 1000));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
}

/** `waiting`: in the order the open key takes them; `open`: the one the person has open; `link`: the first's page. */
export function waitingLine(
  key: string,
  waiting: readonly LineQuestion[],
  open: LineQuestion | undefined,
  now: number,
  browser: { link?: string; open: readonly LineQuestion[] } = { open: [] },
): string[] | undefined {
  const [first] = waiting;
  const inBrowser = browser.open.map((q) => `${shownId(q.id)} is open in the browser`).join(" · ");
  if (!first) return inBrowser ? [`? ${inBrowser}: ${subjectOf(browser.open[0].spec)}`] : undefined;
  const about = `${shownId(first.id)}: ${subjectOf(first.spec)}`;
  const timed = waiting.filter((q) => q.deadline !== undefined).sort((a, b) => a.deadline! - b.deadline!)[0];
  const timeout = timed ? ` · ${shownId(timed.id)} times out in ${clock(timed.deadline! - now)}` : "";
  const tail = `${timeout}${inBrowser && ` · ${inBrowser}`}`;
  const link = browser.link ? [`  or answer ${shownId(first.id)} in a browser: ${browser.link}`] : [];
  if (open) {
    const more = waiting.length === 1 ? "1 more question waits" : `${waiting.length} more questions wait`;
    return [`? ${more} · ${key} puts ${shownId(open.id)} back and opens ${about}${tail}`, ...link];
  }
  const count = waiting.length === 1 ? "A question waits" : `${waiting.length} questions wait`;
  const next = waiting.length > 1 ? ` · ${key} in it opens the next` : "";
  return [`? ${count} (${clock(now - first.since)}) · ${key} opens ${about}${next}${tail}`, ...link];
}

/** The line as a component that a click opens, where the host hands components the mouse (Pi 1.x full-screen). */
export function clickableLine(lines: readonly string[], open: () => void): Component {
  return {
    // One column in, as Pi draws a widget of lines.
    render: (width) => lines.map((line) => fitTo(` ${line}`, width)),
    invalidate: () => {},
    handleMouse(event: TuiMouseEvent): TuiMouseEventResult | undefined {
      if (event.button !== "left") return undefined;
      if (event.type === "click") open();
      return event.type === "press" || event.type === "click" ? { handled: true } : undefined;
    },
  } as Component;
}

/** The count each state's title last said; none once Pi's own is back. */
const titled = new WeakMap<object, number>();

/**
 * The terminal's title while questions wait (the `waitingTitle` setting);
 * once none does, Pi's own title again (`π - <session name> - <folder>`).
 */
export function showTitle(state: FormchartState, ctx: ExtensionContext | undefined, count: number): void {
  const ui = ctx?.hasUI ? ctx.ui : undefined;
  if (!ctx || typeof ui?.setTitle !== "function") return;
  const folder = basename(ctx.cwd);
  const shown = count > 0 && state.settings.waitingTitle ? count : undefined;
  if (shown === titled.get(state)) return;
  if (shown !== undefined) {
    titled.set(state, shown);
    ui.setTitle(`π - ? ${count === 1 ? "a question waits" : `${count} questions wait`} - ${folder}`);
  } else {
    titled.delete(state);
    const name = ctx.sessionManager?.getSessionName?.();
    ui.setTitle(name ? `π - ${safeLine(name, 200)} - ${folder}` : `π - ${folder}`);
  }
}
