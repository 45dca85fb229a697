/**
 * A shown form as the rest of Pi sees it (tools/form-events.ts): registered
 * while open, an offer from another extension replayed on its chart
 * (machines/offer.ts), and its close said with where it was answered.
 */
import type { FormResult } from "../../machines/context.js";
import { type Offer, offerTo } from "../../machines/offer.js";
import type { FormSession } from "../../machines/session.js";
import { safeLine } from "../../renderers/text.js";
import { type FormClosed, type OfferReply, questionsData, type Shown } from "../form-events.js";
import type { FormchartState } from "../state.js";

/** The offer on the session: taken, it names `from` as where the form was answered (set before the form closes). */
export function offerOn(
  session: FormSession,
  id: string,
  offer: Offer,
  from: string,
  answered: (from: string | undefined) => void,
): OfferReply {
  if (session.closed) return { ok: false, id, reason: "too_late", why: `${id} already closed` };
  answered(from);
  const step = offerTo(session, offer);
  if (step.taken) return { ok: true, id };
  answered(undefined);
  return { ok: false, id, reason: "refused", why: safeLine(step.why ?? "the form did not take it", 600) };
}

/** A tool's answer that says, in its `details`, which extension gave it. */
export function answeredBy<T extends { details: unknown }>(answer: T, by: string | undefined): T {
  return by ? { ...answer, details: { ...(answer.details as object), answeredIn: by } } : answer;
}

/** How a question asked with `wait: false` that ended without an answer closed. */
export const WAITING_CLOSED: Record<string, FormClosed["outcome"]> = {
  refused: "declined",
  withdrawn: "withdrawn",
  timedOut: "timed_out",
  notAnswered: "not_answered",
};

export function closedOutcome(result: FormResult): FormClosed["outcome"] {
  if (result.declined) return "declined";
  if (result.timedOut) return "timed_out";
  return result.cancelled ? "cancelled" : "answered";
}

/** Registers an open form; `close` says how it ended, and returns the extension that answered it, if one did. */
export function registerOpen(state: FormchartState, tool: string, session: FormSession, where: Shown) {
  const id = state.forms.newId();
  let answeredIn: string | undefined;
  state.forms.add({
    opened: {
      id,
      tool,
      ...(session.spec.title ? { title: safeLine(session.spec.title, 400) } : {}),
      where,
      questions: questionsData(session.spec),
    },
    offer: (offer, from) => offerOn(session, id, offer, from, (by) => (answeredIn = by)),
  });
  return (result: FormResult | undefined): string | undefined => {
    const outcome = result ? closedOutcome(result) : "cancelled";
    const by = answeredIn ?? (outcome === "answered" || outcome === "declined" ? where : undefined);
    state.forms.remove({ id, tool, outcome, ...(by ? { answeredIn: by } : {}) });
    return answeredIn;
  };
}
