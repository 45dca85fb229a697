/**
 * One spec object per form content, so what is kept per spec (the context a
 * form opens with, the rows drawn) exists once; specs are never changed, which
 * makes sharing them safe. At most 8 are kept, of 1 M characters of JSON in all.
 */
import { Recent } from "./recent.js";
import type { FormSpec } from "./spec.js";

/** Past this many options writing a spec's JSON costs more than sharing it saves. */
const SHARED_UP_TO_OPTIONS = 1000;
const specs = new Recent<FormSpec>(8, 1_000_000);

export function sharedSpec(spec: FormSpec): FormSpec {
  const options = spec.questions.reduce((n, q) => n + q.options.length, 0);
  if (options > SHARED_UP_TO_OPTIONS) return spec;
  const json = JSON.stringify(spec);
  const shared = specs.get(json) ?? spec;
  if (shared === spec) specs.set(json, spec, json.length);
  return shared;
}
