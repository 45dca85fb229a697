/**
 * One spec object per form content. A form asked again with the same
 * content (the same questions, options and settings) gets the spec object
 * the earlier one had, so the spec and what is kept per spec (the context a
 * form opens with, the rows drawn of each question) exist once; only each
 * form's own state is new. (The statechart definition is shared more widely,
 * by every form of one shape: see `formMachine`.) The last few contents are
 * kept. Specs are never changed once made, which is what makes sharing them
 * safe.
 */
import { createHash } from "node:crypto";
import type { FormSpec } from "./spec.js";

const KEPT = 8;
/** Past this many options the spec itself outweighs its machine, and hashing it costs more than sharing saves. */
const SHARED_UP_TO_OPTIONS = 1000;
const specs = new Map<string, FormSpec>();

export function sharedSpec(spec: FormSpec): FormSpec {
  const options = spec.questions.reduce((n, q) => n + q.options.length, 0);
  if (options > SHARED_UP_TO_OPTIONS) return spec;
  const key = createHash("sha256").update(JSON.stringify(spec)).digest("base64");
  const shared = specs.get(key) ?? spec;
  // Most recently used last; the oldest goes when there are too many.
  specs.delete(key);
  specs.set(key, shared);
  if (specs.size > KEPT) specs.delete(specs.keys().next().value as string);
  return shared;
}
