/**
 * A session as a web page shows it and answers it: the page's view
 * (page-view.ts) and its controls' events, sent to the session as the
 * terminal's screen sends a key's. A question that waits is put back or
 * refused as its keys do in the terminal (`WaitingKeys`). Typed text enters
 * the answer as the terminal's editor lets it (`typedText`).
 */
import type { FormOutcome } from "../../machines/context.js";
import type { FormSession } from "../../machines/session.js";
import { singleLine } from "../../machines/spec.js";
import { pressWaiting, sendToForm, type WaitingKeys } from "../terminal/options.js";
import { displayText, typedText } from "../text.js";
import type { PageEvent } from "./bodies.js";
import type { PageView } from "./client/view.js";
import { pageView } from "./page-view.js";
import type { WebServer } from "./server.js";

export class PageScreen {
  private seen: unknown;
  private step = 0;

  constructor(
    readonly session: FormSession,
    private readonly waiting?: WaitingKeys,
  ) {}

  /** The form's step: it changes with every snapshot, never with a clock's tick. */
  get version(): number {
    const snapshot = this.session.snapshot;
    if (snapshot !== this.seen) {
      this.seen = snapshot;
      this.step++;
    }
    return this.step;
  }

  view(): PageView {
    return pageView(this.session, this.version, this.waiting !== undefined);
  }

  /** A control's events, in order; the first that did nothing says why (the rest are still sent, as a click's are). */
  act(events: readonly PageEvent[]): string | undefined {
    const session = this.session;
    let why: string | undefined;
    for (const event of events) {
      if (session.closed) break;
      session.stopClock();
      const said = this.one(event);
      why ??= said;
    }
    return why;
  }

  private one(event: PageEvent): string | undefined {
    const session = this.session;
    if (event.type === "PUT_BACK" || event.type === "REFUSE") {
      if (!this.waiting) return "Only a question that waits is put back or refused.";
      if (event.type === "PUT_BACK") return void session.abort();
      const refused = pressWaiting(session, this.waiting, "refuse");
      return refused === undefined ? undefined : displayText(refused);
    }
    if (event.type === "STOP_CLOCK") return undefined;
    const typed = event.type === "TYPE" || event.type === "SUBMIT_TEXT" ? this.typed(event) : event;
    const step = sendToForm(session, typed, this.waiting);
    if (step.taken || session.closed) return undefined;
    return step.why === undefined ? "That does nothing here." : displayText(step.why);
  }

  /** Typed or pasted text as the terminal's editor lets it in: a one-line answer's line breaks become spaces. */
  private typed<E extends { type: "TYPE" | "SUBMIT_TEXT"; text: string }>(event: E): E {
    const position = this.session.position;
    const oneLine = position.kind === "question" && position.mode === "typing";
    const q = position.kind === "question" ? this.session.spec.questions[position.q] : undefined;
    return { ...event, text: typedText(event.text, oneLine && q !== undefined && singleLine(q)) };
  }
}

/**
 * The session on `server`'s page alone, until it closes: answered, aborted
 * (its owner aborts the session), or put back as the fold key puts it, which
 * the last tab's going does too, what was entered kept.
 */
export function answerInPage(server: WebServer, session: FormSession, waiting?: WaitingKeys): Promise<FormOutcome> {
  server.serve(new PageScreen(session, waiting), () => session.abort());
  return session.outcome;
}
