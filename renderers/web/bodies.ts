/**
 * What a page may post, checked before anything reads it. Contract: a body
 * is JSON text of one of two shapes, `{tab, keys}` (keys pressed) and
 * `{tab, cols, rows}` (the page's size); the server acts on these checked
 * values only, and anything else gets the reason it was refused. Nothing of
 * the body is ever converted to text by its own methods.
 */
import { valueKind } from "../text.js";

/** Characters a page may send at once (a paste is one key). */
export const MAX_BODY = 256 * 1024;
/** Keys a page may send at once: those pressed while its last request was on its way. */
export const MAX_KEYS = 1024;
/** A tab id is 12 characters; a little room beyond. */
const MAX_TAB = 64;
/** Columns and rows a page may claim (drawn at most 500 × 200). */
const MAX_CELLS = 10_000;

export type Keys = { tab: string; keys: string[] };
export type Size = { tab: string; cols: number; rows: number };
type Checked<T> = { ok: true; body: T } | { ok: false; why: string };

function fields(text: string, names: string[]): Checked<Record<string, unknown>> {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return { ok: false, why: "The body is not JSON." };
  }
  if (!body || typeof body !== "object" || Array.isArray(body))
    return { ok: false, why: `The body must be a JSON object; got ${valueKind(body)}.` };
  const other = Object.keys(body).find((name) => !names.includes(name));
  if (other !== undefined)
    return {
      ok: false,
      why: `The body has a field a page never sends ("${other.slice(0, 40)}"): ${names.join(", ")} only.`,
    };
  return { ok: true, body: body as Record<string, unknown> };
}

const tabProblem = (tab: unknown) =>
  typeof tab === "string" && tab.length > 0 && tab.length <= MAX_TAB
    ? undefined
    : `"tab" must be the page's tab id (a string of 1 to ${MAX_TAB} characters); got ${typeof tab === "string" ? `${tab.length} characters` : valueKind(tab)}.`;

function keysProblem(keys: unknown): string | undefined {
  if (!Array.isArray(keys) || keys.length > MAX_KEYS)
    return `"keys" must be a list of at most ${MAX_KEYS} keys; got ${Array.isArray(keys) ? `${keys.length} items` : valueKind(keys)}.`;
  const at = keys.findIndex((key) => typeof key !== "string");
  return at < 0 ? undefined : `"keys" must hold strings (the keys' bytes); item ${at + 1} is ${valueKind(keys[at])}.`;
}

const cellsProblem = (name: string, value: unknown) =>
  Number.isInteger(value) && (value as number) >= 1 && (value as number) <= MAX_CELLS
    ? undefined
    : `"${name}" must be a whole number from 1 to ${MAX_CELLS}; got ${typeof value === "number" ? value : valueKind(value)}.`;

/** The body of a POST to `input`. */
export function keysBody(text: string): Checked<Keys> {
  const read = fields(text, ["tab", "keys"]);
  if (!read.ok) return read;
  const { tab, keys } = read.body;
  const why = tabProblem(tab) ?? keysProblem(keys);
  return why ? { ok: false, why } : { ok: true, body: { tab: tab as string, keys: keys as string[] } };
}

/** The body of a POST to `size`. */
export function sizeBody(text: string): Checked<Size> {
  const read = fields(text, ["tab", "cols", "rows"]);
  if (!read.ok) return read;
  const { tab, cols, rows } = read.body;
  const why = tabProblem(tab) ?? cellsProblem("cols", cols) ?? cellsProblem("rows", rows);
  return why
    ? { ok: false, why }
    : { ok: true, body: { tab: tab as string, cols: cols as number, rows: rows as number } };
}
