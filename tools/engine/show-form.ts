/**
 * Showing a form in Pi: in the terminal when Pi has one, else through dialogs.
 *
 * Contract: no interactive UI → `no-ui`, nothing opens; RPC asks through
 * dialogs; Pi 1.x reports itself blocked on a question while a form waits; an
 * aborted call closes the form as cancelled with the answers so far (one
 * aborted before it opens never opens it); the outcome carries the machine's
 * last context, for the draft.
 */
import type { ExtensionContext } from "@earendil-works/pi-coding-agent";
import { type FormContext, type FormOutcome, formResult, initialContext } from "../../machines/context.js";
import { FormSession } from "../../machines/session.js";
import type { FormSpec } from "../../machines/spec.js";
import { FormComponent } from "../../renderers/terminal/component.js";
import { runDialogs } from "../../renderers/terminal/dialogs.js";
import type { WaitingKeys } from "../../renderers/terminal/options.js";
import { qrCode } from "../../renderers/terminal/qr.js";
import { ABORTED, formTitle, offerBrowser } from "../../renderers/web/offer.js";
import { answerInPage, PageScreen } from "../../renderers/web/page-screen.js";
import { openWebServer, type WebServer } from "../../renderers/web/server.js";
import type { Shown } from "../form-events.js";

/** `answeredIn`: the extension whose offer answered (or cancelled) it (tools/form-events.ts). */
export type ShowOutcome = ({ kind: "done"; answeredIn?: string } & FormOutcome) | { kind: "no-ui" };

export interface ShowOptions {
  signal?: AbortSignal;
  restore?: FormContext;
  notice?: string;
  /** A question that waits: Esc and the fold key put it back (closed as cancelled, what was entered kept). */
  waiting?: WaitingKeys;
  mouse?: boolean;
  editorCommand?: () => string | undefined;
  /** The browser tab: offered in RPC mode, and in the terminal's help line when `inTerminal`. */
  web?: { inTerminal: boolean; address: string };
  /** Only in this page: a question that waits, opened from its link. */
  page?: WebServer;
  /** Told the session and where it shows, once it does. */
  present?: (session: FormSession, where: Shown) => void;
}

function abortedBeforeStart(spec: FormSpec, restore?: FormContext): ShowOutcome {
  const context = { ...(restore ?? initialContext(spec)), outcome: "cancelled" as const };
  return { kind: "done", result: formResult(spec, context), context };
}

/** Pi 1.x names RPC mode in `ctx.mode`; Pi 0.73's RPC host is the one whose UI lists no themes. */
export function hasOwnTerminal(ctx: ExtensionContext): boolean {
  if (!ctx.hasUI) return false;
  const mode = (ctx as { mode?: string }).mode;
  if (mode !== undefined) return mode === "tui";
  const themes = (ctx.ui as { getAllThemes?: () => readonly unknown[] }).getAllThemes;
  // A host that does not say gets the terminal tried: a `custom` that returns nothing still falls back to dialogs.
  return typeof themes !== "function" || themes.call(ctx.ui).length > 0;
}

/** The engine's one door to a form: the session it builds, on the screen the host has. */
export async function showForm(ctx: ExtensionContext, spec: FormSpec, options: ShowOptions = {}): Promise<ShowOutcome> {
  const { signal } = options;
  if (!ctx.hasUI) return { kind: "no-ui" };
  if (signal?.aborted) return abortedBeforeStart(spec, options.restore);
  const session = new FormSession({ spec, restore: options.restore, notice: options.notice });
  const abort = () => session.abort();
  signal?.addEventListener("abort", abort, { once: true });
  try {
    return { kind: "done", ...(await onScreen(ctx, session, options)) };
  } finally {
    signal?.removeEventListener("abort", abort);
    session.dispose();
  }
}

function onScreen(ctx: ExtensionContext, session: FormSession, options: ShowOptions): Promise<FormOutcome> {
  const { page, waiting, signal, web } = options;
  const where: Shown = page ? "page" : hasOwnTerminal(ctx) ? "terminal" : "dialogs";
  options.present?.(session, where);
  if (page) return answerInPage(page, session, waiting);
  if (where === "dialogs")
    return web ? offerBrowser(ctx.ui, session, { signal, address: web.address }) : runDialogs(ctx.ui, session, options);
  return inTerminal(ctx, session, options);
}

async function inTerminal(ctx: ExtensionContext, session: FormSession, options: ShowOptions): Promise<FormOutcome> {
  const server = options.web?.inTerminal ? await openLink(options.web.address, session.spec) : undefined;
  // A link another device can open (webAddress not loopback) is also drawn as a QR code for a phone.
  const qr = server ? await qrCode(server.url) : undefined;
  let form: FormComponent | undefined;
  const outcome = await ctx.ui.custom<FormOutcome | undefined>(
    (tui, theme, keybindings, done) => {
      form = new FormComponent(session, tui, theme, {
        keybindings,
        mouse: options.mouse,
        waiting: options.waiting,
        editorCommand: options.editorCommand,
        link: server?.url,
        qr,
      });
      server?.serve(new PageScreen(session, options.waiting));
      // Pi takes the component down in the same turn as the key that closed the form: nothing more is drawn.
      // Another extension may have answered it already, as it was told the form opened: then nothing is drawn.
      const finish = () => {
        if (!session.settled) return;
        stop();
        done(session.settled);
      };
      const stop = session.watch(finish);
      finish();
      return form;
    },
    { blocked: { kind: "question", message: formTitle(session.spec) } },
  );
  form?.dispose();
  await server?.close(
    options.signal?.aborted
      ? ABORTED
      : outcome?.result.cancelled
        ? "Closed in the terminal without an answer."
        : "Answered in the terminal.",
  );
  // A host that still opened no custom component asks through its dialogs.
  if (outcome === undefined || !form) return runDialogs(ctx.ui, session, options);
  return outcome;
}

/** The link's server; a form still opens without it when the address cannot be listened on. */
async function openLink(address: string, spec: FormSpec): Promise<WebServer | undefined> {
  try {
    return await openWebServer({ address, title: formTitle(spec) });
  } catch {
    return undefined;
  }
}
