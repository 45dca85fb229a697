/**
 * A person at a form's web page, in Chromium: each event of the chart done
 * with the page's own controls, the way a person of one kind does it — by
 * touch (taps on what is shown), by keyboard alone (keys to the focused
 * control), or by a screen reader's view (controls found by role and
 * accessible name). Where no control of the page sends an event in the
 * form's present state, `act` says so and does nothing.
 */
import type { Locator, Page } from "playwright-core";
import type { FormEvent } from "../../machines/context.js";
import type { FormSession } from "../../machines/session.js";

export type Way = "touch" | "keyboard" | "roles";

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

export class PageDriver {
  constructor(
    readonly page: Page,
    readonly way: Way,
  ) {}

  /** Whether the page has a control for `event` where `session` stands; if it has, it is used. */
  async act(event: FormEvent, session: FormSession): Promise<boolean> {
    const position = session.position;
    const context = session.snapshot.context;
    if (position.kind === "folded") return event.type === "UNFOLD" && this.button(/^Open it again$/);
    if (position.kind === "waiting") return event.type === "CANCEL" && this.cancel(/^Cancel$/);
    if (position.kind === "done") return false;
    if (position.mode === "discarding") {
      if (event.type === "CONFIRM") return this.button(/^Discard and close$/);
      if (event.type === "RESUME") return this.button(/^Go back$/);
      if (event.type === "CANCEL") return this.cancel(/^Discard and close$/);
      return false;
    }
    if (event.type === "STOP_CLOCK") return this.button(/^Take my time$/);
    if (event.type === "NEXT_TAB" || event.type === "PREV_TAB") return this.tab(event.type === "NEXT_TAB" ? 1 : -1);
    if (position.kind === "review") {
      if (position.mode === "writing") return this.editorEvent(event, /^Keep the notes$/);
      if (event.type === "SELECT") return this.press(this.page.locator(".entry").nth(event.row), "Enter", "click");
      if (event.type === "CONFIRM") {
        const entry = this.page.locator(".entry.highlighted");
        if ((await entry.count()) > 0) return this.press(entry, "Enter", "click");
        return this.button(/^(Submit|Confirm)$/);
      }
      if (event.type === "MOVE" || event.type === "MOVE_TO")
        return this.listKey(event, this.page.locator(".buttons .primary"));
      if (event.type === "NOTE") return this.button(/^(Add notes|Edit the notes)$/);
      if (event.type === "DECLINE") return this.button(/^Decline/);
      if (event.type === "CANCEL") return this.cancel(/^Cancel/);
      return false;
    }
    const q = session.spec.questions[position.q];
    if (position.mode === "typing")
      return this.editorEvent(
        event,
        q.kind === "text" ? /^(Submit|Save)$/ : /^Save$/,
        q.kind !== "text" ? /^Back to the options$/ : /^Cancel/,
      );
    if (position.mode === "noting") return this.editorEvent(event, /^Keep the note$/);
    const highlighted = this.page.locator(".row.highlighted input");
    switch (event.type) {
      case "SELECT": {
        const row = this.page.locator(".row input").nth(event.row);
        if ((await row.count()) === 0) return false;
        if (this.way === "keyboard") {
          await this.focusQuietly(highlighted);
          const delta = event.row - context.cursors[position.q];
          for (let i = 0; i < Math.abs(delta); i++) await this.page.keyboard.press(delta > 0 ? "ArrowDown" : "ArrowUp");
          // The focus follows the highlight once the page shows it; Space then ticks or chooses that row.
          await this.page.waitForFunction(
            (n) => document.activeElement === document.querySelectorAll(".row input")[n],
            event.row,
            { timeout: 5000 },
          );
          await this.page.keyboard.press("Space");
          return true;
        }
        if (this.way === "roles") {
          const label = await row.evaluate(
            (el) => (el as HTMLInputElement).labels?.[0]?.querySelector(".label")?.textContent ?? "",
          );
          const named = this.page.getByRole(q.kind === "multi" ? "checkbox" : "radio", { name: namePattern(label) });
          return this.press(named, "Space", "click");
        }
        return this.press(row, "Space", "tap");
      }
      case "MOVE":
      case "MOVE_TO":
        if (this.way === "keyboard") return this.listKey(event, highlighted);
        return false;
      case "TOGGLE":
        if (q.kind !== "multi" && rowIsOther(session)) return this.press(highlighted, "Space", "tap");
        if (q.kind !== "multi") return false;
        return this.press(highlighted, "Space", "tap");
      case "CONFIRM":
        if (this.way === "keyboard") return this.press(highlighted, "Enter", "click");
        if (q.kind === "multi" && !rowIsOther(session)) return this.button(/^Confirm$/);
        return this.press(highlighted, "Space", "tap");
      case "TOGGLE_ALL":
        return this.button(/^Tick all or none$/);
      case "INVERT":
        return this.button(/^Invert the ticks$/);
      case "NOTE":
        return this.press(this.page.locator(".row.highlighted .note"), "Enter", "click");
      case "CANCEL":
        return this.cancel(/^Cancel/);
      default:
        return false;
    }
  }

  /** The open editor's events: its text typed, saved, or closed. */
  private async editorEvent(event: FormEvent, save: RegExp, close?: RegExp): Promise<boolean> {
    const field = this.page.locator("[data-field]");
    if (event.type === "TYPE") {
      if (this.way === "keyboard") {
        await field.focus();
        await this.page.keyboard.press("ControlOrMeta+A");
        await this.page.keyboard.press("Delete");
        if (event.text) await this.page.keyboard.insertText(event.text);
      } else await (this.way === "roles" ? this.page.getByRole("textbox") : field).fill(event.text);
      return true;
    }
    if (event.type === "SUBMIT_TEXT") {
      if (this.way !== "keyboard") return this.button(save);
      await field.focus();
      const multiline = await field.evaluate((el) => el.tagName === "TEXTAREA");
      await this.page.keyboard.press(multiline ? "Control+Enter" : "Enter");
      return true;
    }
    if (event.type === "CANCEL") {
      if (this.way === "keyboard" || !close) {
        await field.focus();
        await this.page.keyboard.press("Escape");
        return true;
      }
      return this.button(close);
    }
    return false;
  }

  /** ↑/↓, PgUp/PgDn, Home/End on a list: the focus on `on` first (a control whose focus sends nothing). */
  private async listKey(event: FormEvent, on: Locator): Promise<boolean> {
    if (this.way !== "keyboard") return false;
    if ((await on.count()) === 0) return false;
    await this.focusQuietly(on);
    let key: string;
    if (event.type === "MOVE_TO") key = event.to === "first" ? "Home" : "End";
    else if (event.type === "MOVE" && Math.abs(event.delta) === 5) key = event.delta > 0 ? "PageDown" : "PageUp";
    else if (event.type === "MOVE" && Math.abs(event.delta) === 1) key = event.delta > 0 ? "ArrowDown" : "ArrowUp";
    else return false;
    await this.page.keyboard.press(key);
    return true;
  }

  private async focusQuietly(on: Locator): Promise<void> {
    await on.first().focus();
  }

  /** A tab of the tab list, one step along: tapped, or reached with ←/→ from the current tab. */
  private async tab(step: 1 | -1): Promise<boolean> {
    const tabs = this.page.getByRole("tab");
    const count = await tabs.count();
    if (count === 0) return false;
    const current = this.page.locator('[role="tab"][aria-selected="true"]');
    if (this.way === "keyboard") {
      await current.focus();
      await this.page.keyboard.press(step > 0 ? "ArrowRight" : "ArrowLeft");
      return true;
    }
    const at = await tabs.evaluateAll((all) => all.findIndex((t) => t.getAttribute("aria-selected") === "true"));
    const next = tabs.nth((at + step + count) % count);
    if (this.way === "touch") await next.tap();
    else await next.click();
    return true;
  }

  /** Esc by keyboard; a button by touch or by name. */
  private async cancel(name: RegExp): Promise<boolean> {
    if (this.way === "keyboard") {
      await this.page.keyboard.press("Escape");
      return true;
    }
    return this.button(name);
  }

  /** A button found by its accessible name; by keyboard it is focused and Enter pressed. */
  private async button(name: RegExp): Promise<boolean> {
    const found = this.page.getByRole("button", { name });
    if ((await found.count()) === 0) return false;
    return this.press(found.first(), "Enter", this.way === "touch" ? "tap" : "click");
  }

  /** A control used: by keyboard, focused and `key` pressed; else tapped or clicked. */
  private async press(on: Locator, key: string, pointer: "tap" | "click"): Promise<boolean> {
    if ((await on.count()) === 0) return false;
    const one = on.first();
    if (this.way === "keyboard") {
      await one.focus();
      await this.page.keyboard.press(key);
    } else if (this.way === "touch" && pointer === "tap") await one.tap();
    else await one.click();
    return true;
  }
}

function rowIsOther(session: FormSession): boolean {
  const position = session.position;
  if (position.kind !== "question") return false;
  const q = session.spec.questions[position.q];
  const cursor = session.snapshot.context.cursors[position.q];
  return q.allowOther && cursor === q.options.length + session.snapshot.context.typed[position.q].length;
}

export const namePattern = (label: string) => new RegExp(`^${escapeRegExp(label)}`);
