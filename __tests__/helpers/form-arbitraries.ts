/**
 * fast-check arbitraries of the arguments each form tool accepts, as a model
 * writes them: `{tool, arguments}` for `prepareFormFile`. They range over what
 * the declarations (schemas/*.ts) and their checks let through: `question` up
 * to its 50 questions, 1 or more options, single and multi, required or not,
 * typed answers or not, previews, descriptions, recommended options and a
 * timeout; `questionnaire` and `question_branch` (at most 4 questions, 2 or
 * more options, yes/no and rating questions) with conditions using every
 * operator, written as objects and as strings, with string, number, boolean
 * and list values; `question_input` of every type with its lengths, range and
 * pattern; `question_throttle` with a cooldown; `ask_rich_questions` of radio,
 * checkbox and text questions; `ask_form` schemas with every field kind and
 * their defaults. Most forms are small; `nearLimit` makes the large ones.
 */
import fc from "fast-check";
import { OPERATORS } from "../../schemas/conditions.js";

export interface ToolCall {
  tool: string;
  arguments: Record<string, unknown>;
}

const maybe = <T>(arb: fc.Arbitrary<T>) => fc.option(arb, { nil: undefined, freq: 2 });

/** Drop the keys whose value is undefined: an absent field, as a model leaves it out. */
function present<T extends Record<string, unknown>>(record: T): T {
  return Object.fromEntries(Object.entries(record).filter(([, v]) => v !== undefined)) as T;
}

const PREVIEW = fc.constantFrom(
  "SELECT 1;",
  "```ts\nconst x = 1;\n```",
  "a preview\nof three\nlines",
  "日本語 ✨ wide",
);
const DESCRIPTION = fc.constantFrom("Short.", "A longer description that wraps on a narrow terminal, twice over.");

/** `question`'s option: a label, or an object with a description, a preview, recommended. */
function choiceOption(q: number, j: number, previews: boolean) {
  const label = `Option ${q + 1}.${j + 1}`;
  return fc.oneof(
    { weight: previews ? 0 : 1, arbitrary: fc.constant(label) },
    {
      weight: 3,
      arbitrary: fc
        .record({
          description: maybe(DESCRIPTION),
          preview: previews ? PREVIEW.map((p) => `${p} ${j}`) : fc.constant(undefined),
          recommended: maybe(fc.boolean()),
        })
        .map((o) => present({ label, ...o })),
    },
  );
}

function questionItem(i: number, maxOptions: number) {
  return fc
    .record({
      count: fc.integer({ min: 1, max: maxOptions }),
      previews: fc.boolean(),
      multiple: maybe(fc.boolean()),
      required: maybe(fc.boolean()),
      allowOther: maybe(fc.boolean()),
      label: maybe(fc.constant(`Q${i + 1}`)),
    })
    .chain(({ count, previews, ...rest }) =>
      fc
        .tuple(...Array.from({ length: count }, (_, j) => choiceOption(i, j, previews)))
        .map((options) => present({ id: `q${i + 1}`, prompt: `Question ${i + 1}?`, options, ...rest })),
    );
}

const TIMEOUT = maybe(fc.integer({ min: 1, max: 86_400 }));

/**
 * `question` with `min`–`max` questions of 1–`maxOptions` options; given `long`, one form in ten
 * is long (`long`–`long + 8` questions), its required questions wherever they fall: seeks from the
 * review screen past answered ones.
 */
export function questionCall(min = 1, max = 5, maxOptions = 5, long = 0): fc.Arbitrary<ToolCall> {
  return fc
    .oneof(
      { weight: 9, arbitrary: fc.integer({ min, max }) },
      { weight: long > 0 ? 1 : 0, arbitrary: fc.integer({ min: long, max: long + 8 }) },
    )
    .chain((n) =>
      fc.record({
        questions: fc.tuple(...Array.from({ length: n }, (_, i) => questionItem(i, maxOptions))),
        timeout: TIMEOUT,
      }),
    )
    .map((args) => ({ tool: "question", arguments: present(args) }));
}

/**
 * Near the `question` tool's limit: 40–50 questions of 2–5 options, a few
 * multi-selects, required questions and previews scattered, no timeout.
 */
export function nearLimit(): fc.Arbitrary<ToolCall> {
  return fc
    .record({
      n: fc.integer({ min: 40, max: 50 }),
      multi: fc.uniqueArray(fc.nat(49), { minLength: 1, maxLength: 8 }),
      required: fc.uniqueArray(fc.nat(49), { minLength: 1, maxLength: 8 }),
      previews: fc.uniqueArray(fc.nat(49), { maxLength: 6 }),
      other: fc.uniqueArray(fc.nat(49), { maxLength: 4 }),
      sizes: fc.array(fc.integer({ min: 2, max: 5 }), { minLength: 50, maxLength: 50 }),
    })
    .map(({ n, multi, required, previews, other, sizes }) => ({
      tool: "question",
      arguments: {
        questions: Array.from({ length: n }, (_, i) =>
          present({
            id: `q${i + 1}`,
            prompt: `Question ${i + 1}?`,
            multiple: multi.includes(i) || undefined,
            required: required.includes(i) || undefined,
            allowOther: other.includes(i) ? true : undefined,
            options: Array.from({ length: sizes[i] }, (_, j) =>
              previews.includes(i)
                ? { label: `Option ${i + 1}.${j + 1}`, preview: `code ${i + 1}.${j + 1}\nline two` }
                : `Option ${i + 1}.${j + 1}`,
            ),
          }),
        ),
      },
    }));
}

type QwizardType = "single" | "multi" | "yes_no" | "rating";

interface BranchQuestion {
  id: string;
  type: QwizardType;
  /** The values its answers give: labels, `Yes`/`No`, `1`–`5`. */
  values: string[];
  /** Whether it can be answered with nothing (an optional multi-select): `is_empty` can hold only then. */
  emptyable: boolean;
  /** Whether a typed answer is taken: a value no option gives can hold only then. */
  typeable: boolean;
  /** `on: false` hides it whatever its conditions (a condition on it is refused), `on: true` shows it. */
  on?: boolean;
}

const YES_NO = ["Yes", "No"];
const RATING = ["1", "2", "3", "4", "5"];
const MONTHS = "January February March April May June July August September October November December".split(" ");

/** Patterns a model gives typed answers: a commit hash, a version, a date in a year, a prefix, a name. */
export const COMMON_PATTERNS = [
  "^[0-9a-f]{7,40}$",
  "^\\d+\\.\\d+\\.\\d+$",
  "^v?\\d+\\.\\d+",
  "^2027-",
  "^eu-",
  "^[A-Z]{2,5}-\\d+$",
  "^[a-z][a-z0-9_]*$",
  "^\\S+@\\S+$",
];

/** Labels that are numbers for some questions, words for others: the numeric operators need numbers to bite. */
function qwizardQuestion(i: number, branch: boolean) {
  return fc
    .record({
      type: fc.constantFrom<QwizardType>("single", "single", "multi", "yes_no", "rating"),
      // Past nine, where no digit reaches: ten numbers, or the twelve months.
      count: fc.oneof({ weight: 4, arbitrary: fc.integer({ min: 2, max: 5 }) }, fc.constantFrom(10, 12)),
      numeric: fc.boolean(),
      allowOther: maybe(fc.boolean()),
      required: maybe(fc.boolean()),
      autoAdvance: maybe(fc.boolean()),
      // Switched on, beating any condition, or off (never shown; a condition on it is refused).
      on:
        i === 0 || !branch
          ? fc.constant(undefined)
          : fc.option(fc.constantFrom(true, false), { nil: undefined, freq: 6 }),
    })
    .map(({ type, count, numeric, ...rest }) => {
      const labels =
        type === "yes_no"
          ? YES_NO
          : type === "rating"
            ? RATING
            : count === 12 && !numeric
              ? MONTHS
              : Array.from({ length: count }, (_, j) =>
                  numeric ? String((j + 1) * (count > 9 ? 1 : i + 1)) : `choice ${i + 1}${"abcdefghijkl"[j]}`,
                );
      const options = type === "yes_no" || type === "rating" ? [] : labels;
      const item = present({
        id: `b${i + 1}`,
        label: `B${i + 1}`,
        prompt: `Branch question ${i + 1}?`,
        type: type === "single" ? undefined : type,
        options,
        ...rest,
      });
      const emptyable = type === "multi" && rest.required === false;
      const typeable = rest.allowOther ?? (type === "single" || type === "multi");
      return {
        item,
        question: { id: `b${i + 1}`, type, values: labels, emptyable, typeable, on: rest.on } as BranchQuestion,
      };
    });
}

const NUMERIC = ["gt", "lt", "gte", "lte"];
const OPPOSITE: Record<string, (typeof OPERATORS)[number]> = { gt: "lt", lt: "gt", gte: "lte", lte: "gte" };

/** A condition on an earlier question, with a value of the kind its operator takes, written one of the ways a model writes it. */
function condition(on: BranchQuestion) {
  return fc
    .record({
      operator: fc.constantFrom(...OPERATORS),
      pick: fc.nat(),
      offset: fc.constantFrom(-1, 0, 1),
      shape: fc.constantFrom("object", "string", "raw"),
      listShape: fc.constantFrom("array", "comma"),
      other: fc.constantFrom("Blue", "nothing like it"),
      pattern: fc.constantFrom(...COMMON_PATTERNS),
    })
    .map(({ operator: drawn, pick, offset, shape, listShape, other, pattern }) => {
      const numbers = on.values.map(Number).filter(Number.isFinite);
      // Mostly an operator some answer can satisfy; `is_empty` on a typed answer too, which the door refuses.
      let operator = drawn === "is_empty" && !on.emptyable && !on.typeable ? "is_not_empty" : drawn;
      if (!on.typeable && numbers.length === 0 && NUMERIC.includes(operator)) operator = "equals";
      const chosen = on.values[pick % on.values.length];
      let value: unknown;
      if (operator === "is_empty" || operator === "is_not_empty") value = undefined;
      else if (NUMERIC.includes(operator)) {
        value = (numbers.length > 0 ? numbers[pick % numbers.length] : pick % 5) + offset;
        // Past every answer (`lt 0` over 1–5) only a typed answer could hold: the other way round does.
        const meets = (n: number) =>
          ({ gt: n > Number(value), gte: n >= Number(value), lt: n < Number(value), lte: n <= Number(value) })[
            operator as "gt"
          ];
        if (!on.typeable && !numbers.some(meets)) operator = OPPOSITE[operator];
      } else if (operator === "in") {
        const list = [chosen, ...(offset === 0 ? [] : [on.values[(pick + 1) % on.values.length]]), other];
        value = listShape === "array" ? list : list.join(", ");
      } else if (operator === "matches")
        value =
          on.typeable && offset === -1 ? pattern : offset === 0 ? `^${chosen.slice(0, 3)}` : `${chosen.slice(-1)}$`;
      else if (operator === "contains") value = chosen.slice(0, Math.max(1, chosen.length - 1));
      else value = offset === 1 && (on.typeable || operator !== "equals") ? other : chosen;
      // A number written as a number, a yes/no as a boolean, where the model would.
      if (shape === "raw" && typeof value === "string" && Number.isFinite(Number(value)) && value.trim() !== "")
        value = Number(value);
      if (shape === "raw" && on.type === "yes_no" && (value === "Yes" || value === "No")) value = value === "Yes";
      if (shape === "string" && !Array.isArray(value) && !/\s/.test(String(value ?? "")))
        return value === undefined ? `${on.id} ${operator}` : `${on.id} ${operator} ${value}`;
      return present({ field: on.id, operator, value });
    });
}

/** `questionnaire` (no conditions) or `question_branch`: 1–4 questions. */
export function qwizardCall(tool: "questionnaire" | "question_branch"): fc.Arbitrary<ToolCall> {
  return fc
    .integer({ min: 1, max: 4 })
    .chain((n) => fc.tuple(...Array.from({ length: n }, (_, i) => qwizardQuestion(i, tool === "question_branch"))))
    .chain((made) => {
      const items = made.map((m, i) => {
        if (tool === "questionnaire" || i === 0) return fc.constant(m.item);
        const earlier = made.slice(0, i).map((x) => x.question);
        return fc
          .record({
            // One condition a field: two on the same one (equals 1, equals Blue) may never both hold.
            when: maybe(
              fc
                .uniqueArray(fc.constantFrom(...earlier), { minLength: 1, maxLength: 3 })
                .chain((fields) => fc.tuple(...fields.map(condition))),
            ),
            single: fc.boolean(),
          })
          .map(({ when, single }) =>
            present({ ...m.item, when: when && single && when.length === 1 ? when[0] : when }),
          );
      });
      return fc.record({ questions: fc.tuple(...items), timeout: TIMEOUT });
    })
    .map((args) => ({ tool, arguments: present(args) }));
}

export function inputCall(): fc.Arbitrary<ToolCall> {
  return (
    fc
      .record({
        type: maybe(fc.constantFrom("text", "number", "email", "date")),
        placeholder: maybe(fc.constantFrom("e.g. 42", "your name")),
        required: maybe(fc.boolean()),
        minLength: maybe(fc.integer({ min: 0, max: 3 })),
        // Long enough for every pattern's shortest match (`AB-1`, `a@b`, seven hex digits).
        maxLength: maybe(fc.integer({ min: 8, max: 40 })),
        pattern: maybe(fc.constantFrom("^\\d+$", ...COMMON_PATTERNS)),
        datePattern: maybe(fc.constantFrom("^2027-", "^2024-02")),
        min: fc.integer({ min: -5, max: 10 }),
        span: maybe(fc.integer({ min: 0, max: 100 })),
        timeout: TIMEOUT,
      })
      // Lengths and a pattern only on plain text: a date or an address is never `AB-1` nor 3 long;
      // a date gets a year or a month to begin with.
      .map(({ type, min, span, minLength, maxLength, pattern, datePattern, ...rest }) => ({
        tool: "question_input",
        arguments: present({
          question: "What should it be?",
          type,
          ...rest,
          ...(type === undefined || type === "text" ? { minLength, maxLength, pattern } : {}),
          ...(type === "date" ? { pattern: datePattern } : {}),
          ...(type === "number" && span !== undefined ? { min, max: min + span } : {}),
        }),
      }))
  );
}

export function throttleCall(): fc.Arbitrary<ToolCall> {
  return fc
    .record({
      count: fc.integer({ min: 1, max: 5 }),
      cooldown: maybe(fc.constantFrom(0, 0.5, 2, 3600)),
      allowOther: maybe(fc.boolean()),
      type: maybe(fc.constantFrom("single", "multi")),
      timeout: TIMEOUT,
    })
    .map(({ count, ...rest }) => ({
      tool: "question_throttle",
      arguments: present({
        question: "Which one, after a pause?",
        options: Array.from({ length: count }, (_, j) => `Throttled ${j + 1}`),
        ...rest,
      }),
    }));
}

function richQuestion(i: number) {
  return fc
    .record({
      type: maybe(fc.constantFrom("radio", "checkbox", "text")),
      count: fc.integer({ min: 1, max: 5 }),
      required: maybe(fc.boolean()),
      allowOther: maybe(fc.boolean()),
      placeholder: maybe(fc.constant("type here")),
      body: maybe(DESCRIPTION),
      recommendation: maybe(fc.constant("The first one")),
      caveats: maybe(fc.constantFrom("One caveat", ["First caveat", "Second caveat"])),
      option: fc.record({
        description: maybe(DESCRIPTION),
        details: maybe(fc.constant("More details.")),
        note: maybe(fc.constant("Mine.")),
        preview: maybe(PREVIEW),
        recommended: maybe(fc.boolean()),
        valued: fc.boolean(),
      }),
    })
    .map(({ type, count, option, ...rest }) => {
      const { valued, ...extra } = option;
      const options =
        type === "text"
          ? undefined
          : Array.from({ length: count }, (_, j) =>
              j === 0
                ? present({ label: `Rich ${i + 1}.${j + 1}`, value: valued ? `v${j}` : undefined, ...extra })
                : `Rich ${i + 1}.${j + 1}`,
            );
      return present({
        id: `r${i + 1}`,
        label: `R${i + 1}`,
        prompt: `Rich question ${i + 1}?`,
        type,
        options,
        ...rest,
      });
    });
}

export function richCall(max = 5): fc.Arbitrary<ToolCall> {
  return fc
    .integer({ min: 1, max })
    .chain((n) =>
      fc.record({
        title: maybe(fc.constant("A rich form")),
        description: maybe(DESCRIPTION),
        questions: fc.tuple(...Array.from({ length: n }, (_, i) => richQuestion(i))),
        timeout: TIMEOUT,
      }),
    )
    .map((args) => ({ tool: "ask_rich_questions", arguments: present(args) }));
}

/** One `ask_form` field of each kind MCP elicitation's form subset has, with a default or not. */
const schemaField = fc.oneof(
  fc
    .record({
      minLength: maybe(fc.integer({ min: 1, max: 3 })),
      maxLength: maybe(fc.integer({ min: 8, max: 40 })),
      pattern: maybe(fc.constantFrom("^[a-z]+$", "^[A-Z]{2}-\\d+$", ...COMMON_PATTERNS)),
      description: maybe(DESCRIPTION),
    })
    .map((f) => present({ type: "string", title: "Text", ...f })),
  fc
    .record({
      format: fc.constantFrom("email", "uri", "date", "date-time"),
      withDefault: fc.boolean(),
      prefix: maybe(fc.constant("^2024-")),
    })
    .map(({ format, withDefault, prefix }) =>
      present({
        type: "string",
        format,
        pattern: format === "date" ? prefix : undefined,
        default: withDefault && format === "date" ? "2024-02-29" : undefined,
      }),
    ),
  fc
    .record({
      type: fc.constantFrom("number", "integer"),
      minimum: maybe(fc.integer({ min: -10, max: 0 })),
      maximum: maybe(fc.integer({ min: 1, max: 100 })),
      withDefault: fc.boolean(),
    })
    .map(({ withDefault, ...f }) => present({ ...f, default: withDefault ? 1 : undefined })),
  fc.record({ default: maybe(fc.boolean()) }).map((f) => present({ type: "boolean", title: "Agree?", ...f })),
  fc
    .record({ count: fc.integer({ min: 1, max: 5 }), titled: fc.boolean(), withDefault: fc.boolean() })
    .map(({ count, titled, withDefault }) => {
      const values = Array.from({ length: count }, (_, j) => `c${j + 1}`);
      return present({
        type: "string",
        ...(titled ? { oneOf: values.map((v) => ({ const: v, title: `Choice ${v}` })) } : { enum: values }),
        default: withDefault ? values[count - 1] : undefined,
      });
    }),
  fc
    .record({
      count: fc.integer({ min: 1, max: 5 }),
      titled: fc.boolean(),
      minItems: maybe(fc.constant(1)),
      maxItems: maybe(fc.integer({ min: 1, max: 5 })),
      withDefault: fc.boolean(),
    })
    .map(({ count, titled, withDefault, ...f }) => {
      const values = Array.from({ length: count }, (_, j) => `m${j + 1}`);
      return present({
        type: "array",
        items: titled
          ? { anyOf: values.map((v) => ({ const: v, title: `Many ${v}` })) }
          : { type: "string", enum: values },
        ...f,
        maxItems: f.maxItems === undefined ? undefined : Math.max(f.maxItems, f.minItems ?? 0),
        default: withDefault ? [values[0]] : undefined,
      });
    }),
);

export function askFormCall(): fc.Arbitrary<ToolCall> {
  return fc
    .record({
      fields: fc.array(schemaField, { minLength: 1, maxLength: 4 }),
      required: fc.array(fc.boolean(), { minLength: 4, maxLength: 4 }),
      title: maybe(fc.constant("A schema form")),
      timeout: TIMEOUT,
    })
    .map(({ fields, required, title, timeout }) => ({
      tool: "ask_form",
      arguments: present({
        title,
        message: "Fill in these fields.",
        schema: present({
          type: "object",
          properties: Object.fromEntries(fields.map((f, i) => [`f${i + 1}`, f])),
          required: fields.flatMap((_, i) => (required[i] ? [`f${i + 1}`] : [])),
        }),
        timeout,
      }),
    }));
}

/** Every tool's arbitrary, small forms, by tool name. */
export const TOOL_CALLS: Record<string, fc.Arbitrary<ToolCall>> = {
  question: questionCall(1, 5, 5, 12),
  questionnaire: qwizardCall("questionnaire"),
  question_branch: qwizardCall("question_branch"),
  question_input: inputCall(),
  question_throttle: throttleCall(),
  ask_rich_questions: richCall(),
  ask_form: askFormCall(),
};
