/**
 * Answers given from outside the form (another extension, a chat bridge),
 * turned into the chart's own events, as the keys that would give them: so
 * every rule, condition and count applies, and a refusal says why in the
 * person's words. The answers are tried on a copy of the session first: an
 * offer the chart refuses leaves the open form exactly as it was.
 *
 * Per question id: option values or labels, or typed text (a text question,
 * or an answer of one's own where the question takes one). A question the
 * offer leaves out keeps what the person gave it, and a required one still
 * holds Submit.
 */
import { conditionText } from "./conditions.js";
import { type FormEvent, SUBMIT_LINE } from "./context.js";
import { FormSession, type Step } from "./session.js";
import { isTabbed, type QuestionSpec } from "./spec.js";
import { textProblems } from "./text-rules.js";

export type OfferedAnswers = Readonly<Record<string, string | readonly string[]>>;

export type Offer = { answers: OfferedAnswers } | { cancel: true } | { decline: true };

type Refused = { taken: false; why: string };

const refuse = (why: string): Refused => ({ taken: false, why });

/** Tries the offer on a copy; taken there, the same events are sent to the session itself. */
export function offerTo(session: FormSession, offer: Offer): Step {
  if (session.closed) return refuse("the form is closed");
  if ("cancel" in offer) {
    session.abort();
    return { taken: true };
  }
  const copy = new FormSession({ spec: session.spec, snapshot: session.snapshot });
  let tried: { events: FormEvent[] } | Refused;
  try {
    tried = replay(copy, offer);
  } finally {
    copy.dispose();
  }
  if ("taken" in tried) return tried;
  for (const event of tried.events) session.send(event);
  return { taken: true };
}

function replay(
  session: FormSession,
  offer: { answers: OfferedAnswers } | { decline: true },
): { events: FormEvent[] } | Refused {
  const { spec } = session;
  const answers = "answers" in offer ? offer.answers : {};
  const unknown = Object.keys(answers).filter((id) => !spec.questions.some((q) => q.id === id));
  if (unknown.length)
    return refuse(`no question ${unknown.join(", ")} (its questions: ${spec.questions.map((q) => q.id).join(", ")})`);
  if ("decline" in offer && !spec.declinable) return refuse("this form cannot be declined");
  const events: FormEvent[] = [];
  const visited = new Set<number>();
  let refused: Refused | undefined;
  const send = (event: FormEvent, where?: QuestionSpec): boolean => {
    const step = session.send(event);
    if (step.taken) events.push(event);
    else refused = refuse(`${where ? `${where.id}: ` : ""}${step.why ?? `the form does not take ${event.type} here`}`);
    return step.taken;
  };
  for (let steps = 0; steps < 8 * spec.questions.length + 16 && !session.closed && !refused; steps++) {
    const position = session.position;
    const context = session.snapshot.context;
    if (context.clock === "running" && position.kind !== "waiting") send({ type: "STOP_CLOCK" });
    else if (position.kind === "waiting") return refuse("the form has not opened yet: its countdown runs");
    else if (position.kind === "folded") send({ type: "UNFOLD" });
    else if (position.kind === "review") {
      if (position.mode === "writing") send({ type: "SUBMIT_TEXT", text: context.additionalText });
      else if (position.mode === "discarding") send({ type: "RESUME" });
      else if ("decline" in offer) send({ type: "DECLINE" });
      else (context.reviewCursor === SUBMIT_LINE || send({ type: "MOVE_TO", to: "last" })) && send({ type: "CONFIRM" });
    } else if (position.kind === "question") {
      const k = position.q;
      const q = spec.questions[k];
      const given = answers[q.id];
      if (position.mode === "discarding") send({ type: "RESUME" }, q);
      else if (position.mode === "noting") send({ type: "SUBMIT_TEXT", text: session.editorText }, q);
      else if (visited.has(k) || given === undefined || "decline" in offer) {
        if (visited.has(k) && context.answered[k] !== true) return refuse(`${q.id}: these answers leave it open`);
        if (!isTabbed(spec) && given === undefined) return refuse(`no answer to ${q.id}, the form's one question`);
        if (position.mode === "typing" && q.kind !== "text") send({ type: "CANCEL" }, q);
        else send({ type: "NEXT_TAB" }, q);
      } else {
        visited.add(k);
        const wrong = answer(session, q, k, typeof given === "string" ? [given] : given, send);
        if (wrong) return wrong;
      }
    }
  }
  if (refused) return refused;
  const outcome = session.settled?.result;
  if (!outcome) return refuse("these answers do not close the form");
  if ("decline" in offer) return outcome.declined ? { events } : refuse("the form did not close as declined");
  if (outcome.cancelled) return refuse("the form closed without an answer");
  const hidden = spec.questions.findIndex((q, k) => answers[q.id] !== undefined && !visited.has(k));
  if (hidden >= 0) {
    const q = spec.questions[hidden];
    const when = q.visibility.kind === "when" ? q.visibility.conditions.map(conditionText).join(" and ") : "never";
    return refuse(`${q.id} is not asked with these answers: it is shown only when ${when}`);
  }
  return { events };
}

/** One question's answer, as the rows the person would pick and the text they would type. */
function answer(
  session: FormSession,
  q: QuestionSpec,
  k: number,
  given: readonly string[],
  send: (event: FormEvent, where?: QuestionSpec) => boolean,
): Refused | undefined {
  const type = (text: string) => send({ type: "TYPE", text }, q) && send({ type: "SUBMIT_TEXT", text }, q);
  if (q.kind !== "multi" && given.length !== 1) return refuse(`${q.id} takes one answer, not ${given.length}`);
  if (q.kind === "text") {
    const problems = type(given[0]) ? [] : textProblems(q.text!, given[0]);
    return problems.length ? refuse(`${q.id}: ${problems.join(" ")}`) : undefined;
  }
  const indexOf = (text: string) => q.options.findIndex((o) => o.value === text || o.label === text);
  const own = given.filter((t) => indexOf(t) < 0);
  if (own.length && !q.allowOther) {
    const options = q.options.map((o) => o.value).join(", ");
    return refuse(`${q.id}: "${own[0]}" is not one of its options (${options}), and it takes no answer of one's own`);
  }
  if (q.kind === "single") {
    const i = indexOf(given[0]);
    if (i >= 0) send({ type: "SELECT", row: i }, q);
    else send({ type: "SELECT", row: q.options.length }, q) && type(given[0]);
    return;
  }
  const wanted = new Set(given.map(indexOf).filter((i) => i >= 0));
  q.options.forEach((_, i) => {
    if (wanted.has(i) !== session.snapshot.context.picks[k].options.includes(i)) send({ type: "SELECT", row: i }, q);
  });
  session.snapshot.context.typed[k].forEach((chip, j) => {
    if (own.includes(chip) !== session.snapshot.context.picks[k].custom.includes(chip))
      send({ type: "SELECT", row: q.options.length + j }, q);
  });
  for (const text of own.filter((t) => !session.snapshot.context.typed[k].includes(t)))
    send({ type: "SELECT", row: q.options.length + session.snapshot.context.typed[k].length }, q) && type(text);
  send({ type: "MOVE_TO", to: "first" }, q) && send({ type: "CONFIRM" }, q);
}
