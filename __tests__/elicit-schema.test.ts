/**
 * The schema subset: what is accepted, what is refused (with the category,
 * the property and the keyword), and the check of returned content against
 * the original schema with ajv, ajv-formats and RE2 patterns.
 */
import { describe, expect, it } from "@jest/globals";
import { formResult, initialContext } from "../machines/context.js";
import { assertContentMatches, checkElicitRequest, checkRequestedSchema } from "../schemas/elicit.js";
import { hasFormat, TEXT_FORMATS } from "../schemas/formats.js";
import { contentOf, schemaForm } from "../tools/engine/schema-form.js";

const object = (properties: Record<string, unknown>, extra: object = {}) => ({
  type: "object",
  properties,
  ...extra,
});

function refusal(schema: unknown) {
  const checked = checkRequestedSchema(schema);
  if (checked.ok) throw new Error(`accepted: ${JSON.stringify(schema)}`);
  return `${checked.error.category}: ${checked.error.message}`;
}

function accepted(schema: unknown) {
  const checked = checkRequestedSchema(schema);
  if (!checked.ok) throw new Error(`${checked.error.category}: ${checked.error.message}`);
  return checked.value;
}

describe("the subset is accepted", () => {
  it("reads every kind of field, in property order, with its rules", () => {
    const checked = accepted(
      object(
        {
          name: { type: "string", title: "Name", description: "Full name", minLength: 1, maxLength: 80 },
          code: { type: "string", pattern: "^[A-Z]{3}$", default: "ABC" },
          mail: { type: "string", format: "email" },
          age: { type: "integer", minimum: 0, maximum: 150 },
          ratio: { type: "number", maximum: 1 },
          ok: { type: "boolean", default: true },
          plain: { type: "string", enum: ["a", "b"] },
          legacy: { type: "string", enum: ["a", "b"], enumNames: ["Alpha", "Beta"] },
          titled: { type: "string", oneOf: [{ const: "x", title: "Ex" }] },
          many: { type: "array", items: { type: "string", enum: ["p", "q"] }, minItems: 1, maxItems: 2 },
          manyTitled: { type: "array", items: { anyOf: [{ const: "p", title: "Pe" }] }, default: ["p"] },
        },
        {
          required: ["name"],
          title: "Profile",
          description: "About you",
          $schema: "http://json-schema.org/draft-07/schema#",
        },
      ),
    );
    expect(checked.title).toBe("Profile");
    expect(checked.description).toBe("About you");
    expect(checked.fields).toEqual([
      {
        name: "name",
        kind: "string",
        title: "Name",
        description: "Full name",
        required: true,
        minLength: 1,
        maxLength: 80,
      },
      { name: "code", kind: "string", required: false, pattern: "^[A-Z]{3}$", default: "ABC" },
      { name: "mail", kind: "string", required: false, format: "email" },
      { name: "age", kind: "integer", required: false, minimum: 0, maximum: 150 },
      { name: "ratio", kind: "number", required: false, maximum: 1 },
      { name: "ok", kind: "boolean", required: false, default: true },
      {
        name: "plain",
        kind: "choice",
        required: false,
        options: [
          { value: "a", title: "a" },
          { value: "b", title: "b" },
        ],
      },
      {
        name: "legacy",
        kind: "choice",
        required: false,
        options: [
          { value: "a", title: "Alpha" },
          { value: "b", title: "Beta" },
        ],
      },
      { name: "titled", kind: "choice", required: false, options: [{ value: "x", title: "Ex" }] },
      {
        name: "many",
        kind: "choices",
        required: false,
        options: [
          { value: "p", title: "p" },
          { value: "q", title: "q" },
        ],
        minItems: 1,
        maxItems: 2,
      },
      { name: "manyTitled", kind: "choices", required: false, options: [{ value: "p", title: "Pe" }], default: ["p"] },
    ]);
  });

  it("takes a form of no fields (a confirmation)", () => {
    expect(accepted(object({})).fields).toEqual([]);
  });
});

describe("anything else is refused before a form opens, naming the property and the keyword", () => {
  it.each<[string, unknown, string]>([
    ["not an object", "a form", "invalid_schema: requestedSchema: must be a JSON Schema object"],
    [
      "a keyword outside the subset on a string",
      object({ a: { type: "string", const: "x" } }),
      'unsupported_schema: requestedSchema.properties.a: the keyword "const" is not supported in a string field',
    ],
    [
      "exclusive bounds on a number",
      object({ n: { type: "number", exclusiveMinimum: 0 } }),
      'unsupported_schema: requestedSchema.properties.n: the keyword "exclusiveMinimum" is not supported in a number field',
    ],
    [
      "a nested object",
      object({ address: { type: "object", properties: { street: { type: "string" } } } }),
      'unsupported_schema: requestedSchema.properties.address.type: "object" is not supported',
    ],
    [
      "a list of types",
      object({ a: { type: ["string", "null"] } }),
      "unsupported_schema: requestedSchema.properties.a.type: a list of types is not supported",
    ],
    [
      "a missing type",
      object({ a: { enum: ["x"] } }),
      'unsupported_schema: requestedSchema.properties.a: the keyword "type" is missing',
    ],
    [
      "a format outside the four",
      object({ host: { type: "string", format: "hostname" } }),
      'unsupported_schema: requestedSchema.properties.host.format: "hostname" is not supported',
    ],
    [
      "numbers in an enum",
      object({ a: { type: "string", enum: ["x", 2] } }),
      "unsupported_schema: requestedSchema.properties.a.enum[1]: only string values are supported",
    ],
    [
      "a oneOf choice without a title",
      object({ a: { type: "string", oneOf: [{ const: "x" }] } }),
      'unsupported_schema: requestedSchema.properties.a.oneOf[0]: must be {"const": "<value>", "title": "<shown text>"}',
    ],
    [
      "an enum and a length together",
      object({ a: { type: "string", enum: ["x"], minLength: 1 } }),
      'unsupported_schema: requestedSchema.properties.a: the keyword "minLength" is not supported in a single choice (enum) field',
    ],
    [
      "an array of numbers",
      object({ a: { type: "array", items: { type: "number", enum: [1] } } }),
      'unsupported_schema: requestedSchema.properties.a.items.type: only "string" items are supported',
    ],
    [
      "uniqueItems on a multiple choice",
      object({ a: { type: "array", items: { type: "string", enum: ["x"] }, uniqueItems: true } }),
      'unsupported_schema: requestedSchema.properties.a: the keyword "uniqueItems" is not supported in a multiple choice field',
    ],
    [
      "a keyword at the top",
      object({}, { additionalProperties: false }),
      'unsupported_schema: requestedSchema: the keyword "additionalProperties" is not supported at the top',
    ],
    [
      "a top type other than object",
      { type: "array", items: {} },
      'unsupported_schema: requestedSchema.type: must be "object"',
    ],
    [
      "an odd property name is quoted",
      object({ "two words": { type: "string", foo: 1 } }),
      'unsupported_schema: requestedSchema.properties["two words"]: the keyword "foo"',
    ],
    [
      "a negative length (meta-schema)",
      object({ a: { type: "string", minLength: -1 } }),
      "invalid_schema: requestedSchema.properties.a.minLength: must be >= 0",
    ],
    [
      "a required name without a property",
      object({ a: { type: "string" } }, { required: ["b"] }),
      'invalid_schema: requestedSchema.required: "b" is not one of the properties',
    ],
    [
      "a default outside the choices",
      object({ a: { type: "string", enum: ["x"], default: "y" } }),
      'invalid_schema: requestedSchema.properties.a.default: "y" is not a valid answer',
    ],
    [
      "a default of the wrong type",
      object({ a: { type: "integer", default: 1.5 } }),
      "invalid_schema: requestedSchema.properties.a.default: 1.5 is not a valid answer (value: must be integer)",
    ],
    [
      "a default that breaks the format",
      object({ a: { type: "string", format: "date", default: "2023-02-29" } }),
      'invalid_schema: requestedSchema.properties.a.default: "2023-02-29" is not a valid answer (value: must match format "date")',
    ],
    [
      "a minimum above the maximum",
      object({ a: { type: "number", minimum: 5, maximum: 1 } }),
      "invalid_schema: requestedSchema.properties.a: minimum 5 is larger than maximum 1",
    ],
    [
      "no whole number in range",
      object({ a: { type: "integer", minimum: 1.2, maximum: 1.8 } }),
      "invalid_schema: requestedSchema.properties.a: no whole number lies between minimum 1.2 and maximum 1.8",
    ],
    [
      "more choices required than offered",
      object({ a: { type: "array", items: { type: "string", enum: ["x"] }, minItems: 2 } }),
      "invalid_schema: requestedSchema.properties.a: minItems 2 asks for more choices than the 1 offered",
    ],
    [
      "a value offered twice",
      object({
        a: {
          type: "string",
          oneOf: [
            { const: "x", title: "A" },
            { const: "x", title: "B" },
          ],
        },
      }),
      'invalid_schema: requestedSchema.properties.a: the value "x" is offered twice (choices 1 and 2)',
    ],
    [
      "enumNames of the wrong length",
      object({ a: { type: "string", enum: ["x", "y"], enumNames: ["X"] } }),
      "invalid_schema: requestedSchema.properties.a.enumNames: must be 2 strings, one per enum value",
    ],
    [
      "a backreference RE2 cannot run",
      object({ a: { type: "string", pattern: "(a)\\1" } }),
      "invalid_pattern: requestedSchema.properties.a.pattern: unsupported or invalid regular expression",
    ],
    [
      "a lookahead RE2 cannot run",
      object({ a: { type: "string", pattern: "^(?=x)" } }),
      "invalid_pattern: requestedSchema.properties.a.pattern: unsupported or invalid regular expression",
    ],
    [
      "more fields than a form holds",
      object(Object.fromEntries(Array.from({ length: 51 }, (_, i) => [`f${i}`, { type: "boolean" }]))),
      "too_many_questions: requestedSchema.properties: 51 fields, at most 50 fit in one form",
    ],
  ])("%s", (_, schema, expected) => {
    expect(refusal(schema)).toContain(expected);
  });

  it("checks the request around the schema: form mode only, a message", () => {
    const schema = object({});
    expect(checkElicitRequest({ message: "Hi", requestedSchema: schema }).ok).toBe(true);
    expect(checkElicitRequest({ mode: "form", message: "Hi", requestedSchema: schema }).ok).toBe(true);
    const refused = (raw: unknown) => {
      const checked = checkElicitRequest(raw);
      return checked.ok ? "accepted" : `${checked.error.category}: ${checked.error.message}`;
    };
    expect(refused({ mode: "url", message: "Hi", url: "https://example.com", elicitationId: "1" })).toMatch(
      /^invalid_arguments: mode: "url" is not supported/,
    );
    expect(refused({ requestedSchema: schema })).toBe("invalid_arguments: message: must be a string");
    expect(refused({ message: "Hi" })).toBe('invalid_arguments: request: missing required property "requestedSchema"');
    expect(refused(null)).toMatch(/^invalid_arguments: request: must be an object/);
  });
});

describe("content is checked against the original schema", () => {
  it("refuses content the schema does not take, naming the field", () => {
    const checked = accepted(
      object(
        {
          mail: { type: "string", format: "email" },
          n: { type: "integer", maximum: 3 },
          tags: { type: "array", items: { type: "string", enum: ["a", "b"] }, maxItems: 1 },
        },
        { required: ["mail"] },
      ),
    );
    expect(() => assertContentMatches(checked, { mail: "ada@example.org", n: 3, tags: ["a"] })).not.toThrow();
    expect(() => assertContentMatches(checked, { mail: "nope" })).toThrow('content.mail: must match format "email"');
    expect(() => assertContentMatches(checked, { mail: "a@b.co", n: 2.5 })).toThrow("content.n: must be integer");
    expect(() => assertContentMatches(checked, { mail: "a@b.co", tags: ["a", "b"] })).toThrow(
      "content.tags: must NOT have more than 1 items",
    );
    expect(() => assertContentMatches(checked, { n: 1 })).toThrow("must have required property 'mail'");
  });

  it("reads own properties only: an unanswered field named like an Object.prototype member is absent", () => {
    const checked = accepted(object({ constructor: { type: "number" }, toString: { type: "string" } }));
    expect(() => assertContentMatches(checked, {})).not.toThrow();
    expect(() => assertContentMatches(checked, { toString: 3 } as never)).toThrow("content.toString: must be string");
  });

  it("runs each schema's own pattern on RE2 (patterns of different forms never mix)", () => {
    const upper = accepted(object({ code: { type: "string", pattern: "^[A-Z]+$" } }));
    const digits = accepted(object({ code: { type: "string", pattern: "^[0-9]+$" } }));
    expect(() => assertContentMatches(upper, { code: "ABC" })).not.toThrow();
    expect(() => assertContentMatches(digits, { code: "ABC" })).toThrow('must match pattern "^[0-9]+$"');
    expect(() => assertContentMatches(digits, { code: "123" })).not.toThrow();
    expect(() => assertContentMatches(upper, { code: "123" })).toThrow('must match pattern "^[A-Z]+$"');
  });

  it("a pattern that would backtrack for ever in JavaScript is answered at once", () => {
    const checked = accepted(object({ a: { type: "string", pattern: "^(a+)+$" } }));
    const started = Date.now();
    expect(() => assertContentMatches(checked, { a: `${"a".repeat(5000)}!` })).toThrow("must match pattern");
    // A backtracking engine takes minutes here; RE2 is linear (a generous bound, not a benchmark).
    expect(Date.now() - started).toBeLessThan(5000);
  });

  it("maps answers to typed values: numbers, booleans, choices' values, arrays in option order", () => {
    // Parsed from JSON, as a request arrives: "__proto__" is an ordinary property name there.
    const properties = JSON.parse(`{
      "n": { "type": "number", "default": 2.5 },
      "i": { "type": "integer", "default": -3 },
      "yes": { "type": "boolean", "default": true },
      "no": { "type": "boolean", "default": false },
      "pick": { "type": "string", "oneOf": [{ "const": "v1", "title": "One" }, { "const": "v2", "title": "Two" }], "default": "v2" },
      "many": { "type": "array", "items": { "type": "string", "enum": ["a", "b", "c"] }, "default": ["c", "a"] },
      "__proto__": { "type": "string", "default": "kept as a key" }
    }`);
    const checked = accepted(object(properties));
    const spec = schemaForm(checked, "Check");
    const content = contentOf(checked, formResult(spec, { ...initialContext(spec), outcome: "submitted" }));
    expect(JSON.stringify(content)).toBe(
      '{"n":2.5,"i":-3,"yes":true,"no":false,"pick":"v2","many":["a","c"],"__proto__":"kept as a key"}',
    );
    expect(Object.hasOwn(content, "__proto__")).toBe(true);
    expect(Object.getPrototypeOf(content)).toBe(Object.prototype);
  });

  it("agrees with ajv-formats on every format, including near misses", () => {
    const samples: Record<string, Array<[string, boolean]>> = {
      email: [
        ["ada@example.org", true],
        ["ada@localhost", false],
        ["ada@@example.org", false],
        ["a.b+c@sub.example.co", true],
      ],
      uri: [
        ["https://example.com/a?b#c", true],
        ["urn:isbn:0451450523", true],
        ["example.com", false],
        ["http://exa mple.com", false],
      ],
      date: [
        ["2024-02-29", true],
        ["2023-02-29", false],
        ["2024-13-01", false],
      ],
      "date-time": [
        ["2025-11-25T14:30:00Z", true],
        ["2025-11-25T14:30:00+01:00", true],
        ["2025-11-25T14:30:00", false],
        ["2025-11-25 14:30:00Z", true],
        ["2025-11-25T25:30:00Z", false],
      ],
    };
    for (const format of TEXT_FORMATS) {
      const checked = accepted(object({ v: { type: "string", format } }));
      for (const [text, valid] of samples[format]) {
        expect({ format, text, form: hasFormat(format, text) }).toEqual({ format, text, form: valid });
        const ajvSays = (() => {
          try {
            assertContentMatches(checked, { v: text });
            return true;
          } catch {
            return false;
          }
        })();
        expect({ format, text, ajv: ajvSays }).toEqual({ format, text, ajv: valid });
      }
    }
  });
});
