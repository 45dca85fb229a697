/**
 * The one path from a request to an answer, for a tool call, `/rich-questions`
 * and `elicit()` alike.
 *
 * Contract: a refused request or a host without a UI opens nothing; a form
 * closed without submit leaves a draft (never what a timeout took); a submit
 * clears the draft it came from; the question clock restarts when a form
 * closes; a form's own error is reported, and what was entered kept.
 */
import { type ExtensionContext, VERSION } from "@earendil-works/pi-coding-agent";
import type { FormOutcome, FormResult } from "../../machines/context.js";
import { enteredContext, hasInput } from "../../machines/entered.js";
import type { FormSpec } from "../../machines/spec.js";
import type { WaitingKeys } from "../../renderers/terminal/options.js";
import { safeLine } from "../../renderers/text.js";
import type { WebServer } from "../../renderers/web/server.js";
import type { ArgumentError } from "../../schemas/validate.js";
import { piEditorCommand } from "../pi-editor.js";
import type { FormchartState, FormKeeper, ShownForm } from "../state.js";
import { DRAFT_ENTRY, type DraftData, draftQuestions, findDraft, formKey } from "./drafts.js";
import { type FormJob, type PreparedForm, prepareForm } from "./form-tool.js";
import { registerOpen } from "./offers.js";
import { type ShowOptions, type ShowOutcome, showForm } from "./show-form.js";

export const RESTORED_NOTICE = "↺ Restored what you entered before this form was closed.";

export function keptNotice(labels: readonly string[]): string {
  return `↺ The form changed since it was closed: restored your answers to ${labels.join(", ")}; the others start empty.`;
}

export interface RunRequest {
  state: FormchartState;
  ctx: ExtensionContext;
  raw: unknown;
  folded?: boolean;
  toolCallId?: string;
  /** A form the person opened has no timeout of the settings'. */
  defaultTimeout?: boolean;
  signal?: AbortSignal;
}

export type RunOutcome<A, R> =
  | { kind: "refused"; error: ArgumentError }
  | { kind: "no-ui"; spec: FormSpec }
  | { kind: "closed"; args: A; spec: FormSpec; result: FormResult; answer: R; answeredIn?: string };

export async function run<A, R>(job: FormJob<A, R>, request: RunRequest): Promise<RunOutcome<A, R>> {
  const { state } = request;
  const prepared = prepareForm(job, request.raw, {
    folded: request.folded,
    waitMs: (args) => state.waitFor(request.toolCallId, job.cooldownSeconds?.(args) ?? 0),
    defaultTimeoutSeconds: request.defaultTimeout ? state.settings.timeoutSeconds : undefined,
  });
  if (!prepared.ok) return { kind: "refused", error: prepared.error };
  const { form } = prepared;
  const tool = (job as { name?: string }).name ?? "elicit";
  const outcome = await showAndKeep(state, request.ctx, form, request.signal, { tool });
  if (outcome.kind === "no-ui") return { kind: "no-ui", spec: form.spec };
  return {
    kind: "closed",
    args: prepared.args,
    spec: form.spec,
    result: outcome.result,
    answer: form.answer(outcome.result),
    ...(outcome.answeredIn ? { answeredIn: outcome.answeredIn } : {}),
  };
}

/**
 * `waiting`: a question that waits, whose Esc, fold key and open key put it back (tools/engine/waiting.ts); `page`:
 * opened from its link; `present`: told the session instead of registering it as an open form of `tool`.
 */
export function showAndKeep(
  state: FormchartState,
  ctx: ExtensionContext,
  form: ShownForm | PreparedForm<unknown>,
  signal: AbortSignal | undefined,
  options: { waiting?: WaitingKeys; page?: WebServer; tool?: string; present?: ShowOptions["present"] } = {},
): Promise<ShowOutcome> {
  const { waiting, page, tool = "form" } = options;
  let close: ReturnType<typeof registerOpen> | undefined;
  const present = options.present ?? ((session, where) => (close = registerOpen(state, tool, session, where)));
  return state.track(signal, async (formSignal) => {
    const { spec } = form;
    const key = formKey(spec);
    const found = findDraft(ctx.sessionManager?.getBranch() ?? [], key, spec);
    const outcome = await showForm(ctx, spec, {
      signal: formSignal,
      restore: found?.context,
      notice: found ? (found.kept ? keptNotice(found.kept) : RESTORED_NOTICE) : undefined,
      mouse: state.settings.mouse,
      waiting,
      page,
      present,
      web: { inTerminal: state.settings.web, address: state.settings.webAddress },
      editorCommand: () =>
        piEditorCommand({
          hostVersion: VERSION,
          agentDir: state.agentDir,
          cwd: ctx.cwd,
          projectTrusted: ctx.isProjectTrusted?.() ?? false,
        }),
    }).catch((error: unknown) => {
      // A screen that failed to show still leaves the open forms: no other extension offers to a form gone.
      close?.(undefined);
      throw error;
    });
    if (outcome.kind !== "done") return outcome;
    const answeredIn = close?.(outcome.result);
    if (answeredIn) outcome.answeredIn = answeredIn;
    handOver(state, form as ShownForm, outcome, found?.key);
    if (outcome.error) {
      ctx.ui.notify(
        `pi-formchart: the form closed after an error (${safeLine(outcome.error, 300)}); what was entered is kept and will be offered again.`,
        "error",
      );
    }
    return outcome;
  });
}

/**
 * The one place a closed form leaves anything with the host: kept as the last
 * form, the question clock restarted, and its draft recorded (what the person
 * entered, never the options a timeout took for them) or, on a submit, the
 * draft it came from cleared.
 */
function handOver(keeper: FormKeeper, form: ShownForm, outcome: FormOutcome, restoredFrom: string | undefined): void {
  const { spec } = form;
  keeper.keep(form);
  keeper.clock.markClosed();
  if (outcome.result.cancelled) {
    const entered = enteredContext(spec, outcome.context);
    if (hasInput(spec, entered))
      keeper.record(DRAFT_ENTRY, {
        key: formKey(spec),
        context: entered,
        questions: draftQuestions(spec),
      } satisfies DraftData);
  } else if (restoredFrom !== undefined) keeper.record(DRAFT_ENTRY, { key: restoredFrom } satisfies DraftData);
}
