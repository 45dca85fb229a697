/**
 * A minimal stand-in for Pi's `ExtensionAPI` and `ExtensionContext`: records
 * registrations, and runs `ctx.ui.custom` factories against a fake TUI so a
 * test can press keys on the component a tool opened.
 */

import type { Component } from "@earendil-works/pi-tui";
import { getKeybindings } from "@earendil-works/pi-tui";
import { plainTheme } from "../../renderers/theme.js";
import { OFFER_TITLE } from "../../renderers/web/offer.js";
import { fakeHost } from "./fake-host.js";

export interface RegisteredTool {
  name: string;
  executionMode?: string;
  promptSnippet?: string;
  promptGuidelines?: string[];
  parameters: unknown;
  prepareArguments?: (args: unknown) => unknown;
  execute: (
    id: string,
    params: unknown,
    signal: AbortSignal | undefined,
    onUpdate: unknown,
    ctx: unknown,
  ) => Promise<{ content: Array<{ type: string; text: string }>; details: any }>;
  renderCall?: (args: unknown, theme: unknown, context: unknown) => Component;
  renderResult?: (result: unknown, options: unknown, theme: unknown, context: unknown) => Component;
}

export interface RegisteredCommand {
  description?: string;
  getArgumentCompletions?: (prefix: string) => Array<{ value: string; label: string }> | null;
  handler: (args: string, ctx: unknown) => Promise<void>;
}

type Handler = (event: any, ctx: any) => unknown;

export function fakePi() {
  const tools = new Map<string, RegisteredTool>();
  const commands = new Map<string, RegisteredCommand>();
  const handlers = new Map<string, Handler[]>();
  const emitted: Array<{ name: string; data: unknown }> = [];
  /** Keyboard shortcuts registered, by key. */
  const shortcuts = new Map<string, { handler: (ctx: unknown) => Promise<void> | void }>();
  /** Message renderers registered, by custom type. */
  const renderers = new Map<string, (message: unknown, options: unknown, theme: unknown) => Component | undefined>();
  /** Messages for the model (pi.sendMessage), with how each was to be delivered. */
  const sent: Array<{ message: { content: string; details: unknown }; options: unknown }> = [];
  /** Session entries written with appendEntry (drafts). */
  const entries: Array<{ type: "custom"; customType: string; data: unknown }> = [];
  let sessionName: string | undefined;
  // Pi 1.x's loadout, as far as the extension sees it: registering a direct or model-only tool activates it;
  // a built-in tool_search; the declarations prepareLoadout hides.
  let active = new Set<string>(["read", "bash"]);
  const builtIn = [{ name: "tool_search", description: "Search tools that are not declared.", parameters: {} }];
  const api = {
    registerTool: (registered: RegisteredTool) => {
      // A call reaches `execute` as in Pi: through the tool's prepareArguments first.
      const prepare = registered.prepareArguments ?? ((args: unknown) => args);
      const execute: RegisteredTool["execute"] = (id, params, signal, onUpdate, ctx) =>
        registered.execute(id, prepare(params), signal, onUpdate, ctx);
      const tool = { ...registered, execute };
      tools.set(tool.name, tool);
      const exposure = (tool as { exposure?: string }).exposure ?? "direct";
      if (exposure === "direct" || exposure === "model-only") active.add(tool.name);
    },
    getAllTools: () => [
      ...builtIn,
      ...[...tools.values()].map((t) => ({
        name: t.name,
        description: "",
        parameters: {},
        exposure: (t as { exposure?: string }).exposure ?? "direct",
      })),
    ],
    getActiveTools: () => [...active],
    setActiveTools: (names: string[]) => {
      active = new Set(names);
    },
    registerCommand: (name: string, command: RegisteredCommand) => commands.set(name, command),
    registerShortcut: (key: string, shortcut: { handler: (ctx: unknown) => Promise<void> | void }) =>
      shortcuts.set(key, shortcut),
    sendMessage: (message: { content: string; details: unknown }, options: unknown) => sent.push({ message, options }),
    registerMessageRenderer: (type: string, render: (m: unknown, o: unknown, t: unknown) => Component | undefined) =>
      renderers.set(type, render),
    on: (event: string, handler: Handler) => handlers.set(event, [...(handlers.get(event) ?? []), handler]),
    // Pi's bus: every listener of the channel hears it in the same turn.
    events: {
      emit: (name: string, data: unknown) => {
        emitted.push({ name, data });
        for (const listener of bus.get(name) ?? []) listener(data);
      },
      on: (name: string, listener: (data: unknown) => void) => {
        bus.set(name, [...(bus.get(name) ?? []), listener]);
        return () =>
          bus.set(
            name,
            (bus.get(name) ?? []).filter((l) => l !== listener),
          );
      },
    },
    getSessionName: () => sessionName,
    appendEntry: (customType: string, data: unknown) => entries.push({ type: "custom", customType, data }),
    setSessionName: (name: string) => {
      sessionName = name;
    },
  };
  const bus = new Map<string, Array<(data: unknown) => void>>();
  /** Fire a Pi event at the registered handlers; what each returned. */
  const fire = async (name: string, event: unknown, ctx: unknown = { hasUI: false }) => {
    const returned: unknown[] = [];
    for (const h of handlers.get(name) ?? []) returned.push(await h(event, ctx));
    return returned;
  };
  /** The Pi events a handler was registered for. */
  const events = () => [...handlers.keys()];
  return {
    api: api as never,
    tools,
    commands,
    emitted,
    entries,
    shortcuts,
    renderers,
    sent,
    fire,
    events,
    sessionName: () => sessionName,
    /** The active tools (callable by the model). */
    active: () => [...active],
    /** The tools declared to the model now: the active ones no prepareLoadout hides. */
    declared: () => {
      const hidden = new Set(
        [...active].flatMap(
          (name) =>
            (
              tools.get(name) as { prepareLoadout?: () => { hiddenDeclarations?: string[] } } | undefined
            )?.prepareLoadout?.().hiddenDeclarations ?? [],
        ),
      );
      return [...active].filter((name) => !hidden.has(name));
    },
  };
}

/** A UI whose `custom` builds the component and hands it to `drive`. */
export function fakeUiContext(
  drive: (component: Component & { handleInput(data: string): void }) => void | Promise<void>,
  entries: unknown[] = [],
) {
  let opened = 0;
  const notices: string[] = [];
  const ctx = {
    hasUI: true,
    sessionManager: { getBranch: () => entries },
    ui: {
      custom: <T>(factory: (tui: unknown, theme: unknown, kb: unknown, done: (r: T) => void) => Component) =>
        new Promise<T>((resolve) => {
          opened++;
          const component = factory(fakeHost(), plainTheme, getKeybindings(), resolve) as Component & {
            handleInput(data: string): void;
          };
          void drive(component);
        }),
      notify: (text: string) => notices.push(text),
    },
  };
  return { ctx, opened: () => opened, notices };
}

export const noUiContext = {
  hasUI: false,
  ui: {
    custom: () => {
      throw new Error("custom must not be called without a UI");
    },
  },
};
export type DialogAnswer = string | boolean | undefined;

/**
 * RPC mode as Pi 0.73 has it (no `ctx.mode`, no themes, a `custom` that
 * resolves to nothing at once): select / input / confirm dialogs are
 * answered from a script (a function of the dialog may answer too).
 */
export function rpcContext(
  script: Array<DialogAnswer | ((title: string, options?: string[]) => DialogAnswer)>,
  entries: unknown[] = [],
) {
  const asked: Array<{ kind: string; title: string; options?: string[] }> = [];
  /** What was said with `notify`. */
  const notes: string[] = [];
  const next = (kind: string, title: string, options?: string[]) => {
    // The offer of the browser tab comes first (renderers/web/offer.ts): these scripts answer the dialogs.
    if (kind === "select" && title === OFFER_TITLE) return options?.[1];
    asked.push({ kind, title, options });
    if (script.length === 0) throw new Error(`no scripted answer for ${kind} "${title}"`);
    const answer = script.shift();
    return typeof answer === "function" ? answer(title, options) : answer;
  };
  const ctx = {
    hasUI: true,
    sessionManager: { getBranch: () => entries },
    ui: {
      custom: async () => undefined,
      getAllThemes: () => [],
      select: async (title: string, options: string[]) => next("select", title, options) as string | undefined,
      input: async (title: string) => next("input", title) as string | undefined,
      confirm: async (title: string) => next("confirm", title) === true,
      notify: (text: string) => notes.push(text),
    },
  };
  return { ctx, asked, notes };
}
