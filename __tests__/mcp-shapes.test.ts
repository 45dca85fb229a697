/**
 * Every request shape of the subset, against the SDK's own schemas: random
 * form-mode requests built from every field kind and keyword of the subset
 * (fast-check). Each one the SDK's `ElicitRequestSchema` accepts must open a
 * form; filled in with keys, declined, or dismissed, the result must pass the
 * SDK's `ElicitResultSchema`, and accepted content the SDK's own validator
 * (ajv + ajv-formats, as an MCP server checks it).
 */
import { describe, expect, it } from "@jest/globals";
import { ElicitRequestSchema, ElicitResultSchema } from "@modelcontextprotocol/sdk/types.js";
import { AjvJsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/ajv";
import fc from "fast-check";
import { elicit } from "../tools/api.js";
import { K, loadExtension, scriptedUi } from "./helpers/elicit.js";

const RUNS = Number(process.env.FUZZ_RUNS ?? 300);
const SEED = process.env.FUZZ_SEED ? Number(process.env.FUZZ_SEED) : undefined;

type Property = Record<string, unknown>;
/** A property schema, and a valid answer typed as keys (`undefined`: Enter keeps what is there). */
interface Field {
  schema: Property;
  /** Keys that answer the field from where it opens (a default may already fill it). */
  answer: string[];
}

const text = fc.string({ minLength: 1, maxLength: 12 }).filter((t) => t.trim() !== "");
const annotations = fc.record({ title: text, description: text }, { requiredKeys: [] });
const word = fc.stringMatching(/^[a-z]{1,8}$/);

/** Keys that clear an editor holding `text`, then type `answer` and save it. */
const retype = (current: string, answer: string) => [
  ...Array([...current].length).fill(K.backspace),
  ...answer,
  K.enter,
];

const stringField: fc.Arbitrary<Field> = fc.oneof(
  fc
    .record({ min: fc.integer({ min: 1, max: 5 }), extra: fc.integer({ min: 0, max: 5 }), withDefault: fc.boolean() })
    .chain(({ min, extra, withDefault }) =>
      annotations.map((a): Field => {
        const schema: Property = { type: "string", ...a, minLength: min, maxLength: min + extra };
        const answer = "x".repeat(min);
        if (withDefault) schema.default = "d".repeat(min);
        return { schema, answer: retype(withDefault ? "d".repeat(min) : "", answer) };
      }),
    ),
  fc
    .constantFrom(
      ["email", "ada@example.org"],
      ["uri", "https://example.com/a?b=c"],
      ["date", "2024-02-29"],
      ["date-time", "2024-02-29T23:59:59+01:00"],
    )
    .chain(([format, sample]) =>
      annotations.map((a): Field => ({ schema: { type: "string", ...a, format }, answer: retype("", sample) })),
    ),
  fc
    .constantFrom(["^[a-z]+$", "abc"], ["^[0-9]{3}$", "123"], ["x", "axb"])
    .map(([pattern, sample]): Field => ({ schema: { type: "string", pattern }, answer: retype("", sample) })),
);

const numberField: fc.Arbitrary<Field> = fc
  .record({
    integer: fc.boolean(),
    min: fc.option(fc.integer({ min: -1000, max: 1000 }), { nil: undefined }),
    span: fc.integer({ min: 0, max: 1000 }),
    withMax: fc.boolean(),
    withDefault: fc.boolean(),
  })
  .chain(({ integer, min, span, withMax, withDefault }) =>
    annotations.map((a): Field => {
      const schema: Property = { type: integer ? "integer" : "number", ...a };
      if (min !== undefined) schema.minimum = integer ? min : min + 0.5;
      if (withMax) schema.maximum = (min ?? 0) + span + (integer ? 0 : 0.75);
      const low = (schema.minimum as number | undefined) ?? (withMax ? (schema.maximum as number) : 7);
      if (withDefault) {
        schema.default = low;
        return { schema, answer: [K.enter] };
      }
      return { schema, answer: retype("", String(low)) };
    }),
  );

const booleanField: fc.Arbitrary<Field> = fc
  .record({ a: annotations, initial: fc.option(fc.boolean(), { nil: undefined }) })
  .map(({ a, initial }): Field => {
    const schema: Property = { type: "boolean", ...a };
    if (initial !== undefined) schema.default = initial;
    return { schema, answer: ["2"] };
  });

const values = fc.uniqueArray(word, { minLength: 1, maxLength: 5 });

const choiceField: fc.Arbitrary<Field> = fc
  .record({ values, style: fc.constantFrom("enum", "enumNames", "oneOf"), a: annotations, withDefault: fc.boolean() })
  .map(({ values, style, a, withDefault }): Field => {
    const titles = values.map((v) => v.toUpperCase());
    const schema: Property =
      style === "oneOf"
        ? { type: "string", ...a, oneOf: values.map((v, i) => ({ const: v, title: titles[i] })) }
        : { type: "string", ...a, enum: values, ...(style === "enumNames" ? { enumNames: titles } : {}) };
    if (withDefault) schema.default = values[values.length - 1];
    return { schema, answer: withDefault ? [K.enter] : ["1"] };
  });

const choicesField: fc.Arbitrary<Field> = fc
  .record({
    values,
    titled: fc.boolean(),
    a: annotations,
    min: fc.option(fc.integer({ min: 0, max: 5 }), { nil: undefined }),
    max: fc.option(fc.integer({ min: 1, max: 5 }), { nil: undefined }),
  })
  .map(({ values, titled, a, min, max }): Field => {
    const lo = min === undefined ? undefined : Math.min(min, values.length);
    const hi = max === undefined ? undefined : Math.max(max, lo ?? 0, 1);
    const items = titled
      ? { anyOf: values.map((v) => ({ const: v, title: v.toUpperCase() })) }
      : { type: "string", enum: values };
    const schema: Property = { type: "array", ...a, items };
    if (lo !== undefined) schema.minItems = lo;
    if (hi !== undefined) schema.maxItems = hi;
    // Tick as many as the count asks for (at least one), from the top.
    const ticks = Math.max(lo ?? 0, 1);
    const answer = Array.from({ length: ticks }, (_, i) => [i > 0 ? K.down : "", K.space]).flat();
    return { schema, answer: [...answer.filter((k) => k !== ""), K.enter] };
  });

const field = fc.oneof(stringField, numberField, booleanField, choiceField, choicesField);
const NAMES = ["name", "e-mail", "two words", "ünïcode", "constructor", "0", "toString", "a.b", "x"];

const request = fc
  .record({
    message: fc.string({ maxLength: 40 }),
    fields: fc.uniqueArray(fc.tuple(fc.constantFrom(...NAMES), field), {
      maxLength: 6,
      selector: ([name]) => name,
    }),
    requiredMask: fc.array(fc.boolean(), { minLength: 6, maxLength: 6 }),
  })
  .map(({ message, fields, requiredMask }) => {
    const properties: Record<string, Property> = {};
    for (const [name, f] of fields) properties[name] = f.schema;
    const required = fields.filter((_, i) => requiredMask[i]).map(([name]) => name);
    const requestedSchema = { type: "object", properties, ...(required.length ? { required } : {}) };
    // The form asks in the order of the object's keys (integer-like names come first in JavaScript).
    const byName = new Map(fields.map(([name, f]) => [name, f.answer]));
    return { message, requestedSchema, answers: Object.keys(properties).map((name) => byName.get(name)!) };
  });

const sdkValidator = new AjvJsonSchemaValidator();

/**
 * The SDK's server check (ajv with its default options) also sees inherited
 * properties: content without a "toString" field fails a schema whose
 * optional "toString" is a string. Such content is valid JSON Schema-wise
 * (our own check reads own properties only); the SDK's verdict is taken where
 * it can judge.
 */
function sdkCanJudge(content: Record<string, unknown>, schema: { properties: Record<string, unknown> }): boolean {
  return Object.keys(schema.properties).every((name) => !(name in Object.prototype) || Object.hasOwn(content, name));
}

describe("every request shape of the subset, against the SDK", () => {
  loadExtension();

  it("opens a form for every request the SDK accepts; every result passes the SDK's result schema", async () => {
    const outcomes = { accept: 0, decline: 0, cancel: 0 };
    await fc.assert(
      fc.asyncProperty(request, fc.constantFrom("fill", "decline", "dismiss"), async (r, how) => {
        const params = { message: r.message, requestedSchema: r.requestedSchema };
        const parsed = ElicitRequestSchema.safeParse({ method: "elicitation/create", params });
        expect(parsed.success).toBe(true);
        const keys =
          how === "fill" ? [...r.answers.flat(), K.enter] : how === "decline" ? [K.shiftTab, "d"] : [K.esc, K.esc];
        const ui = scriptedUi([keys]);
        // Keys that leave the form open would hang the run: give up after a while and show where it stood.
        const stuck = new AbortController();
        const timer = setTimeout(() => stuck.abort(), 2000);
        const result = await elicit(ui.ctx, params as never, stuck.signal).finally(() => clearTimeout(timer));
        if (stuck.signal.aborted) throw new Error(`the form stayed open:\n${ui.screens[0]?.join("\n")}`);
        expect(ui.opened()).toBe(1);
        expect(ElicitResultSchema.safeParse(result).success).toBe(true);
        expect(result.action).toBe(how === "fill" ? "accept" : how === "decline" ? "decline" : "cancel");
        if (result.action === "accept") {
          const verdict = sdkValidator.getValidator(r.requestedSchema as never)(result.content);
          expect({ content: result.content, ...verdict }).toMatchObject({ valid: true });
          // Every field was answered, with a value of its schema's type.
          expect(Object.keys(result.content).sort()).toEqual(Object.keys(r.requestedSchema.properties).sort());
        }
        outcomes[result.action]++;
      }),
      { numRuns: RUNS, seed: SEED },
    );
    expect(outcomes.accept).toBeGreaterThan(0);
    expect(outcomes.decline).toBeGreaterThan(0);
    expect(outcomes.cancel).toBeGreaterThan(0);
  }, 120_000);

  it("random keys never produce content the schema refuses", async () => {
    const keys = fc.array(
      fc.oneof(
        { weight: 4, arbitrary: fc.constantFrom(K.enter, K.tab, K.shiftTab, K.space, K.down, K.up, K.backspace) },
        { weight: 3, arbitrary: fc.constantFrom(..."0123456789.-+eE@:/xyzADd T") },
        { weight: 1, arbitrary: fc.constantFrom("ada@example.org", "https://example.com", "2024-02-29", "12:00:00Z") },
      ),
      { maxLength: 40 },
    );
    let accepted = 0;
    await fc.assert(
      fc.asyncProperty(request, keys, async (r, pressed) => {
        const params = { message: r.message, requestedSchema: r.requestedSchema };
        // Whatever was pressed, Esc at the end closes a form still open (out of an editor, then asked, then discarded).
        const ui = scriptedUi([[...pressed, K.esc, K.esc, K.esc]]);
        const result = await elicit(ui.ctx, params as never);
        expect(ElicitResultSchema.safeParse(result).success).toBe(true);
        if (result.action === "accept") {
          accepted++;
          if (!sdkCanJudge(result.content, r.requestedSchema)) return;
          const verdict = sdkValidator.getValidator(r.requestedSchema as never)(result.content);
          expect({ content: result.content, ...verdict }).toMatchObject({ valid: true });
        }
      }),
      { numRuns: RUNS, seed: SEED },
    );
    expect(accepted).toBeGreaterThan(0);
  }, 120_000);
});
