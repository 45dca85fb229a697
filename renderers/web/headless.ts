/**
 * A form with no terminal of its own (Pi's RPC mode, `npm start -- --web`):
 * the same `FormComponent`, on a host that draws nothing, so a browser tab is
 * its only screen. It counts as focused: the editor draws its cursor.
 */

import { FormComponent } from "../terminal/component.js";
import type { FormComponentOptions } from "../terminal/options.js";
import { ansiTheme } from "../theme.js";

export function headlessForm(options: Omit<FormComponentOptions, "host" | "theme">): FormComponent {
  const form = new FormComponent({
    ...options,
    theme: ansiTheme,
    host: { requestRender: () => {}, terminal: { rows: 40, columns: 100 } },
  });
  form.focused = true;
  return form;
}
