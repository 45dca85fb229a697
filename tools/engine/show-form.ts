/**
 * Showing a form in Pi: in the terminal when Pi has one, else through
 * dialogs. This module and what it imports (the statechart, the view, the
 * component) are loaded on the first form, not when Pi loads the extension.
 *
 * Contract: no interactive UI (print/JSON mode) → `no-ui`, nothing opens; a
 * host without a terminal UI of its own (RPC mode: `hasOwnTerminal`) asks through its dialogs
 * instead; while a form waits for the person, a Pi 1.x host reports itself
 * blocked on a question (its program status), not working; an aborted tool call closes the open form and resolves as
 * cancelled with the answers given so far; a call aborted before the form
 * opens never opens it. The outcome carries the machine's last context, so
 * what the person entered can be kept as a draft.
 */
import type { ExtensionContext } from "@earendil-works/pi-coding-agent";
import { type FormContext, type FormOutcome, formResult, initialContext } from "../../machines/context.js";
import type { FormSpec } from "../../machines/spec.js";
import { FormComponent } from "../../renderers/terminal/component.js";
import { runDialogs } from "../../renderers/terminal/dialogs.js";
import { displayLine } from "../../renderers/text.js";

export type ShowOutcome = ({ kind: "done" } & FormOutcome) | { kind: "no-ui" };

export interface ShowOptions {
  signal?: AbortSignal;
  /** Start from this context (a restored draft). */
  restore?: FormContext;
  /** A line shown at the top of the form (that a draft was restored). */
  notice?: string;
  /** The fold key puts the form back (closes it as cancelled, what was entered kept) instead of folding it. */
  foldPutsBack?: boolean;
  /** Forms take clicks and the wheel. */
  mouse?: boolean;
  /** The command the external-editor key runs (the host's choice). */
  editorCommand?: () => string | undefined;
}

/** The outcome of a form that was never shown because the call was already aborted. */
function abortedBeforeStart(spec: FormSpec, restore?: FormContext): ShowOutcome {
  const context = { ...(restore ?? initialContext(spec)), outcome: "cancelled" as const };
  return { kind: "done", result: formResult(spec, context), context };
}

/**
 * Whether Pi draws a terminal UI of its own, where a form can open beside the
 * editor: not print or JSON mode (`hasUI` false) and not RPC mode, which Pi
 * 1.x names in `ctx.mode`; Pi 0.73 does not, and its RPC host is the one
 * whose UI lists no themes (its terminal always has the built-in ones).
 */
export function hasOwnTerminal(ctx: ExtensionContext): boolean {
  if (!ctx.hasUI) return false;
  const mode = (ctx as { mode?: string }).mode;
  if (mode !== undefined) return mode === "tui";
  const themes = (ctx.ui as { getAllThemes?: () => readonly unknown[] }).getAllThemes;
  // A host that does not say gets the terminal tried: a `custom` that returns nothing still falls back to dialogs.
  return typeof themes !== "function" || themes.call(ctx.ui).length > 0;
}

export async function showForm(ctx: ExtensionContext, spec: FormSpec, options: ShowOptions = {}): Promise<ShowOutcome> {
  const { signal } = options;
  if (!ctx.hasUI) return { kind: "no-ui" };
  if (signal?.aborted) return abortedBeforeStart(spec, options.restore);
  if (!hasOwnTerminal(ctx)) return { kind: "done", ...(await runDialogs(ctx.ui, spec, options)) };

  let form: FormComponent | undefined;
  let detach = () => {};
  const outcome = await ctx.ui.custom<FormOutcome | undefined>(
    (tui, theme, keybindings, done) => {
      form = new FormComponent({
        spec,
        host: tui,
        theme,
        keybindings,
        done,
        restore: options.restore,
        notice: options.notice,
        mouse: options.mouse,
        foldPutsBack: options.foldPutsBack,
        editorCommand: options.editorCommand,
      });
      const onAbort = () => form?.abort();
      signal?.addEventListener("abort", onAbort, { once: true });
      detach = () => signal?.removeEventListener("abort", onAbort);
      return form;
    },
    { blocked: { kind: "question", message: waitingFor(spec) } },
  );
  detach();
  // A host that still opened no custom component asks through its dialogs.
  if (outcome === undefined || !form) return { kind: "done", ...(await runDialogs(ctx.ui, spec, options)) };
  form.dispose();
  return { kind: "done", ...outcome };
}

/** What the host's program status says the form waits for: its title or first question, on one line. */
function waitingFor(spec: FormSpec): string {
  return displayLine(spec.title ?? spec.questions[0]?.prompt ?? "A question", 120);
}
