/**
 * Questions asked without stopping the model (`wait: false`), each the
 * waiting chart (machines/waiting.ts) around its form, counted on a line
 * above the editor. Contract: the answer (or the person's refusal) reaches
 * the model as a message with what the blocking call would have returned,
 * plus the question's id; Esc or the fold key puts the form back with its
 * draft, behind the others; the open key in an open form goes to the next;
 * a question is recorded when asked and when it ends, one not ended is
 * offered again on resume, and one that ended takes no second answer. Ids
 * are unique in the session, and every id shown is cleaned and cut. With
 * the `web` setting on, the first that waits has a link of its own: a page
 * that connects opens it there, as the open key would; the last tab gone
 * puts it back; its page closes, saying why, when it ends or is opened in
 * the terminal.
 */
import type { ExtensionContext } from "@earendil-works/pi-coding-agent";
import type { KeyId } from "@earendil-works/pi-tui";
import type { FormResult } from "../../machines/context.js";
import type { Offer } from "../../machines/offer.js";
import { FormSession } from "../../machines/session.js";
import { openIn, startWaitingChart, stateOf, timedOutResult, timesOf, waitsForKey } from "../../machines/waiting.js";
import type { WebServer } from "../../renderers/web/server.js";
import { type OfferReply, questionsData } from "../form-events.js";
import type { FormchartState } from "../state.js";
import { keyLabel, REFUSE_KEY, shownId, WAITING_ENTRY, WAITING_WIDGET, type WaitingEntry } from "../waiting-names.js";
import type { PreparedForm, ToolAnswer } from "./form-tool.js";
import { answeredBy, closedOutcome, offerOn, WAITING_CLOSED } from "./offers.js";
import { showAndKeep } from "./run.js";
import { hasOwnTerminal, type ShowOutcome } from "./show-form.js";
import { fittedLine, lineTexts, showTitle, subjectOf, waitingLine } from "./waiting-line.js";
import { closePage, type LinkedQuestion, PAGE_CLOSED, startPage } from "./waiting-page.js";

export { subjectOf } from "./waiting-line.js";

export const REFUSED_TEXT = "User declined to answer this question.";

/** What the model reads of a question the person (or another extension) refused. */
const REFUSED: ToolAnswer<unknown> = { text: REFUSED_TEXT, details: { outcome: "declined" } };

export interface WaitingQuestion extends LinkedQuestion {
  id: string;
  toolName: string;
  /** The call's arguments as checked: what asks it again after a resume. */
  args: unknown;
  form: PreparedForm<ToolAnswer<unknown>>;
  /** Closes its open form when it ends elsewhere. */
  close?: AbortController;
  /** Its form while open: an offer from another extension goes there. */
  session?: FormSession;
  /** The extension whose offer answered it. */
  answeredIn?: string;
}

/** Ids past this are not counted on from: `ask-<n>` stays exact. */
const LARGEST_COUNTED = Number.MAX_SAFE_INTEGER - 1;

export class WaitingQuestions {
  private readonly questions: WaitingQuestion[] = [];
  /** Every id the session has used: none is given twice. */
  private readonly used = new Set<string>();
  private next = 1;
  private ticker: ReturnType<typeof setInterval> | undefined;
  private ctx: ExtensionContext | undefined;

  constructor(private readonly state: FormchartState) {
    state.closed.addEventListener("abort", () => this.endAll(), { once: true });
  }

  /** In the order the open key takes them. */
  get waiting(): readonly WaitingQuestion[] {
    return this.questions;
  }

  private get key(): string {
    return keyLabel(this.state.waitingKey);
  }

  /** Never given again, and the next new id is past it. */
  reserve(id: string): void {
    this.used.add(id);
    const n = Number(/^ask-(\d{1,16})$/.exec(id)?.[1] ?? 0);
    if (n >= this.next && n <= LARGEST_COUNTED) this.next = n + 1;
  }

  private newId(): string {
    while (this.used.has(`ask-${this.next}`)) this.next++;
    return `ask-${this.next++}`;
  }

  ask(
    ctx: ExtensionContext,
    toolName: string,
    args: unknown,
    form: PreparedForm<ToolAnswer<unknown>>,
    id = this.newId(),
    record = true,
  ): WaitingQuestion {
    this.reserve(id);
    const chart = startWaitingChart(form.spec.timeoutMs);
    const question: WaitingQuestion = { id, toolName, args, form, chart };
    chart.subscribe(
      (s) => s.value === "timedOut" && this.end(question, undefined, form.answer(timedOutResult(form.spec))),
    );
    this.questions.push(question);
    this.ctx = ctx;
    // Recorded as asked before anyone hears of it: an extension may answer it in the same turn.
    if (record) this.state.record(WAITING_ENTRY, { id, toolName, args } satisfies WaitingEntry);
    this.state.forms.add({
      opened: { id, tool: toolName, where: "waiting", questions: questionsData(form.spec) },
      offer: (offer, from) => this.offer(question, offer, from),
    });
    if (this.state.settings.bell) process.stdout.write("\x07");
    this.show();
    return question;
  }

  /** The one open in the terminal. */
  private get opened(): WaitingQuestion | undefined {
    return this.questions.find((q) => openIn(q.chart) === "terminal");
  }

  /** The first question that waits; false when none does, or one is open (its own keys go on from there). */
  async openNext(ctx: ExtensionContext): Promise<boolean> {
    const question = this.questions.find((q) => waitsForKey(q.chart));
    if (!question || this.opened) return false;
    closePage(question, "Opened in the terminal: answer it there.");
    return this.settle(question, ctx, await this.take(question, ctx));
  }

  /** A page came to the question's link: it opens there, as the open key would open it here. */
  private async openInBrowser(question: WaitingQuestion, page: WebServer): Promise<void> {
    const ctx = this.ctx;
    if (!ctx || !waitsForKey(question.chart)) return page.release("This question is not waiting any more.");
    this.settle(question, ctx, await this.take(question, ctx, page));
    if (question.page) page.release("Put back: the question waits again. Reload this page to open it again.");
  }

  private async take(question: WaitingQuestion, ctx: ExtensionContext, page?: WebServer): Promise<ShowOutcome> {
    this.ctx = ctx;
    question.chart.send({ type: "OPEN", where: page ? "page" : "terminal" });
    question.close = new AbortController();
    this.show();
    return showAndKeep(this.state, ctx, question.form, question.close.signal, {
      page,
      present: (session) => (question.session = session),
      waiting: {
        next: this.state.waitingKey as KeyId,
        refuse: REFUSE_KEY,
        press: (key) =>
          page && key === "next" ? `In the browser, Esc puts ${shownId(question.id)} back.` : this.press(question, key),
      },
    });
  }

  /** How an open form closed: answered, refused or put back; true when the open key is done with it. */
  private async settle(question: WaitingQuestion, ctx: ExtensionContext, outcome: ShowOutcome): Promise<boolean> {
    const endedElsewhere = question.close?.signal.aborted;
    question.close = undefined;
    question.session = undefined;
    const { status, context } = question.chart.getSnapshot();
    if (status === "done") return true;
    const done = outcome.kind === "done" ? outcome.result : undefined;
    if (context.closedBy === "refuse" || done?.declined) {
      // A form that can be declined (d) takes the refuse key as the same decline: the model reads one thing.
      const declined: FormResult | undefined =
        question.form.spec.declinable && done ? { ...done, cancelled: true, declined: true } : undefined;
      this.end(
        question,
        "REFUSE",
        answeredBy(declined ? question.form.answer(declined) : REFUSED, question.answeredIn),
        declined,
      );
    } else if (done && (!done.cancelled || done.timedOut)) {
      this.end(question, "ANSWER", answeredBy(question.form.answer(done), question.answeredIn), done);
    } else if (!endedElsewhere) {
      question.chart.send({ type: "PUT_BACK" });
      // Behind the others: the open key reaches each in turn.
      this.questions.push(...this.questions.splice(this.questions.indexOf(question), 1));
      this.show();
      if (context.closedBy === "next") return this.openNext(ctx);
    }
    return true;
  }

  /** Another extension's answer: on its open form, else on a form of its own that no screen shows. */
  private offer(question: WaitingQuestion, offer: Offer, from: string): OfferReply {
    const { id } = question;
    if (question.session) return offerOn(question.session, id, offer, from, (by) => (question.answeredIn = by));
    if ("cancel" in offer)
      return { ok: false, id, reason: "refused", why: `${id} waits: decline it, or leave it waiting` };
    if ("decline" in offer) {
      question.answeredIn = from;
      this.end(question, "REFUSE", answeredBy(REFUSED, from));
      return { ok: true, id };
    }
    const session = new FormSession({ spec: question.form.spec });
    try {
      // Named as where it was answered only while the offer is taken: a refused one leaves it the person's.
      const reply = offerOn(session, id, offer, from, (by) => (question.answeredIn = by));
      const result = session.settled?.result;
      if (reply.ok && result) this.end(question, "ANSWER", answeredBy(question.form.answer(result), from), result);
      return reply;
    } finally {
      session.dispose();
    }
  }

  /** The first that waits gets a link (once its server listens); one opened in the terminal or ended loses it. */
  private linkFor(question: WaitingQuestion): string | undefined {
    if (!this.state.settings.web || !this.ctx || !hasOwnTerminal(this.ctx)) return undefined;
    if (!question.page && !question.linking)
      startPage(question, this.state.settings.webAddress, {
        opened: (page) => void this.openInBrowser(question, page),
        ready: () => this.show(),
      });
    return question.page?.url;
  }

  private press(question: WaitingQuestion, key: "next" | "refuse"): string | undefined {
    if (key === "next" && !this.questions.some((q) => waitsForKey(q.chart)))
      return `No other question waits: Esc puts ${shownId(question.id)} back.`;
    question.chart.send({ type: "CLOSE_BY", key });
    return undefined;
  }

  /** `/formchart waiting first|refuse <id>`: put first in the open key's order, or refused as Alt+X would. */
  byPerson(id: string, what: "first" | "refuse"): string | undefined {
    const question = this.questions.find((q) => q.id === id && waitsForKey(q.chart));
    if (!question) return `${shownId(id)} is not waiting (answered, open, ended or never asked).`;
    if (what === "refuse") this.end(question, "REFUSE", REFUSED);
    else this.questions.unshift(...this.questions.splice(this.questions.indexOf(question), 1));
    this.show();
    return undefined;
  }

  withdraw(id: string): { ok: true; subject: string } | { ok: false; reason: string } {
    const question = this.questions.find((q) => q.id === id);
    if (!question)
      return { ok: false, reason: `${shownId(id)} is not waiting for an answer (answered, ended or never asked).` };
    const subject = subjectOf(question.form.spec);
    this.end(question, "WITHDRAW");
    this.ctx?.ui.notify(`The model withdrew its question (${shownId(id)}): ${subject}`, "info");
    return { ok: true, subject };
  }

  notAnswered(id: string, toolName: string): void {
    this.state.waitingEnds.set(id, "notAnswered");
    this.state.record(WAITING_ENTRY, { id, ended: "notAnswered" } satisfies WaitingEntry);
    this.state.sendMessage?.(
      {
        customType: WAITING_ENTRY,
        content: `${shownId(id)} (${shownId(toolName)}, asked with wait: false) was not answered: it can no longer be asked. Ask again if you still need it.`,
        display: true,
        details: { id, toolName, outcome: "not_answered" },
      },
      { deliverAs: "nextTurn" },
    );
  }

  private end(
    question: WaitingQuestion,
    event?: "ANSWER" | "REFUSE" | "WITHDRAW",
    answer?: ToolAnswer<unknown>,
    result?: FormResult,
  ) {
    if (event) question.chart.send({ type: event });
    const how = stateOf(question.chart);
    question.close?.abort();
    closePage(question, PAGE_CLOSED[how] ?? "This question ended.");
    this.questions.splice(this.questions.indexOf(question), 1);
    this.state.waitingEnds.set(question.id, how);
    this.state.record(WAITING_ENTRY, { id: question.id, ended: how } satisfies WaitingEntry);
    const outcome = how === "answered" && result ? closedOutcome(result) : (WAITING_CLOSED[how] ?? "answered");
    const by = question.answeredIn ?? (how === "answered" ? openIn(question.chart) : undefined);
    this.state.forms.remove({ id: question.id, tool: question.toolName, outcome, ...(by ? { answeredIn: by } : {}) });
    if (answer) this.deliver(question, answer);
    this.show();
  }

  private deliver(question: WaitingQuestion, answer: ToolAnswer<unknown>): void {
    const idle = this.ctx?.isIdle?.() ?? true;
    const nextPrompt = idle && this.state.settings.deliverWhenIdle === "next-prompt";
    this.state.sendMessage?.(
      {
        customType: WAITING_ENTRY,
        content: `Answer to ${shownId(question.id)} (${question.toolName}, asked with wait: false):\n${answer.text}`,
        display: true,
        details: { id: question.id, toolName: question.toolName, ...(answer.details as object) },
      },
      nextPrompt ? { deliverAs: "nextTurn" } : { deliverAs: idle ? "followUp" : "steer", triggerTurn: true },
    );
  }

  /** Nothing is delivered: the session still holds them as not ended, for a resume. */
  private endAll(): void {
    for (const q of this.questions) {
      q.chart.send({ type: "SESSION_END" });
      closePage(q, PAGE_CLOSED.notAnswered);
    }
    this.questions.length = 0;
    this.stopTicker();
  }

  private show(): void {
    const ctx = this.ctx;
    const ui = ctx?.hasUI ? ctx.ui : undefined;
    const waiting = this.questions.filter((q) => waitsForKey(q.chart));
    const opened = this.opened;
    const asLine = (q: WaitingQuestion) => ({ id: q.id, spec: q.form.spec, ...timesOf(q.chart) });
    const line = waitingLine(this.key, waiting.map(asLine), opened && asLine(opened), Date.now(), {
      link: waiting[0] && this.linkFor(waiting[0]),
      open: this.questions.filter((q) => openIn(q.chart) === "page").map(asLine),
    });
    this.state.forms.waiting(waiting.length);
    showTitle(this.state, ctx, waiting.length);
    if (line === undefined) {
      this.stopTicker();
      ui?.setWidget(WAITING_WIDGET, undefined);
      return;
    }
    // A terminal of its own fits the line to its width; a host that draws lines itself is given the words.
    if (ctx && hasOwnTerminal(ctx)) {
      const click = this.state.settings.mouse ? () => void this.openNext(ctx) : undefined;
      ui?.setWidget(WAITING_WIDGET, () => fittedLine(line, click) as never);
    } else ui?.setWidget(WAITING_WIDGET, lineTexts(line));
    if (!this.ticker) {
      this.ticker = setInterval(() => this.show(), 1000);
      this.ticker.unref?.();
    }
  }

  private stopTicker(): void {
    clearInterval(this.ticker);
    this.ticker = undefined;
  }
}

const queues = new WeakMap<FormchartState, WaitingQuestions>();

export function waitingOf(state: FormchartState): WaitingQuestions {
  const known = queues.get(state);
  if (known) return known;
  const queue = new WaitingQuestions(state);
  queues.set(state, queue);
  return queue;
}
