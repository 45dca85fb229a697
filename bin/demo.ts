/**
 * Run a form in the terminal without Pi: `npm start` shows the demo form,
 * `npm start -- spec.json` any `question` arguments. On submit or cancel it
 * prints the text the model would read and the JSON `details`.
 */
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { ProcessTerminal, TUI } from "@mariozechner/pi-tui";
import { FormComponent } from "../renderers/component.js";
import { ansiTheme } from "../renderers/theme.js";
import { checkQuestionArgs } from "../schemas/question.js";
import { questionDetails, questionFormSpec, questionText } from "../tools/question.js";

const here = dirname(fileURLToPath(import.meta.url));
const file = process.argv[2] ?? join(here, "..", "examples", "demo.json");

let raw: unknown;
try {
  raw = JSON.parse(readFileSync(file, "utf8"));
} catch (error) {
  console.error(`Cannot read a form from ${file}: ${(error as Error).message}`);
  process.exit(2);
}
const checked = checkQuestionArgs(raw);
if (!checked.ok) {
  console.error(`${file}: ${checked.error.message} [${checked.error.category}]`);
  process.exit(2);
}
const spec = questionFormSpec(checked.value);
const singleShape = checked.value.compat === "single-question";

const terminal = new ProcessTerminal();
const tui = new TUI(terminal);
const form = new FormComponent({
  spec,
  host: tui,
  theme: ansiTheme,
  maxHeight: () => Math.max(6, terminal.rows - 1),
  done: (result) => {
    tui.stop();
    form.dispose();
    process.stdout.write(`\n${questionText(spec, result)}\n\n`);
    process.stdout.write(`${JSON.stringify(questionDetails(spec, result, singleShape), null, 2)}\n`);
    process.exit(result.cancelled ? 1 : 0);
  },
});
tui.addChild(form);
tui.setFocus(form);
tui.start();
