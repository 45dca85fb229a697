/**
 * A call with `wait: false`: put to the person as a waiting question, the
 * model told at once. In RPC mode no form can show beside the agent's work:
 * the call waits as a blocking one would, and its text says so.
 */
import type { ExtensionContext } from "@earendil-works/pi-coding-agent";
import { openIn, timesOf } from "../../machines/waiting.js";
import type { FormchartState } from "../state.js";
import { keyLabel, shownId, type WaitingEntry } from "../waiting-names.js";
import { formTool } from "./catalog.js";
import { type AnyFormTool, type Content, content, failureText, prepareForm } from "./form-tool.js";
import { hasOwnTerminal } from "./show-form.js";
import { subjectOf, waitingOf } from "./waiting.js";
import { clock } from "./waiting-line.js";

export const canAskLater = hasOwnTerminal;

export const WAITED_NOTE = "\n(This host cannot show a form beside your work, so the call waited for the answer.)";

export function askLater(
  tool: AnyFormTool,
  state: FormchartState,
  ctx: ExtensionContext,
  raw: unknown,
  folded: boolean | undefined,
  toolCallId?: string,
): Content {
  // An auto-throttle flag of this call is taken, not left behind: a waiting question opens when the person says.
  state.waitFor(toolCallId);
  const prepared = prepareForm(tool, raw, {
    folded,
    waitMs: () => 0,
    defaultTimeoutSeconds: state.settings.timeoutSeconds,
  });
  if (!prepared.ok) return content(failureText(prepared.error), tool.failure(prepared.error, raw));
  const question = waitingOf(state).ask(ctx, tool.name, prepared.args, prepared.form as never);
  return content(
    `Asked the user (${question.id}): ${subjectOf(question.form.spec)} Their answer will arrive as a message; go on with work that does not depend on it (withdraw_question withdraws it).`,
    { outcome: "pending", id: question.id },
  );
}

export function openWaiting(state: FormchartState, ctx: ExtensionContext): Promise<boolean> {
  return waitingOf(state).openNext(ctx);
}

export function withdrawWaiting(state: FormchartState, params: unknown): Content {
  const id = (params as { id?: unknown } | null | undefined)?.id;
  if (typeof id !== "string" || id === "") {
    const error = "invalid_arguments";
    return content(`Error (${error}): withdraw_question takes { "id": "ask-1" }, the id a wait: false call returned.`, {
      outcome: "error",
      error,
    });
  }
  const done = waitingOf(state).withdraw(id);
  if (!done.ok)
    return content(`Error (not_waiting): ${done.reason}`, { outcome: "error", id: shownId(id), error: "not_waiting" });
  return content(`Withdrew ${shownId(id)} (${done.subject}); the user was told.`, { outcome: "withdrawn", id });
}

/**
 * On resume, a question that cannot be asked again (its tool gone, its
 * arguments refused) is reported as not answered; an id recorded twice is
 * asked once, as first recorded.
 */
export function resumeWaiting(state: FormchartState, ctx: ExtensionContext, entries: readonly WaitingEntry[]): void {
  const queue = waitingOf(state);
  for (const e of entries) {
    queue.reserve(e.id);
    if ("ended" in e) state.waitingEnds.set(e.id, e.ended);
  }
  const seen = new Set(queue.waiting.map((q) => q.id));
  let asked = 0;
  for (const entry of entries) {
    if (!("args" in entry) || state.waitingEnds.has(entry.id) || seen.has(entry.id)) continue;
    seen.add(entry.id);
    const tool = formTool(entry.toolName);
    const prepared = tool && prepareForm(tool, entry.args, { folded: true, waitMs: () => 0 });
    if (!canAskLater(ctx) || !prepared?.ok) {
      queue.notAnswered(entry.id, entry.toolName);
      continue;
    }
    queue.ask(ctx, entry.toolName, entry.args, prepared.form as never, entry.id, false);
    asked++;
  }
  const waits = asked === 1 ? "1 question from before waits" : `${asked} questions from before wait`;
  if (asked) ctx.ui.notify(`pi-formchart: ${waits} again (${keyLabel(state.waitingKey)}).`, "info");
}

/** `/formchart waiting [open|refuse|first <id>]`: the questions that wait, or one of them opened, refused or put first. */
export async function waitingCommand(state: FormchartState, ctx: ExtensionContext, words: string[]): Promise<string> {
  const queue = waitingOf(state);
  const [what, id] = words;
  if (what === undefined) {
    const now = Date.now();
    const lines = queue.waiting.map((q) => {
      const { since, deadline } = timesOf(q.chart);
      const where = openIn(q.chart);
      const left = deadline === undefined ? "" : `, times out in ${clock(deadline - now)}`;
      return `  ${shownId(q.id)}  ${subjectOf(q.form.spec)}  (waited ${clock(now - since)}${left}${where ? `, open in the ${where}` : ""})`;
    });
    return lines.length ? ["Questions asked with wait: false:", ...lines].join("\n") : "No question waits.";
  }
  if (!["open", "refuse", "first"].includes(what) || id === undefined || words.length > 2)
    return "Usage: /formchart waiting [open|refuse|first <id>]";
  const refused = queue.byPerson(id, what === "refuse" ? "refuse" : "first");
  if (refused) return refused;
  if (what === "refuse") return `Refused ${shownId(id)}: the model was told.`;
  // The form stays open until answered or put back: the command does not wait for it.
  if (what === "open") {
    if (queue.waiting.some((q) => openIn(q.chart))) return "A question is open: answer it or put it back first.";
    void queue.openNext(ctx);
    return `Opened ${shownId(id)}.`;
  }
  return `${shownId(id)} comes first.`;
}
