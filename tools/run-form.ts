/**
 * Opening a form inside Pi and waiting for its result.
 *
 * Contract: no interactive UI (print/JSON mode) → `no-ui`, nothing opens; a
 * host whose `ctx.ui.custom` returns nothing (RPC mode) → `no-custom-ui`; an
 * aborted tool call closes the open form and resolves as cancelled with the
 * answers given so far; a call aborted before the form opens never opens it.
 */
import type { ExtensionContext } from "@mariozechner/pi-coding-agent";
import { type FormResult, formResult, initialContext } from "../machines/form.js";
import type { FormSpec } from "../machines/spec.js";
import { FormComponent } from "../renderers/component.js";

export type RunOutcome = { kind: "done"; result: FormResult } | { kind: "no-ui" } | { kind: "no-custom-ui" };

/** Called when a form that was shown closes (the question clock). */
export type OnClosed = () => void;

export async function runForm(
  ctx: ExtensionContext,
  spec: FormSpec,
  signal: AbortSignal | undefined,
  onClosed: OnClosed = () => {},
): Promise<RunOutcome> {
  if (!ctx.hasUI) return { kind: "no-ui" };
  if (signal?.aborted) return { kind: "done", result: formResult(spec, { ...initialContext(spec), outcome: "cancelled" }) };

  let detach = () => {};
  const result = await ctx.ui.custom<FormResult | undefined>((tui, theme, keybindings, done) => {
    const form = new FormComponent({ spec, host: tui, theme, keybindings, done });
    const onAbort = () => form.abort();
    signal?.addEventListener("abort", onAbort, { once: true });
    detach = () => signal?.removeEventListener("abort", onAbort);
    return form;
  });
  detach();
  if (result === undefined) return { kind: "no-custom-ui" };
  onClosed();
  return { kind: "done", result };
}
