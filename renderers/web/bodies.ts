/**
 * What a page may post, checked before anything reads it. Contract: a body
 * is JSON text of one shape, `{tab, version?, events}`: the events a control
 * sends, each an object of a known type with exactly its own fields of the
 * right kinds; the server acts on these checked values only, and anything
 * else gets the reason it was refused. Nothing of the body is ever converted
 * to text by its own methods.
 */
import type { FormEvent } from "../../machines/context.js";
import { valueKind } from "../text.js";

/** Characters a page may send at once (a pasted answer is one event). */
export const MAX_BODY = 256 * 1024;
/** Events a control may send at once (the tab list's moves across a long form). */
export const MAX_EVENTS = 1024;
/** A tab id is 12 characters; a little room beyond. */
const MAX_TAB = 64;
/** Rows and moves a page may name: a list of 10,000 options and more. */
const MAX_ROW = 1_000_000;

/** Beside the chart's events, a question that waits is put back or refused. */
export type PageEvent = FormEvent | { type: "PUT_BACK" } | { type: "REFUSE" };

/** `version`: the view the control was drawn in; a move relative to it is refused once the form changed. */
export type Act = { tab: string; version?: number; events: PageEvent[] };
type Checked<T> = { ok: true; body: T } | { ok: false; why: string };

type Field = "delta" | "to" | "row" | "text";
const whole = (value: unknown, min: number, max: number) =>
  Number.isInteger(value) && (value as number) >= min && (value as number) <= max;
const FIELDS: Record<Field, { check(value: unknown): boolean; says: string }> = {
  delta: { check: (v) => whole(v, -MAX_ROW, MAX_ROW), says: `a whole number from -${MAX_ROW} to ${MAX_ROW}` },
  to: { check: (v) => v === "first" || v === "last", says: `"first" or "last"` },
  row: { check: (v) => whole(v, 0, MAX_ROW), says: `a whole number from 0 to ${MAX_ROW}` },
  text: { check: (v) => typeof v === "string", says: "a string" },
};

/** The events a page may send, with their fields: the chart's own (a delay's end, an abort) are not among them. */
const EVENTS: Record<PageEvent["type"] | string, Field[]> = {
  MOVE: ["delta"],
  MOVE_TO: ["to"],
  SELECT: ["row"],
  TYPE: ["text"],
  SUBMIT_TEXT: ["text"],
  ...Object.fromEntries(
    [
      "TOGGLE",
      "TOGGLE_ALL",
      "INVERT",
      "RESUME",
      "CONFIRM",
      "NEXT_TAB",
      "PREV_TAB",
      "CANCEL",
      "NOTE",
      "DECLINE",
      "UNFOLD",
      "STOP_CLOCK",
      "PUT_BACK",
      "REFUSE",
    ].map((type) => [type, []]),
  ),
};

const isObject = (value: unknown): value is Record<string, unknown> =>
  !!value && typeof value === "object" && !Array.isArray(value);

function extraField(body: Record<string, unknown>, names: readonly string[]): string | undefined {
  const other = Object.keys(body).find((name) => !names.includes(name));
  return other === undefined ? undefined : `"${other.slice(0, 40)}"`;
}

function eventProblem(event: unknown, at: number): string | undefined {
  const where = `event ${at + 1}`;
  if (!isObject(event)) return `${where} must be an object; got ${valueKind(event)}.`;
  const type = event.type;
  if (typeof type !== "string" || !Object.hasOwn(EVENTS, type))
    return `${where} has no type a page sends (${Object.keys(EVENTS).join(", ")}); got ${typeof type === "string" ? `"${type.slice(0, 40)}"` : valueKind(type)}.`;
  const fields = EVENTS[type];
  const other = extraField(event, ["type", ...fields]);
  if (other) return `${where} (${type}) has a field it never carries: ${other}.`;
  for (const name of fields)
    if (!FIELDS[name].check(event[name]))
      return `${where} (${type}) needs "${name}", ${FIELDS[name].says}; got ${typeof event[name] === "number" ? event[name] : valueKind(event[name])}.`;
  return undefined;
}

/** The body of a POST to `act`. */
export function actBody(text: string): Checked<Act> {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return { ok: false, why: "The body is not JSON." };
  }
  if (!isObject(body)) return { ok: false, why: `The body must be a JSON object; got ${valueKind(body)}.` };
  const other = extraField(body, ["tab", "version", "events"]);
  if (other)
    return { ok: false, why: `The body has a field a page never sends (${other}): tab, version, events only.` };
  const { tab, version, events } = body;
  if (typeof tab !== "string" || tab.length === 0 || tab.length > MAX_TAB)
    return {
      ok: false,
      why: `"tab" must be the page's tab id (a string of 1 to ${MAX_TAB} characters); got ${typeof tab === "string" ? `${tab.length} characters` : valueKind(tab)}.`,
    };
  if (version !== undefined && !whole(version, 0, Number.MAX_SAFE_INTEGER))
    return { ok: false, why: `"version" must be the view's number; got ${valueKind(version)}.` };
  if (!Array.isArray(events) || events.length === 0 || events.length > MAX_EVENTS)
    return {
      ok: false,
      why: `"events" must be a list of 1 to ${MAX_EVENTS} events; got ${Array.isArray(events) ? `${events.length} items` : valueKind(events)}.`,
    };
  for (let at = 0; at < events.length; at++) {
    const why = eventProblem(events[at], at);
    if (why) return { ok: false, why };
  }
  return { ok: true, body: { tab, version: version as number | undefined, events: events as PageEvent[] } };
}
