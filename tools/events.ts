/**
 * Session events: the tools activated and the engine warmed at start,
 * tool_search let in on the hidden tools, form tools called from another tool
 * blocked, auto-throttle flags, `question_answered`, the session's name, and
 * cleanup at shutdown.
 *
 * The naming rule: after a questionnaire answer, a session without a name is
 * named `Q&A: <first answer>`; a name someone else gives, changes or clears
 * is theirs, and from then on the name is left alone (learnt from
 * `session_info_changed` where Pi delivers it, else from finding ours gone).
 */
import type { ExtensionAPI } from "@earendil-works/pi-coding-agent";
import { safeLine } from "../renderers/text.js";
import { TOOL_NAMES } from "./catalog.js";
import type { ToolLoadout } from "./loadout.js";
import { loadEngine } from "./on-demand.js";
import { TOOL_SEARCH } from "./request-cost.js";
import type { FormchartState } from "./state.js";

export const WARM_UP_DELAY_MS = 200;

/**
 * So the first form opens as fast as later ones, after Pi has drawn its
 * screen. The timer never keeps Pi running; a failure is left for the first
 * form to meet and report.
 */
export function warmUp(
  /** The session's: a session that ends first never loads the engine. */
  signal: AbortSignal,
  delayMs = WARM_UP_DELAY_MS,
  warm = async () => (await loadEngine()).warmUp(),
): void {
  if (signal.aborted) return;
  const timer = setTimeout(async () => {
    signal.removeEventListener("abort", stop);
    try {
      await warm();
    } catch {
      // The first form loads the engine again and reports what went wrong.
    }
  }, delayMs);
  timer.unref?.();
  const stop = () => clearTimeout(timer);
  signal.addEventListener("abort", stop, { once: true });
}

const QUESTION_TOOLS: ReadonlySet<string> = new Set(TOOL_NAMES);

/** Why a call of a form tool from another tool (a codemode script) is blocked. */
export const NESTED_CALL =
  "pi-formchart's tools ask the person in a form and cannot be called from another tool: call the tool itself.";

export interface QuestionAnsweredEvent {
  toolName: string;
  toolCallId: string;
  details: unknown;
}

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
  // Pi writes session names raw into the terminal title and footer: no escape sequence may get there.
  return text ? safeLine(text).slice(0, 60) || undefined : undefined;
}

export class SessionNaming {
  private given: string | undefined;
  private handsOff = false;

  changed(name: string | undefined): void {
    if (name !== this.given) this.handsOff = true;
  }

  nameFor(first: string, current: string | undefined): string | undefined {
    if (this.given !== undefined && current !== this.given) this.changed(current);
    if (this.handsOff || current) return undefined;
    this.given = `Q&A: ${first}`;
    return this.given;
  }
}

/** `session_info_changed`, which Pi 0.73.1's extension types do not list yet. */
type NameChange = { name?: string };

export function registerEvents(pi: ExtensionAPI, state: FormchartState, loadout: ToolLoadout): void {
  const naming = new SessionNaming();
  const { registered } = loadout;
  pi.on("session_start", (_event, ctx) => {
    loadout.start(ctx.hasUI);
    // A broken settings file is said at once, not only when a command reads or changes a setting.
    if (ctx.hasUI && state.settingsProblem)
      ctx.ui.notify(
        `pi-formchart: settings not used: ${safeLine(state.settingsProblem, 400)}; the defaults apply until it is fixed or removed.`,
        "warning",
      );
    if (ctx.hasUI && state.keyWarning) ctx.ui.notify(`pi-formchart: ${state.keyWarning}`, "warning");
    if (!ctx.hasUI || !registered.length) return;
    const declared = loadout.declared.map((tool) => tool.name);
    const more = registered.length - declared.length;
    ctx.ui.notify(
      `pi-formchart: ${declared.join(", ") || "no tool declared"}${more ? `, ${more} more callable by name` : ""} (/formchart tools to choose)`,
      "info",
    );
    warmUp(state.closed);
  });

  pi.on("tool_call", (event) => {
    const nested = (event as { parentToolCallId?: string }).parentToolCallId !== undefined;
    if (event.toolName === TOOL_SEARCH && !nested) loadout.beforeSearch(event.toolCallId);
    if (!QUESTION_TOOLS.has(event.toolName)) return;
    // A form asks the person: only the model calls it, never a script through another tool.
    if (nested) return { block: true, reason: NESTED_CALL };
    if (state.settings.autoThrottle) state.clock.flagAutoThrottle(event.toolCallId);
  });

  pi.on("tool_result", (event) => {
    if (event.toolName === TOOL_SEARCH) loadout.afterSearch(event.toolCallId, event.details);
    if (!QUESTION_TOOLS.has(event.toolName) || !carriesAnswer(event.details)) return;
    const payload: QuestionAnsweredEvent = {
      toolName: event.toolName,
      toolCallId: event.toolCallId,
      details: event.details,
    };
    pi.events.emit("question_answered", payload);
    if (event.toolName === "questionnaire" || event.toolName === "question_branch") {
      const first = firstAnswerLabel(event.details);
      const name = first ? naming.nameFor(first, pi.getSessionName()) : undefined;
      if (name) pi.setSessionName(name);
    }
  });

  (pi.on as (event: string, handler: (event: NameChange) => void) => void)("session_info_changed", (event) =>
    naming.changed(event.name),
  );

  pi.on("session_shutdown", () => state.shutdown());
}
