/** What Pi loads at start for questions asked with `wait: false`; the rest is tools/engine/waiting.ts. */
import type { ExtensionAPI } from "@earendil-works/pi-coding-agent";
import { Type } from "typebox";
import { loadEngine } from "./on-demand.js";
import type { FormchartState } from "./state.js";
import { WAITING_ENTRY, WAITING_KEY, type WaitingEntry } from "./waiting-names.js";

export const WITHDRAW_TOOL = "withdraw_question";

/** Declared on Pi 0.73 only: on 1.x the model learns of it from the text of a call that did not wait. */
export const WITHDRAW_DECLARATION = {
  name: WITHDRAW_TOOL,
  description: "Withdraw a wait: false question by id (ask-1); the user is told.",
  parameters: Type.Object({ id: Type.String() }),
};

export function registerWaiting(pi: ExtensionAPI, state: FormchartState): void {
  pi.registerShortcut(WAITING_KEY, {
    description: "pi-formchart: open the oldest question that waits",
    handler: async (ctx) => {
      const opened = await (await loadEngine()).openWaiting(state, ctx);
      if (!opened) ctx.ui.notify("pi-formchart: no question waits.", "info");
    },
  });
  pi.registerTool({
    ...WITHDRAW_DECLARATION,
    label: "Withdraw question",
    execute: async (_id, params) => (await loadEngine()).withdrawWaiting(state, params),
  });
  pi.on("session_start", async (_event, ctx) => {
    const entries = (ctx.sessionManager?.getBranch() ?? []).flatMap((e) => {
      const entry = e as { type?: string; customType?: string; data?: unknown };
      return entry.type === "custom" && entry.customType === WAITING_ENTRY ? [entry.data as WaitingEntry] : [];
    });
    if (entries.length) (await loadEngine()).resumeWaiting(state, ctx, entries);
  });
}
