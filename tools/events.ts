/**
 * Session events: a notice when the extension loads, auto-throttle flags on
 * question tool calls, `question_answered` on the shared event bus, and a
 * session name taken from the first answer of a questionnaire.
 */
import type { ExtensionAPI } from "@mariozechner/pi-coding-agent";
import { ALL_TOOLS } from "./settings.js";
import type { FormchartState } from "./state.js";

const QUESTION_TOOLS: ReadonlySet<string> = new Set(ALL_TOOLS);

export interface QuestionAnsweredEvent {
  toolName: string;
  toolCallId: string;
  details: unknown;
}

/** Whether a tool result carries an answer: qwizard's `answer`, or a non-empty `answers` list. */
export function carriesAnswer(details: unknown): boolean {
  if (!details || typeof details !== "object") return false;
  const d = details as { answer?: unknown; answers?: unknown; cancelled?: unknown };
  if (d.cancelled === true) return false;
  if (d.answer !== undefined && d.answer !== null) return true;
  return Array.isArray(d.answers) && d.answers.length > 0;
}

function firstAnswerLabel(details: unknown): string | undefined {
  const answers = (details as { answers?: Array<{ label?: unknown }> })?.answers;
  const label = Array.isArray(answers) ? answers[0]?.label : undefined;
  const text = Array.isArray(label) ? label.join(", ") : typeof label === "string" ? label : undefined;
  return text?.replace(/\s+/g, " ").trim().slice(0, 60) || undefined;
}

export function registerEvents(pi: ExtensionAPI, state: FormchartState, registered: string[]): void {
  pi.on("session_start", (_event, ctx) => {
    if (ctx.hasUI && registered.length)
      ctx.ui.notify(`pi-formchart: ${registered.join(", ")} ready (/qwizard for settings)`, "info");
  });

  pi.on("tool_call", (event) => {
    if (QUESTION_TOOLS.has(event.toolName) && state.settings.autoThrottle)
      state.clock.flagAutoThrottle(event.toolCallId);
  });

  pi.on("tool_result", (event) => {
    if (!QUESTION_TOOLS.has(event.toolName) || !carriesAnswer(event.details)) return;
    const payload: QuestionAnsweredEvent = {
      toolName: event.toolName,
      toolCallId: event.toolCallId,
      details: event.details,
    };
    pi.events.emit("question_answered", payload);
    if (event.toolName === "questionnaire" || event.toolName === "question_branch") {
      const first = firstAnswerLabel(event.details);
      if (first && !pi.getSessionName()) pi.setSessionName(`Q&A: ${first}`);
    }
  });
}
