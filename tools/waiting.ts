/** What Pi loads at start for questions asked with `wait: false`; the rest is tools/engine/waiting.ts. */
import type { ExtensionAPI } from "@earendil-works/pi-coding-agent";
import { Text } from "@earendil-works/pi-tui";
import { Type } from "typebox";
import { displayText } from "../renderers/text.js";
import type { FormTheme } from "../renderers/theme.js";
import { loadEngine } from "./on-demand.js";
import type { FormchartState } from "./state.js";
import { shownId, WAITING_ENTRY, waitingEntryOf } from "./waiting-names.js";

export const WITHDRAW_TOOL = "withdraw_question";

/** Declared on Pi 0.73 only: on 1.x the model learns of it from the text of a call that did not wait. */
export const WITHDRAW_DECLARATION = {
  name: WITHDRAW_TOOL,
  description: "Withdraw a wait: false question by id (ask-1); the user is told.",
  parameters: Type.Object({ id: Type.String() }),
};

export function registerWaiting(pi: ExtensionAPI, state: FormchartState): void {
  pi.registerShortcut(state.waitingKey as never, {
    description: "pi-formchart: open the next question that waits",
    handler: async (ctx) => {
      const opened = await (await loadEngine()).openWaiting(state, ctx);
      if (!opened) ctx.ui.notify("pi-formchart: no question waits.", "info");
    },
  });
  pi.registerMessageRenderer(WAITING_ENTRY, (message, _options, theme) => {
    const body = typeof message.content === "string" ? message.content : "";
    return new Text(waitingMessage(body, message.details, theme), 1, 0);
  });
  pi.registerTool({
    ...WITHDRAW_DECLARATION,
    label: "Withdraw question",
    execute: async (_id, params) => (await loadEngine()).withdrawWaiting(state, params),
  });
  pi.on("session_start", async (_event, ctx) => {
    // Whatever else a session file holds, each well-formed entry is kept.
    const entries = (ctx.sessionManager?.getBranch() ?? []).flatMap((e) => {
      const entry = e as { type?: string; customType?: string; data?: unknown } | null;
      const data =
        entry?.type === "custom" && entry.customType === WAITING_ENTRY ? waitingEntryOf(entry.data) : undefined;
      return data ? [data] : [];
    });
    if (entries.length) (await loadEngine()).resumeWaiting(state, ctx, entries);
  });
}

/** What the model got for a question asked with wait: false, as the transcript shows it: what happened, then the text. */
export function waitingMessage(content: string, details: unknown, theme: FormTheme): string {
  const { id, outcome, answeredIn } = (details ?? {}) as { id?: unknown; outcome?: unknown; answeredIn?: unknown };
  const name = shownId(typeof id === "string" ? id : "a question");
  const by = typeof answeredIn === "string" ? ` in ${shownId(answeredIn)}` : "";
  const head =
    outcome === "declined"
      ? theme.fg("warning", `✗ ${by ? `${name} was declined${by}` : `You declined ${name}`}; the model was told:`)
      : outcome === "timed_out"
        ? theme.fg("warning", `◷ ${name} timed out; the model got:`)
        : outcome === "not_answered"
          ? theme.fg("warning", `${name} could not be asked again; the model was told:`)
          : theme.fg(
              "success",
              by ? `✓ ${name} was answered${by}; the model got:` : `✓ Your answer to ${name} went to the model:`,
            );
  // The first line names the question for the model; the heading says it here.
  const text = outcome === "not_answered" ? content : content.slice(content.indexOf("\n") + 1);
  return [
    head,
    ...displayText(text)
      .split("\n")
      .map((line) => `  ${line}`),
  ].join("\n");
}
