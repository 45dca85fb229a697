/**
 * One spec object per form content. A form asked again with the same
 * content (the same questions, options and settings) gets the spec object
 * the earlier one had, so the spec and what is kept per spec (the context a
 * form opens with, the rows drawn of each question) exist once; only each
 * form's own state is new. (The statechart definition is shared more widely,
 * by every form of one shape: see `formMachine`.) The last few contents are
 * kept, 8 at most and 1 M characters at most: a huge spec is used, not kept. Specs are never changed once made, which is what makes sharing them
 * safe. A small spec's JSON is its key (at most 8 × 16,000 characters are
 * held as keys), a larger one's hash.
 */
import { createHash } from "node:crypto";
import { Recent } from "./recent.js";
import type { FormSpec } from "./spec.js";

/** Past this many options hashing a spec costs more than sharing it saves. */
const SHARED_UP_TO_OPTIONS = 1000;
/** At most 8 specs, and at most 1 M characters of them (as JSON) once their forms are gone. */
const specs = new Recent<FormSpec>(8, 1_000_000);

/** A spec's JSON up to this long is its own key; a longer one is kept under its hash. */
const KEYED_BY_JSON_UP_TO = 16_000;

export function sharedSpec(spec: FormSpec): FormSpec {
  const options = spec.questions.reduce((n, q) => n + q.options.length, 0);
  if (options > SHARED_UP_TO_OPTIONS) return spec;
  const json = JSON.stringify(spec);
  // Hashing costs more than comparing the JSON of a small spec (the common one).
  const key = json.length <= KEYED_BY_JSON_UP_TO ? json : createHash("sha256").update(json).digest("base64");
  const shared = specs.get(key) ?? spec;
  specs.set(key, shared, json.length);
  return shared;
}
