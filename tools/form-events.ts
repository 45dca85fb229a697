/**
 * Open forms, seen by the rest of Pi on its event bus (docs/api.md): a form
 * opened, closed, the count of questions that wait, and an answer another
 * extension offers for one of them. What the model wrote reaches another
 * extension only cleaned (no markup, no control characters); an offer is
 * checked here for its shape, then by the form's own chart (machines/offer.ts,
 * run by the engine that registered the form). An offer for a form that is not
 * open is answered without loading the engine.
 */
import type { ExtensionAPI } from "@earendil-works/pi-coding-agent";
import type { Offer } from "../machines/offer.js";
import type { FormSpec } from "../machines/spec.js";
import { safeLine, sanitize } from "../renderers/text.js";
import { isRecord } from "../schemas/fields.js";

export const FORM_EVENTS = {
  opened: "formchart:v1:opened",
  offer: "formchart:v1:offer",
  closed: "formchart:v1:closed",
  waiting: "formchart:v1:waiting",
} as const;

export type Shown = "terminal" | "page" | "dialogs" | "waiting";

export interface QuestionData {
  id: string;
  label: string;
  prompt: string;
  kind: "single" | "multi" | "text";
  options: Array<{ label: string; value: string }>;
  required: boolean;
  /** Takes a typed answer of one's own besides the options. */
  allowOther: boolean;
  count?: { min?: number; max?: number };
  text?: Record<string, unknown>;
  /** Conditions (as written) under which it is shown; absent: always. */
  when?: unknown[];
}

export interface FormOpened {
  id: string;
  tool: string;
  title?: string;
  where: Shown;
  questions: QuestionData[];
}

export interface FormClosed {
  id: string;
  tool: string;
  outcome: "answered" | "cancelled" | "declined" | "timed_out" | "refused" | "withdrawn" | "not_answered";
  /** `terminal`, `page`, `dialogs`, or the name of the extension whose offer answered it. */
  answeredIn?: string;
}

export type OfferReply =
  | { ok: true; id: string }
  | { ok: false; id: string; reason: "not_open" | "too_late" | "invalid" | "refused"; why: string };

/** What another extension emits on `FORM_EVENTS.offer`; `reply` is called once. */
export interface FormOffer {
  id: string;
  /** Who answers: "Answered in <from>". */
  from: string;
  answers?: Record<string, string | string[]>;
  cancel?: true;
  decline?: true;
  reply?(reply: OfferReply): void;
}

/** A form or a waiting question as the engine registered it. */
export interface OpenEntry {
  opened: FormOpened;
  offer(offer: Offer, from: string): OfferReply;
}

const clean = (text: string, max = 2000) => sanitize(text).slice(0, max);

export function questionsData(spec: FormSpec): QuestionData[] {
  return spec.questions.map((q) => ({
    id: safeLine(q.id, 200),
    label: safeLine(q.label, 200),
    prompt: clean(q.prompt),
    kind: q.kind,
    options: q.options.map((o) => ({ label: safeLine(o.label, 400), value: safeLine(o.value, 400) })),
    required: q.required,
    allowOther: q.allowOther,
    ...(q.count ? { count: { ...q.count } } : {}),
    ...(q.text ? { text: JSON.parse(JSON.stringify(q.text, (_k, v) => (typeof v === "string" ? clean(v) : v))) } : {}),
    ...(q.visibility.kind === "when" ? { when: JSON.parse(JSON.stringify(q.visibility.conditions, cleaned)) } : {}),
    ...(q.visibility.kind === "never" ? { when: [] } : {}),
  }));
}

const cleaned = (_key: string, value: unknown) => (typeof value === "string" ? safeLine(value, 400) : value);

/** The offer's shape: an answer per question id (strings), a cancel or a decline. */
function checkOffer(raw: unknown): { ok: true; offer: Offer } | { ok: false; why: string } {
  if (!isRecord(raw)) return { ok: false, why: "the offer is not an object" };
  if (raw.cancel === true) return { ok: true, offer: { cancel: true } };
  if (raw.decline === true) return { ok: true, offer: { decline: true } };
  const answers = raw.answers;
  if (!isRecord(answers) || Object.keys(answers).length === 0)
    return {
      ok: false,
      why: "answers: an object of answers by question id is needed (or cancel: true, decline: true)",
    };
  for (const [id, answer] of Object.entries(answers)) {
    const list = Array.isArray(answer) ? answer : [answer];
    if (!list.every((a) => typeof a === "string") || (Array.isArray(answer) && list.length === 0))
      return { ok: false, why: `answers.${safeLine(id, 80)}: a string or a list of strings is needed` };
  }
  return { ok: true, offer: { answers: answers as Record<string, string | string[]> } };
}

/** The forms open in this Pi process, by id, and how the last ones closed (a late offer hears it). */
export class OpenForms {
  private readonly open = new Map<string, OpenEntry>();
  private readonly ended = new Map<string, FormClosed>();
  private next = 1;
  private waitingCount = 0;
  emit: (channel: string, data: unknown) => void = () => {};

  newId(): string {
    return `form-${this.next++}`;
  }

  add(entry: OpenEntry): void {
    this.open.set(entry.opened.id, entry);
    this.emit(FORM_EVENTS.opened, entry.opened);
  }

  remove(closed: FormClosed): void {
    if (!this.open.delete(closed.id)) return;
    this.ended.set(closed.id, closed);
    if (this.ended.size > 200) this.ended.delete(this.ended.keys().next().value as string);
    this.emit(FORM_EVENTS.closed, closed);
  }

  waiting(count: number): void {
    if (count === this.waitingCount) return;
    this.waitingCount = count;
    this.emit(FORM_EVENTS.waiting, { count });
  }

  offer(raw: unknown): OfferReply {
    const id = isRecord(raw) && typeof raw.id === "string" ? safeLine(raw.id, 80) : "";
    const entry = this.open.get(id);
    if (!entry) {
      const ended = this.ended.get(id);
      if (!ended) return { ok: false, id, reason: "not_open", why: `${id || "(no id)"} is not an open form` };
      const where = ended.answeredIn ? ` in ${ended.answeredIn}` : "";
      return { ok: false, id, reason: "too_late", why: `${id} already closed (${ended.outcome}${where})` };
    }
    const checked = checkOffer(raw);
    if (!checked.ok) return { ok: false, id, reason: "invalid", why: checked.why };
    const from = isRecord(raw) && typeof raw.from === "string" ? safeLine(raw.from, 80) : "";
    return entry.offer(checked.offer, from || "another extension");
  }
}

export function registerFormEvents(pi: ExtensionAPI, forms: OpenForms): void {
  forms.emit = (channel, data) => pi.events.emit(channel, data);
  pi.events.on(FORM_EVENTS.offer, (data) => {
    const reply = isRecord(data) && typeof data.reply === "function" ? (data.reply as FormOffer["reply"]) : undefined;
    const answer = forms.offer(data);
    reply?.(answer);
  });
}
