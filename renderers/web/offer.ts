/**
 * A form where there is no terminal (Pi's RPC mode): the client is offered
 * the whole form in a browser tab, or the one-dialog-per-question walk.
 * Contract: the first dialog is a select whose first option carries the
 * link and whose second is the walk; the page may be answered before the
 * select is (the select is then withdrawn); choosing the browser waits for
 * the page, which the call's abort ends; choosing the walk closes the page
 * (it says where the form went); dismissing the select cancels the form.
 */
import type { FormOutcome } from "../../machines/context.js";
import type { FormSession } from "../../machines/session.js";
import type { FormSpec } from "../../machines/spec.js";
import { type DialogOptions, type DialogUi, runDialogs } from "../terminal/dialogs.js";
import { displayLine } from "../text.js";
import { PageScreen } from "./page-screen.js";
import { openWebServer } from "./server.js";

export const OFFER_TITLE = "Answer this form in a browser tab (the whole form), or here one question at a time?";
export const BROWSER_OPTION = "Answer in the browser: ";
export const WALK_OPTION = "Answer here, one dialog per question";
export const ABORTED = "The agent stopped this question: the form is closed.";

/** What a form is called: its title, else its first prompt, on one line of at most `max` characters. */
export function formTitle(spec: FormSpec, max = 120): string {
  return displayLine(spec.title ?? spec.questions[0]?.prompt ?? "A question", max);
}

export async function offerBrowser(
  ui: DialogUi,
  session: FormSession,
  options: DialogOptions & { address?: string },
): Promise<FormOutcome> {
  const { signal } = options;
  const server = await openWebServer({
    address: options.address,
    title: formTitle(session.spec),
    where: "The agent waits for your answer here.",
  });
  server.serve(new PageScreen(session));
  const onAbort = () => session.abort();
  signal?.addEventListener("abort", onAbort, { once: true });
  try {
    const ended = new AbortController();
    void session.outcome.then(() => ended.abort());
    const link = `${BROWSER_OPTION}${server.url}`;
    const both = signal ? AbortSignal.any([signal, ended.signal]) : ended.signal;
    const picked = session.closed ? undefined : await ui.select(OFFER_TITLE, [link, WALK_OPTION], { signal: both });
    if (picked === WALK_OPTION && !session.closed) {
      await server.close("This form is being answered in the client's dialogs.");
      return await runDialogs(ui, session, options);
    }
    if (picked !== link) session.abort();
    if (!session.closed) ui.notify(`Waiting for the answer in the browser: ${server.url}`, "info");
    const outcome = await session.outcome;
    await server.close(signal?.aborted ? ABORTED : "This form was closed without an answer.");
    return outcome;
  } finally {
    signal?.removeEventListener("abort", onAbort);
  }
}
