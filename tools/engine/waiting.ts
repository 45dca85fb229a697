/**
 * Questions asked without stopping the model (`wait: false`), each the
 * waiting chart (machines/waiting.ts) around its form, counted on a line
 * above the editor. Contract: the answer reaches the model as a message with
 * what the blocking call would have returned, plus the question's id; Esc or
 * the fold key puts the form back with its draft; a question is recorded when
 * asked and when it ends, one not ended is offered again on resume, and one
 * that ended takes no second answer.
 */
import type { ExtensionContext } from "@earendil-works/pi-coding-agent";
import type { FormSpec } from "../../machines/spec.js";
import { startWaitingChart, stateOf, timedOutResult, type WaitingChart, waitsForKey } from "../../machines/waiting.js";
import { displayLine } from "../../renderers/text.js";
import type { FormchartState } from "../state.js";
import { WAITING_ENTRY, WAITING_KEY_NAME, WAITING_WIDGET, type WaitingEntry } from "../waiting-names.js";
import type { PreparedForm, ToolAnswer } from "./form-tool.js";
import { showAndKeep } from "./run.js";

export interface WaitingQuestion {
  id: string;
  toolName: string;
  /** The call's arguments as checked: what asks it again after a resume. */
  args: unknown;
  form: PreparedForm<ToolAnswer<unknown>>;
  chart: WaitingChart;
  since: number;
  close?: AbortController;
  timer?: ReturnType<typeof setTimeout>;
}

export function subjectOf(spec: FormSpec): string {
  const first = spec.title ?? spec.questions[0]?.prompt ?? "A question";
  const more = spec.title || spec.questions.length < 2 ? "" : ` (+${spec.questions.length - 1} more)`;
  return displayLine(first, 80) + more;
}

/** `0:42`, `12:05`. */
function elapsed(ms: number): string {
  const s = Math.max(0, Math.floor(ms / 1000));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
}

export class WaitingQuestions {
  private readonly questions: WaitingQuestion[] = [];
  private next = 1;
  private ticker: ReturnType<typeof setInterval> | undefined;
  private ctx: ExtensionContext | undefined;

  constructor(private readonly state: FormchartState) {
    state.closed.addEventListener("abort", () => this.endAll(), { once: true });
  }

  /** Oldest first. */
  get waiting(): readonly WaitingQuestion[] {
    return this.questions;
  }

  /** Past every id the session has recorded. */
  reserveAfter(id: string): void {
    const n = Number(/^ask-(\d+)$/.exec(id)?.[1] ?? 0);
    if (n >= this.next) this.next = n + 1;
  }

  ask(
    ctx: ExtensionContext,
    toolName: string,
    args: unknown,
    form: PreparedForm<ToolAnswer<unknown>>,
    id = `ask-${this.next++}`,
    record = true,
  ): WaitingQuestion {
    this.reserveAfter(id);
    const chart = startWaitingChart();
    const question: WaitingQuestion = { id, toolName, args, form, chart, since: Date.now() };
    this.questions.push(question);
    if (record) this.state.appendEntry?.(WAITING_ENTRY, { id, toolName, args } satisfies WaitingEntry);
    const timeoutMs = form.spec.timeoutMs ?? 0;
    if (timeoutMs > 0) {
      question.timer = setTimeout(() => this.timeUp(question), timeoutMs);
      question.timer.unref?.();
    }
    this.ctx = ctx;
    if (this.state.settings.bell) process.stdout.write("\x07");
    this.show();
    return question;
  }

  async openNext(ctx: ExtensionContext): Promise<boolean> {
    const question = this.questions.find((q) => waitsForKey(q.chart));
    if (!question) return false;
    this.ctx = ctx;
    clearTimeout(question.timer);
    question.chart.send({ type: "OPEN" });
    question.close = new AbortController();
    this.show();
    const outcome = await showAndKeep(this.state, ctx, question.form, question.close.signal, {
      foldPutsBack: true,
    });
    const closedBy = question.close.signal.aborted;
    question.close = undefined;
    if (question.chart.getSnapshot().status === "done") return true;
    if (outcome.kind === "done" && (!outcome.result.cancelled || outcome.result.declined || outcome.result.timedOut)) {
      this.end(question, "ANSWER", question.form.answer(outcome.result));
    } else if (!closedBy) {
      question.chart.send({ type: "PUT_BACK" });
      this.show();
    }
    return true;
  }

  withdraw(id: string): { ok: true; subject: string } | { ok: false; reason: string } {
    const question = this.questions.find((q) => q.id === id);
    if (!question) return { ok: false, reason: `${id} is not waiting for an answer (answered, ended or never asked).` };
    const subject = subjectOf(question.form.spec);
    this.end(question, "WITHDRAW");
    this.ctx?.ui.notify(`The model withdrew its question (${id}): ${subject}`, "info");
    return { ok: true, subject };
  }

  notAnswered(id: string, toolName: string): void {
    this.state.appendEntry?.(WAITING_ENTRY, { id, ended: "notAnswered" } satisfies WaitingEntry);
    this.state.sendMessage?.(
      {
        customType: WAITING_ENTRY,
        content: `${id} (${toolName}, asked with wait: false) was not answered: it can no longer be asked. Ask again if you still need it.`,
        display: true,
        details: { id, toolName, outcome: "not_answered" },
      },
      { deliverAs: "nextTurn" },
    );
  }

  private timeUp(question: WaitingQuestion): void {
    if (stateOf(question.chart) !== "waiting") return;
    this.end(question, "TIME_UP", question.form.answer(timedOutResult(question.form.spec)));
  }

  private end(question: WaitingQuestion, event: "ANSWER" | "WITHDRAW" | "TIME_UP", answer?: ToolAnswer<unknown>) {
    question.chart.send({ type: event });
    const how = stateOf(question.chart);
    clearTimeout(question.timer);
    question.close?.abort();
    this.questions.splice(this.questions.indexOf(question), 1);
    this.state.appendEntry?.(WAITING_ENTRY, { id: question.id, ended: how } satisfies WaitingEntry);
    if (answer) this.deliver(question, answer);
    this.show();
  }

  private deliver(question: WaitingQuestion, answer: ToolAnswer<unknown>): void {
    const idle = this.ctx?.isIdle?.() ?? true;
    const nextPrompt = idle && this.state.settings.deliverWhenIdle === "next-prompt";
    this.state.sendMessage?.(
      {
        customType: WAITING_ENTRY,
        content: `Answer to ${question.id} (${question.toolName}, asked with wait: false):\n${answer.text}`,
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
      clearTimeout(q.timer);
    }
    this.questions.length = 0;
    this.stopTicker();
  }

  private show(): void {
    const ui = this.ctx?.hasUI ? this.ctx.ui : undefined;
    const waiting = this.questions.filter((q) => waitsForKey(q.chart));
    if (waiting.length === 0) {
      this.stopTicker();
      ui?.setWidget(WAITING_WIDGET, undefined);
      return;
    }
    const [oldest] = waiting;
    const count = waiting.length === 1 ? "A question waits" : `${waiting.length} questions wait`;
    const line = `? ${count} (${elapsed(Date.now() - oldest.since)}) · ${WAITING_KEY_NAME} opens ${oldest.id}: ${subjectOf(oldest.form.spec)}`;
    ui?.setWidget(WAITING_WIDGET, [line]);
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
