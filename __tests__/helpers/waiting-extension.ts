/**
 * Pi with the extension, a terminal UI whose forms a test drives, and what
 * reached the person and the model: for questions asked with `wait: false`.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Component } from "@earendil-works/pi-tui";
import { getKeybindings } from "@earendil-works/pi-tui";
import { jest } from "@jest/globals";
import { TIMED_OUT, type WaitingEvent } from "../../machines/waiting.js";
import { plainTheme } from "../../renderers/theme.js";
import { FORM_EVENTS } from "../../tools/form-events.js";
import { createFormchart } from "../../tools/index.js";
import { fakeHost, KEY } from "./fake-host.js";
import { fakePi } from "./fake-pi.js";
import { tempAgentDir } from "./temp.js";

export const asked = {
  wait: false,
  timeout: 30,
  questions: [
    {
      id: "db",
      label: "DB",
      prompt: "Which database?",
      options: [{ label: "PostgreSQL", recommended: true }, { label: "SQLite" }],
    },
  ],
};

/** The keys as the terminal sends them: the fold key, the open key, the refuse key. */
export const ALT_H = "\x1bh";
export const ALT_A = "\x1ba";
export const ALT_X = "\x1bx";

export type Form = Component & { handleInput(data: string): void };
type Widget = string[] | ((tui: unknown, theme: unknown) => Component) | undefined;

export const settle = async () => {
  for (let i = 0; i < 20; i++) await Promise.resolve();
};

/** `args`: the first call (null: none); `settings`: the settings file's content; `entries`: what the session held before (a resume). */
export async function extension(
  args: unknown = asked,
  { settings, entries = [] }: { settings?: object; entries?: unknown[] } = {},
) {
  const agentDir = tempAgentDir();
  if (settings) {
    mkdirSync(join(agentDir, "pi-formchart"), { recursive: true });
    writeFileSync(join(agentDir, "pi-formchart", "settings.json"), JSON.stringify(settings));
  }
  const pi = fakePi();
  createFormchart({ agentDir })(pi.api);
  pi.entries.push(...(entries as never[]));
  const widgets: Widget[] = [];
  const notices: string[] = [];
  let form: Form | undefined;
  const ctx = {
    hasUI: true,
    mode: "tui",
    isIdle: () => true,
    sessionManager: { getBranch: () => pi.entries },
    ui: {
      custom: <T>(factory: (tui: unknown, theme: unknown, kb: unknown, done: (r: T) => void) => Component) =>
        new Promise<T>((resolve) => {
          form = factory(fakeHost(), plainTheme, getKeybindings(), (r) => {
            form = undefined;
            resolve(r);
          }) as Form;
        }),
      setWidget: (_key: string, lines: Widget) => widgets.push(lines),
      notify: (text: string) => notices.push(text),
    },
  };
  const call = (name: string, args: unknown) => pi.tools.get(name)!.execute("call-1", args, undefined, undefined, ctx);
  const key = [...pi.shortcuts.keys()].find((k) => k !== "alt+h")!;
  let open: Promise<void> | undefined;
  const started = entries.length
    ? await pi.fire("session_start", { type: "session_start", reason: "resume" }, ctx)
    : [];
  const pending = args === null ? undefined : await call("question", args);
  return {
    pi,
    ctx,
    agentDir,
    started,
    pending,
    notices,
    widgets,
    /** The lines above the editor, as last set (drawn at `width` columns, without the column Pi leaves). */
    line: (width = 200): string[] | undefined => {
      const last = widgets.at(-1);
      return typeof last === "function"
        ? last(fakeHost(), plainTheme)
            .render(width)
            .map((l) => l.slice(1))
        : last;
    },
    call,
    form: () => form,
    /** Settles when the form the key opened closes. */
    closed: () => open,
    /** The open key on the editor, as Pi runs its shortcut. */
    async open() {
      open = pi.shortcuts.get(key)!.handler(ctx) as Promise<void>;
      await settle();
    },
    /** What the person, the model or the clock does for one event of the chart. */
    async take(event: { type: WaitingEvent["type"] | typeof TIMED_OUT }) {
      if (event.type === "OPEN") await this.open();
      else if (event.type === "PUT_BACK") {
        form!.handleInput(KEY.esc);
        await open;
      } else if ((event.type === "ANSWER" || event.type === "REFUSE") && !form) {
        // Not open: another extension answers or declines it (tools/form-events.ts).
        const offer = event.type === "ANSWER" ? { answers: { db: "SQLite" } } : { decline: true };
        (pi.api as { events: { emit(c: string, d: unknown): void } }).events.emit(FORM_EVENTS.offer, {
          id: "ask-1",
          from: "a test",
          ...offer,
        });
      } else if (event.type === "ANSWER") {
        form!.handleInput("2");
        await open;
      } else if (event.type === "REFUSE") {
        form!.handleInput(ALT_X);
        await open;
      } else if (event.type === "WITHDRAW") {
        await call("withdraw_question", { id: "ask-1" });
        await open;
      } else if (event.type === TIMED_OUT) {
        jest.advanceTimersByTime(31_000);
      } else if (event.type === "CLOSE_BY") {
        throw new Error("A key that closes the form ends it too: no step of its own");
      } else {
        await pi.fire("session_shutdown", { type: "session_shutdown" }, ctx);
        await open;
      }
    },
  };
}
