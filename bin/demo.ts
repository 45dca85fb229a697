/**
 * A form without Pi, printing what the model would read and exiting with
 * `EXIT_CODES`: `npm start [-- file.json | example]` in the terminal,
 * `npm start -- --web [file.json | example]` in a browser tab (the link
 * printed, and opened where a browser is at hand).
 */
import { spawn } from "node:child_process";
import { ProcessTerminal, TuiMainScreen } from "@earendil-works/pi-tui";
import type { FormOutcome } from "../machines/context.js";
import { FormSession } from "../machines/session.js";
import { FormComponent } from "../renderers/terminal/component.js";
import { ansiTheme } from "../renderers/theme.js";
import { formTitle } from "../renderers/web/offer.js";
import { PageScreen } from "../renderers/web/page-screen.js";
import { openWebServer } from "../renderers/web/server.js";
import { DEFAULT_EXAMPLE } from "../tools/form-files.js";
import { EXIT_CODES, exitCode, loadFormFile } from "./form-file.js";

const args = process.argv.slice(2);
const web = args.includes("--web");
const loaded = loadFormFile(args.find((a) => a !== "--web") ?? DEFAULT_EXAMPLE);
if (!loaded.ok) {
  console.error(loaded.message);
  process.exit(EXIT_CODES.noForm);
}
const { form } = loaded;

function report({ result }: FormOutcome): never {
  const { text, details } = form.answer(result);
  process.stdout.write(`\n${text}\n\n${JSON.stringify(details, null, 2)}\n`);
  process.exit(exitCode(result));
}

const session = new FormSession({ spec: form.spec });
if (web) {
  const server = await openWebServer({
    title: formTitle(form.spec),
    where: "The answer is printed where npm start runs.",
  });
  server.serve(new PageScreen(session));
  process.on("SIGINT", () => session.abort());
  console.error(`Answer in the browser: ${server.url}\n(Ctrl+C closes the form.)`);
  // A browser where one is at hand; none is fine, the link is printed.
  spawn("xdg-open", [server.url], { stdio: "ignore", detached: true })
    .on("error", () => {})
    .unref();
  const outcome = await session.outcome;
  await server.close("This form was closed where it was served.");
  report(outcome);
} else {
  if (!process.stdin.isTTY || !process.stdout.isTTY) {
    // Without a terminal there is no one to answer: say so rather than report an answer nobody gave.
    console.error(
      "npm start shows a form in a terminal; standard input and output must be a terminal (a TTY), or use --web.",
    );
    process.exit(EXIT_CODES.noForm);
  }
  const terminal = new ProcessTerminal();
  const tui = new TuiMainScreen(terminal);
  const component = new FormComponent(session, tui, ansiTheme, {
    maxHeight: () => Math.max(6, terminal.rows - 1),
  });
  tui.addChild(component);
  tui.setFocus(component);
  tui.start();
  const outcome = await session.outcome;
  tui.stop();
  component.dispose();
  report(outcome);
}
