/**
 * Forms for other extensions: `elicit()`, and the same over Pi's event bus.
 *
 * Contract:
 * - `elicit(ctx, {message, requestedSchema}, signal?)` takes MCP's form-mode
 *   `elicitation/create` parameters and resolves with MCP's result:
 *   `{action: "accept", content}` (content valid against the schema),
 *   `{action: "decline"}` or `{action: "cancel"}` (Esc, or `signal` aborted);
 * - a request no form can be opened for is rejected with an `ElicitError`
 *   whose `category` says why (`unsupported_schema`, `invalid_schema`,
 *   `invalid_pattern`, `too_many_questions`, `invalid_arguments`, `no_ui`);
 * - on the bus, an `ElicitEventRequest` emitted on `ELICIT_CHANNEL` is
 *   claimed by one listener (`claimed` is set before `emit` returns) and
 *   answered through its `reply` or `fail` callback.
 *
 * Pi loads every extension with its own copy of the modules it imports: the
 * loaded extension's form state is published under a process-wide symbol.
 */
import { type ExtensionAPI, type ExtensionContext, getAgentDir } from "@earendil-works/pi-coding-agent";
import { type ElicitRequestInput, errorLine } from "../schemas/elicit-types.js";
import { ElicitError, type ElicitFailure } from "./elicit-error.js";
import type { ElicitResult } from "./engine/schema-form.js";
import { loadEngine } from "./on-demand.js";
import { FormchartState } from "./state.js";

export { ElicitError, type ElicitErrorCategory, type ElicitFailure } from "./elicit-error.js";

export const ELICIT_CHANNEL = "pi-formchart:elicit";

export interface ElicitEventRequest {
  ctx: ExtensionContext;
  request: ElicitRequestInput;
  signal?: AbortSignal;
  reply(result: ElicitResult): void;
  /** Called once instead of `reply` when no form could open. */
  fail(error: ElicitFailure): void;
  /** Set by the listener that takes the request, before `emit` returns. */
  claimed?: boolean;
}

const RUNNER = Symbol.for("pi-formchart.form-runner");
type RunnerSlot = { [RUNNER]?: FormchartState };
let standalone: FormchartState | undefined;

/** Without pi-formchart loaded as an extension: a form state of our own, without drafts. */
function formRunner(): FormchartState {
  const published = (globalThis as RunnerSlot)[RUNNER];
  if (published) return published;
  standalone ??= new FormchartState(getAgentDir());
  return standalone;
}

/** Every failure is an `ElicitError`: a fault of the form, not the request, takes the category of a request no form can serve. */
export async function elicitWith(
  state: FormchartState,
  ctx: ExtensionContext,
  request: ElicitRequestInput,
  signal?: AbortSignal,
): Promise<ElicitResult> {
  try {
    return await (await loadEngine()).elicitWith(state, ctx, request, signal);
  } catch (error) {
    throw error instanceof ElicitError ? error : new ElicitError("invalid_arguments", errorLine(error));
  }
}

export function elicit(
  ctx: ExtensionContext,
  request: ElicitRequestInput,
  signal?: AbortSignal,
): Promise<ElicitResult> {
  return elicitWith(formRunner(), ctx, request, signal);
}

function failureOf(error: unknown): ElicitFailure {
  if (error instanceof ElicitError) return { category: error.category, message: error.message };
  return { category: "invalid_arguments", message: errorLine(error) };
}

export function registerElicit(pi: ExtensionAPI, state: FormchartState): void {
  (globalThis as RunnerSlot)[RUNNER] = state;
  pi.events.on(ELICIT_CHANNEL, async (data) => {
    const event = data as Partial<ElicitEventRequest> | undefined;
    if (!event || typeof event !== "object" || event.claimed || typeof event.reply !== "function") return;
    event.claimed = true;
    const reply = event.reply;
    const fail = typeof event.fail === "function" ? event.fail : () => reply({ action: "cancel", outcome: "error" });
    if (!event.ctx)
      return fail({ category: "invalid_arguments", message: "ctx: the caller's ExtensionContext is missing" });
    // Exactly one callback: what the caller's own callback throws goes to the bus (Pi logs it), never on to fail.
    let outcome: { result: ElicitResult } | { failure: ElicitFailure };
    try {
      outcome = { result: await elicitWith(state, event.ctx, event.request as ElicitRequestInput, event.signal) };
    } catch (error) {
      outcome = { failure: failureOf(error) };
    }
    if ("result" in outcome) reply(outcome.result);
    else fail(outcome.failure);
  });
}
