/**
 * A form in the terminal without Pi: `npm start [-- file.json | example]`,
 * printing what the model would read, and exiting with `EXIT_CODES`.
 */
import { ProcessTerminal, TuiMainScreen } from "@earendil-works/pi-tui";
import { FormComponent } from "../renderers/terminal/component.js";
import { ansiTheme } from "../renderers/theme.js";
import { DEFAULT_EXAMPLE } from "../tools/form-files.js";
import { EXIT_CODES, exitCode, loadFormFile } from "./form-file.js";

const loaded = loadFormFile(process.argv[2] ?? DEFAULT_EXAMPLE);
if (!loaded.ok) {
  console.error(loaded.message);
  process.exit(EXIT_CODES.noForm);
}
const { form } = loaded;
if (!process.stdin.isTTY || !process.stdout.isTTY) {
  // Without a terminal there is no one to answer: say so rather than report an answer nobody gave.
  console.error("npm start shows a form in a terminal; standard input and output must be a terminal (a TTY).");
  process.exit(EXIT_CODES.noForm);
}

const terminal = new ProcessTerminal();
const tui = new TuiMainScreen(terminal);
const component = new FormComponent({
  spec: form.spec,
  host: tui,
  theme: ansiTheme,
  maxHeight: () => Math.max(6, terminal.rows - 1),
  done: ({ result }) => {
    tui.stop();
    component.dispose();
    const { text, details } = form.answer(result);
    process.stdout.write(`\n${text}\n\n${JSON.stringify(details, null, 2)}\n`);
    process.exit(exitCode(result));
  },
});
tui.addChild(component);
tui.setFocus(component);
tui.start();
