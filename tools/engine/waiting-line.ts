/**
 * The line above the editor while questions asked with `wait: false` wait:
 * how many, which one the open key opens, how to reach the next, and the
 * nearest timeout. It names a key only where pressing it does something now.
 * With the `web` setting on, a second line gives the link that answers the
 * first in a browser tab; one open there is named.
 */
import { basename } from "node:path";
import type { ExtensionContext } from "@earendil-works/pi-coding-agent";
import { type Component, type TuiMouseEvent, type TuiMouseEventResult, visibleWidth } from "@earendil-works/pi-tui";
import type { FormSpec } from "../../machines/spec.js";
import { fitTo, plainText, safeLine } from "../../renderers/text.js";
import { formTitle } from "../../renderers/web/offer.js";
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
  const more = spec.title || spec.questions.length < 2 ? "" : ` (+${spec.questions.length - 1} more)`;
  return formTitle(spec, 80) + more;
}

/** `0:42`, `12:05`. */
export function clock(ms: number): string {
  const s = Math.max(0, Math.floor(ms / 1000));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
}

/**
 * A piece of a line: `text` after `sep` (" · " unless given); `drop`, the
 * order it goes in when the line is too wide (1 first; none: it stays);
 * `shorten`, that it is cut to the room left before it is dropped; `link`,
 * an address, never cut.
 */
export interface Part {
  text: string;
  sep?: string;
  drop?: number;
  shorten?: boolean;
  link?: true;
}

/** A line of parts, with the words they would have if wide enough. */
export type WaitingLine = readonly Part[];

/** Cut with "…", without the colour resets pi-tui's cut adds: the line is plain words. */
const cut = (text: string, width: number) => plainText(fitTo(text, width));

const joined = (parts: readonly Part[]) => parts.map((p, i) => (i ? (p.sep ?? " · ") : "") + p.text).join("");

/** The line at `width`: its least important parts shortened or dropped, never wrapped inside a phrase. */
function fitLine(parts: WaitingLine, width: number): string {
  const kept = [...parts];
  const order = parts.filter((p) => p.drop !== undefined).sort((a, b) => a.drop! - b.drop!);
  for (const part of order) {
    const over = visibleWidth(joined(kept)) - width;
    if (over <= 0) break;
    const room = visibleWidth(part.text) - over;
    const at = kept.indexOf(part);
    if (part.shorten && room >= 8) kept[at] = { ...part, text: cut(part.text, room) };
    else kept.splice(at, 1);
  }
  return cut(joined(kept), width);
}

/** An address is never cut: what does not fit goes on the next line, as a terminal would break it. */
function fitLink(parts: WaitingLine, width: number): string[] {
  const link = parts.find((p) => p.link)?.text ?? "";
  const line = fitLine(parts, width);
  if (line.includes(link)) return [line];
  const step = Math.max(1, width);
  return Array.from({ length: Math.ceil(link.length / step) }, (_, i) => link.slice(i * step, (i + 1) * step));
}

/** The lines as words, as wide as they come (for a host that draws lines itself). */
export function lineTexts(lines: readonly WaitingLine[]): string[] {
  return lines.map(joined);
}

/** `waiting`: in the order the open key takes them; `open`: the one the person has open; `link`: the first's page. */
export function waitingLine(
  key: string,
  waiting: readonly LineQuestion[],
  open: LineQuestion | undefined,
  now: number,
  browser: { link?: string; open: readonly LineQuestion[] } = { open: [] },
): WaitingLine[] | undefined {
  const [first] = waiting;
  const inBrowser: Part[] = browser.open.map((q) => ({ text: `${shownId(q.id)} is open in the browser`, drop: 4 }));
  if (!first) {
    if (!inBrowser.length) return undefined;
    const subject = { text: subjectOf(browser.open[0].spec), sep: ": ", drop: 3, shorten: true };
    return [[{ text: "?", sep: "" }, ...inBrowser.map((p, i) => ({ ...p, sep: i ? " · " : " " })), subject]];
  }
  const subject = { text: subjectOf(first.spec), sep: ": ", drop: 3, shorten: true };
  const timed = waiting.filter((q) => q.deadline !== undefined).sort((a, b) => a.deadline! - b.deadline!)[0];
  const timeout = timed ? [{ text: `${shownId(timed.id)} times out in ${clock(timed.deadline! - now)}`, drop: 5 }] : [];
  const tail = [...timeout, ...inBrowser];
  const link: WaitingLine[] = browser.link
    ? [
        [
          { text: `  or answer ${shownId(first.id)} in a browser:`, drop: 1 },
          { text: browser.link, sep: " ", link: true },
        ],
      ]
    : [];
  if (open) {
    const more = waiting.length === 1 ? "1 more question waits" : `${waiting.length} more questions wait`;
    const opens = { text: `${key} puts ${shownId(open.id)} back and opens ${shownId(first.id)}` };
    return [[{ text: `? ${more}` }, opens, subject, ...tail], ...link];
  }
  const count = waiting.length === 1 ? "A question waits" : `${waiting.length} questions wait`;
  const next = waiting.length > 1 ? [{ text: `${key} in it opens the next`, drop: 1 }] : [];
  const since = { text: `(${clock(now - first.since)})`, sep: " ", drop: 2 };
  return [
    [{ text: `? ${count}` }, since, { text: `${key} opens ${shownId(first.id)}` }, subject, ...next, ...tail],
    ...link,
  ];
}

/**
 * The lines fitted to the width at every render, one column in as Pi draws
 * a widget of lines; a click opens the question where the host hands
 * components the mouse (Pi 1.x full-screen).
 */
export function fittedLine(lines: readonly WaitingLine[], open?: () => void): Component {
  return {
    render: (width) =>
      lines.flatMap((line) => {
        const room = Math.max(1, width - 2);
        const fitted = line.some((p) => p.link) ? fitLink(line, room) : [fitLine(line, room)];
        return fitted.map((l) => ` ${l}`);
      }),
    invalidate: () => {},
    handleMouse(event: TuiMouseEvent): TuiMouseEventResult | undefined {
      if (!open || event.button !== "left") return undefined;
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
