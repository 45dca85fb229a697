/**
 * A form whose only screen is a browser tab (Pi's RPC mode, `npm start --
 * --web`, a question that waits opened from its link): the page's keys go to
 * a terminal screen of the session made for the page, whose editor counts as
 * focused (it draws its cursor).
 */
import { getKeybindings } from "@earendil-works/pi-tui";
import type { FormOutcome } from "../../machines/context.js";
import type { FormSession } from "../../machines/session.js";
import type { WaitingKeys } from "../terminal/options.js";
import { TerminalScreen } from "../terminal/screen.js";
import { ansiTheme } from "../theme.js";
import type { WebServer } from "./server.js";

export function pageScreen(session: FormSession, waiting?: WaitingKeys): TerminalScreen {
  return new TerminalScreen(session, { theme: ansiTheme, keybindings: getKeybindings(), waiting });
}

/**
 * The session on `server`'s page alone, until it closes: answered, aborted
 * (its owner aborts the session), or put back as the fold key puts it, which
 * the last tab's going does too, what was entered kept.
 */
export function answerInPage(server: WebServer, session: FormSession, waiting?: WaitingKeys): Promise<FormOutcome> {
  server.serve(pageScreen(session, waiting), () => session.abort());
  return session.outcome;
}
