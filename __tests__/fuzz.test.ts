/**
 * Fuzzing the forms with random key sequences: arrows, Tab, Shift+Tab, Space,
 * Enter, Esc, digits, letters, pastes, Kitty keyboard encodings, mouse
 * reports and partial escape sequences, at widths 1–300 and heights 1–60.
 * Whatever arrives: no exception, every line fits, `done` at most once, the
 * machine always in a state the view knows. fast-check prints the seed and a
 * shrunk counterexample on failure (rerun with FUZZ_SEED=<seed>).
 */
import { describe, expect, it } from "@jest/globals";
import fc from "fast-check";
import { exampleNames, loadFormFile } from "../bin/form-file.js";
import { formPosition } from "../machines/position.js";
import type { FormSpec } from "../machines/spec.js";
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

function fuzz(spec: FormSpec) {
  fc.assert(
    fc.property(
      fc.array(key, { minLength: 1, maxLength: 30 }),
      fc.integer({ min: 1, max: 300 }),
      fc.integer({ min: 1, max: 60 }),
      (keys, width, height) => {
        const { form, results } = openForm(spec, { maxHeight: () => height });
        for (const k of keys) {
          form.handleInput(k);
          const lines = form.render(width);
          expect(form.failure).toBeUndefined();
          expect(overflowingLines(lines, width)).toEqual([]);
          expect(lines.length).toBeLessThanOrEqual(Math.max(height, 1));
          expect(() => formPosition(form.snapshot)).not.toThrow();
          expect(results.length).toBeLessThanOrEqual(1);
        }
        form.dispose();
      },
    ),
    { numRuns: RUNS, seed: SEED },
  );
}

describe.each(exampleNames())("fuzzing %s", (name) => {
  it(`${RUNS} random key sequences`, () => {
    const loaded = loadFormFile(name);
    if (!loaded.ok) throw new Error(loaded.message);
    fuzz(loaded.form.spec);
  }, 120_000);
});
