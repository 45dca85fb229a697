/**
 * A form with no terminal of its own (Pi's RPC mode, `npm start -- --web`):
 * the same `FormComponent`, on a host that draws nothing, so a browser tab is
 * its only screen. It counts as focused: the editor draws its cursor.
 */

import type { FormOutcome } from "../../machines/context.js";
import { FormComponent } from "../terminal/component.js";
import type { FormComponentOptions } from "../terminal/options.js";
import { ansiTheme } from "../theme.js";
import type { WebServer } from "./server.js";

export function headlessForm(options: Omit<FormComponentOptions, "host" | "theme">): FormComponent {
  const form = new FormComponent({
    ...options,
    theme: ansiTheme,
    host: { requestRender: () => {}, terminal: { rows: 40, columns: 100 } },
  });
  form.focused = true;
  return form;
}

/**
 * The form on `server`'s page alone (a question that waits, opened from its
 * link), until it closes: answered, aborted, or put back as the fold key
 * puts it, which the last tab's going does too, what was entered kept.
 */
export async function answerInPage(
  server: WebServer,
  options: Omit<FormComponentOptions, "host" | "theme" | "done"> & { signal?: AbortSignal },
): Promise<FormOutcome> {
  const { signal, ...rest } = options;
  let form: FormComponent | undefined;
  const outcome = await new Promise<FormOutcome>((done) => {
    form = headlessForm({ ...rest, done });
    const opened = form;
    signal?.addEventListener("abort", () => opened.abort(), { once: true });
    if (signal?.aborted) opened.abort();
    else server.serve(opened, () => opened.abort());
  });
  form?.dispose();
  return outcome;
}
