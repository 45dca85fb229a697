/**
 * Fuzzing the forms with random key sequences: arrows, Tab, Shift+Tab, Space,
 * Enter, Esc, digits, letters, pastes, Kitty keyboard encodings, mouse
 * reports and partial escape sequences, at widths 1–300 and heights 1–60.
 * Whatever arrives: no exception, every line fits, `done` at most once, the
 * machine always in a state the view knows, and a redraw draws the same
 * lines. Schema forms (`ask_form`) of random fields — patterns (hostile ones
 * included), numbers and integers in ranges, formats, lengths — get typed
 * numbers, addresses, dates and long pastes too; whatever they accept has the
 * schema's shape, checked by ajv against the schema. fast-check prints the seed and a
 * shrunk counterexample on failure (rerun with FUZZ_SEED=<seed>).
 */
import { describe, expect, it } from "@jest/globals";
import fc from "fast-check";
import { exampleNames, loadFormFile } from "../bin/form-file.js";
import type { FormResult } from "../machines/context.js";
import { formPosition } from "../machines/position.js";
import type { FormSpec } from "../machines/spec.js";
import { checkRequestedSchema } from "../schemas/elicit.js";
import { elicitResult, schemaForm } from "../tools/engine/schema-form.js";
import { openForm, overflowingLines } from "./helpers/fake-host.js";

const RUNS = Number(process.env.FUZZ_RUNS ?? 1000);
const SEED = process.env.FUZZ_SEED ? Number(process.env.FUZZ_SEED) : undefined;

const named = fc.constantFrom(
  "\x1b[A",
  "\x1b[B",
  "\x1b[C",
  "\x1b[D",
  "\x1bOA",
  "\x1bOB", // arrows, legacy and application mode
  "\t",
  "\x1b[Z",
  " ",
  "\r",
  "\n",
  "\x1b",
  "\x7f",
  "\x03",
  "\x1b[H",
  "\x1b[F",
  "\x1b[5~",
  "\x1b[6~",
  "\x1b[13u",
  "\x1b[27u",
  "\x1b[9u",
  "\x1b[9;2u",
  "\x1b[32u",
  "\x1b[1;5A",
  "\x1b[13;2u",
  "\x1b[110u", // Kitty encodings
  "\x1b[<0;10;5M",
  "\x1b[<0;10;5m",
  "\x1b[<64;3;3M",
  "\x1b[M !!", // mouse reports
  "\x1b[",
  "\x1b[1;",
  "\x1bO",
  "\x1b]0;",
  "\x1b[200~",
  "\x1b[201~", // partial sequences
  "\x1b[200~pasted text\nwith a line\x1b[201~", // bracketed paste
);
const key = fc.oneof(
  { weight: 6, arbitrary: named },
  { weight: 2, arbitrary: fc.constantFrom(..."123456789") },
  { weight: 2, arbitrary: fc.constantFrom(..."jknabcxyz日✨") },
  { weight: 1, arbitrary: fc.string({ minLength: 1, maxLength: 6 }) },
);

/** Press `keys` on a form of `spec` at a size, checking each frame; what the form returned. */
function press(spec: FormSpec, keys: string[], width: number, height: number): FormResult[] {
  const { form, results, outcomes } = openForm(spec, { maxHeight: () => height });
  for (const k of keys) {
    form.handleInput(k);
    const lines = form.render(width);
    expect(outcomes.find((o) => o.error !== undefined)).toBeUndefined();
    expect(overflowingLines(lines, width)).toEqual([]);
    expect(lines.length).toBeLessThanOrEqual(Math.max(height, 1));
    expect(() => formPosition(form.session.snapshot)).not.toThrow();
    expect(results.length).toBeLessThanOrEqual(1);
    // Drawing again changes nothing (no line added to what an earlier frame drew).
    expect([...form.render(width)]).toEqual([...lines]);
  }
  form.dispose();
  return results;
}

function fuzz(spec: FormSpec) {
  fc.assert(
    fc.property(
      fc.array(key, { minLength: 1, maxLength: 30 }),
      fc.integer({ min: 1, max: 300 }),
      fc.integer({ min: 1, max: 60 }),
      (keys, width, height) => {
        press(spec, keys, width, height);
      },
    ),
    { numRuns: RUNS, seed: SEED },
  );
}

// Patterns a model writes, and ones written to be slow (refused, or checked within their budget).
const PATTERNS = [
  "^[A-Z]{2,5}-\\d+$",
  "^v[0-9]+$",
  "^[a-z0-9]+(?:-[a-z0-9]+)*$",
  "^(a+)+$",
  "(?:a[\\s\\S]{95}){3}$",
  "[\\s\\S]{1000}".repeat(9),
  ".{100}".repeat(10),
  "x{101}",
  "^\\d{4}-\\d{2}-\\d{2}$",
  "(?i)^yes|no$",
];
const schemaField = fc.oneof(
  fc.record(
    {
      type: fc.constant("string"),
      pattern: fc.constantFrom(...PATTERNS),
      description: fc.constantFrom("A ticket id like ABC-123", "\x1b[31mred\u202e"),
      maxLength: fc.integer({ min: 1, max: 20_000 }),
    },
    { requiredKeys: ["type", "pattern"] },
  ),
  fc.record({ type: fc.constant("string"), format: fc.constantFrom("email", "uri", "date", "date-time") }),
  fc.record(
    {
      type: fc.constantFrom("number", "integer"),
      minimum: fc.constantFrom(-1e21, -5, 0, 1.5, 9007199254740991),
      maximum: fc.constantFrom(0, 10, 50, 1e21, 2 ** 60),
    },
    { requiredKeys: ["type"] },
  ),
  fc.record({ type: fc.constant("string"), minLength: fc.integer({ min: 0, max: 5 }) }),
);
const schemaAnswer = fc.constantFrom(
  "1e1",
  "9007199254740993",
  "99999999999999999999999",
  "0.1000000000000000000001",
  "-",
  ".",
  "e",
  "+",
  "12",
  "a@b.co",
  "https://x.y/z",
  "2024-02-29",
  "2023-02-29",
  "2024-02-29T10:00:00Z",
  "ABC-123",
  "v12",
);
const schemaKey = fc.oneof(
  { weight: 3, arbitrary: named },
  { weight: 4, arbitrary: schemaAnswer },
  { weight: 2, arbitrary: fc.constantFrom(..."0123456789aAbx") },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      `\x1b[200~${"1".repeat(5_000)}x\x1b[201~`,
      `\x1b[200~${"ab".repeat(3_000)}\x1b[201~`,
      `\x1b[200~${"a".repeat(2_000)}b\x1b[201~`,
    ),
  },
);

describe.each(exampleNames())("fuzzing %s", (name) => {
  it(`${RUNS} random key sequences`, () => {
    const loaded = loadFormFile(name);
    if (!loaded.ok) throw new Error(loaded.message);
    fuzz(loaded.form.spec);
  }, 120_000);
});

describe("fuzzing schema forms: patterns, numbers, formats", () => {
  it(`${Math.ceil(RUNS / 4)} random schemas and key sequences: what is accepted has the schema's shape`, () => {
    fc.assert(
      fc.property(
        fc.array(schemaField, { minLength: 1, maxLength: 3 }),
        // Keys, and answers followed by Enter: enough of them that forms are submitted too.
        fc.array(
          fc.oneof(
            schemaKey.map((k) => [k]),
            schemaAnswer.map((a) => [a, "\r"]),
          ),
          { minLength: 1, maxLength: 12 },
        ),
        fc.integer({ min: 1, max: 200 }),
        (fields, chunks, width) => {
          const keys = [...chunks.flat(), "\r", "\r"];
          const properties = Object.fromEntries(fields.map((f, i) => [`f${i}`, f]));
          const checked = checkRequestedSchema({ type: "object", properties });
          // A refused schema (a pattern past the limits, a range no answer fits) opens no form.
          if (!checked.ok) return;
          const results = press(schemaForm(checked.value, "Fuzz"), keys, width, 30);
          // Accepted content is checked by ajv against the schema (a mismatch throws).
          for (const result of results) expect(() => elicitResult(checked.value, result)).not.toThrow();
        },
      ),
      { numRuns: Math.ceil(RUNS / 4), seed: SEED },
    );
  }, 300_000);
});
