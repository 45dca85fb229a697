/**
 * A form in the terminal without Pi: `npm start [-- file.json | example]`,
 * printing what the model would read. Exit code: 0 submitted, 1 cancelled or
 * declined, 2 invalid input or no terminal.
 */
import { ProcessTerminal, TuiMainScreen } from "@earendil-works/pi-tui";
import { FormComponent } from "../renderers/terminal/component.js";
import { ansiTheme } from "../renderers/theme.js";
import { loadFormFile } from "./form-file.js";

const loaded = loadFormFile(process.argv[2] ?? "demo");
if (!loaded.ok) {
  console.error(loaded.message);
  process.exit(2);
}
const { form } = loaded;
if (!process.stdin.isTTY || !process.stdout.isTTY) {
  // Without a terminal there is no one to answer: say so rather than report an answer nobody gave.
  console.error("npm start shows a form in a terminal; standard input and output must be a terminal (a TTY).");
  process.exit(2);
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
    process.exit(result.cancelled ? 1 : 0);
  },
});
tui.addChild(component);
tui.setFocus(component);
tui.start();
