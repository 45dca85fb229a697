/**
 * Opening a form in Pi's terminal and waiting for its result.
 *
 * Contract: no interactive UI (print/JSON mode) → `no-ui`, nothing opens; a
 * host whose `ctx.ui.custom` returns nothing (RPC mode) → `no-custom-ui`; an
 * aborted tool call closes the open form and resolves as cancelled with the
 * answers given so far; a call aborted before the form opens never opens it.
 * The outcome carries the machine's last context, so what the person entered
 * can be kept as a draft.
 */
import type { ExtensionContext } from "@mariozechner/pi-coding-agent";
import { type FormContext, type FormResult, formResult, initialContext } from "../machines/form.js";
import type { FormSpec } from "../machines/spec.js";
import { FormComponent } from "../renderers/component.js";

export type RunOutcome =
  | { kind: "done"; result: FormResult; context: FormContext; error?: string }
  | { kind: "no-ui" }
  | { kind: "no-custom-ui" };

export interface RunOptions {
  signal?: AbortSignal;
  /** Start from this context (a restored draft). */
  restore?: FormContext;
  /** A line shown at the top of the form (e.g. that a draft was restored). */
  notice?: string;
}

/** The outcome of a form that was never shown because the call was already aborted. */
export function abortedBeforeStart(spec: FormSpec, restore?: FormContext): RunOutcome {
  const context = { ...(restore ?? initialContext(spec)), outcome: "cancelled" as const };
  return { kind: "done", result: formResult(spec, context), context };
}

export async function runForm(ctx: ExtensionContext, spec: FormSpec, options: RunOptions = {}): Promise<RunOutcome> {
  const { signal } = options;
  if (!ctx.hasUI) return { kind: "no-ui" };
  if (signal?.aborted) return abortedBeforeStart(spec, options.restore);

  let form: FormComponent | undefined;
  let detach = () => {};
  const result = await ctx.ui.custom<FormResult | undefined>((tui, theme, keybindings, done) => {
    form = new FormComponent({
      spec,
      host: tui,
      theme,
      keybindings,
      done,
      machine: { restore: options.restore },
      notice: options.notice,
    });
    const onAbort = () => form?.abort();
    signal?.addEventListener("abort", onAbort, { once: true });
    detach = () => signal?.removeEventListener("abort", onAbort);
    return form;
  });
  detach();
  if (result === undefined || !form) return { kind: "no-custom-ui" };
  const outcome: RunOutcome = { kind: "done", result, context: form.snapshot.context };
  if (form.failure) outcome.error = form.failure;
  return outcome;
}
