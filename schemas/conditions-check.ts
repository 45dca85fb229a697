/**
 * Parsing a `when` into conditions (qwizard's operator table). A condition
 * that can never be judged or never hold (bad syntax, unknown operator,
 * unknown or later question, a missing or blank value, an empty list
 * (`a in ,,,`, `value: []`, also for `matches`), a numeric operator with a
 * non-number) is refused as `invalid_condition`; a `matches` expression RE2
 * cannot run as `invalid_pattern`.
 */
import { type Condition, OPERATORS, type Operator, type RawCondition, type RawWhen, splitList } from "./conditions.js";
import { compilePattern } from "./patterns.js";
import type { ArgumentError } from "./validate.js";

/** Symbols accepted as spellings of operators in string conditions. */
const OPERATOR_ALIASES: Readonly<Record<string, Operator>> = {
  "=": "equals",
  "==": "equals",
  "!=": "not_equals",
  ">": "gt",
  "<": "lt",
  ">=": "gte",
  "<=": "lte",
};

const UNARY: ReadonlySet<Operator> = new Set(["is_empty", "is_not_empty"]);
const NUMERIC: ReadonlySet<Operator> = new Set(["gt", "lt", "gte", "lte"]);

const isOperator = (word: string): word is Operator => (OPERATORS as readonly string[]).includes(word);

/** No value to compare with: blank, or a list without a non-blank item (no answer could match it). */
function isBlank(value: string | string[]): boolean {
  if (Array.isArray(value)) return value.every((v) => v.trim() === "");
  return value.trim() === "";
}

function parseOne(raw: RawCondition, at: string): Condition | ArgumentError {
  let field: string;
  let opWord: string;
  let value: string | string[] | undefined;
  if (typeof raw === "string") {
    const m = /^\s*(\S+)\s+(\S+)(?:\s+([\s\S]*?))?\s*$/.exec(raw);
    if (!m) return { category: "invalid_condition", message: `${at}: "${raw}" is not "field_id operator value"` };
    [, field, opWord, value] = m;
  } else {
    field = raw.field;
    opWord = raw.operator ?? "equals";
    const v = raw.value;
    value = v === undefined || v === null ? undefined : Array.isArray(v) ? v.map(String) : String(v);
  }
  const lowered = opWord.toLowerCase();
  const operator: Operator | undefined = isOperator(lowered) ? lowered : OPERATOR_ALIASES[lowered];
  if (!operator) {
    return {
      category: "invalid_condition",
      message: `${at}: unknown operator "${opWord}" (use one of ${OPERATORS.join(", ")})`,
    };
  }
  if (UNARY.has(operator)) return { field, operator };
  if (value === undefined || isBlank(value)) {
    return { category: "invalid_condition", message: `${at}: operator "${operator}" needs a value` };
  }
  if (NUMERIC.has(operator) && (Array.isArray(value) || !Number.isFinite(Number(value)))) {
    return {
      category: "invalid_condition",
      message: `${at}: operator "${operator}" compares numbers, "${value}" is not one`,
    };
  }
  if (operator === "matches") {
    const compiled = compilePattern(Array.isArray(value) ? value.join(", ") : value, true);
    if (!compiled.ok) return { category: "invalid_pattern", message: `${at}: ${compiled.reason}` };
  }
  if (operator === "in" && typeof value === "string") {
    value = splitList(value);
    // `a in ,,,` lists nothing: no answer could ever be in it.
    if (value.length === 0) {
      return {
        category: "invalid_condition",
        message: `${at}: operator "${operator}" needs at least one value in its list`,
      };
    }
  }
  return { field, operator, value };
}

/** Parse a `when` into conditions that only look back at earlier questions. */
export function parseWhen(
  when: RawWhen,
  index: number,
  ids: string[],
  list = "questions",
): Condition[] | ArgumentError {
  const parts = Array.isArray(when) ? when : [when];
  const base = `${list}[${index}].when`;
  const out: Condition[] = [];
  for (const [j, part] of parts.entries()) {
    const at = Array.isArray(when) ? `${base}[${j}]` : base;
    const parsed = parseOne(part, at);
    if ("category" in parsed) return parsed;
    const target = ids.indexOf(parsed.field);
    if (target < 0) {
      return {
        category: "invalid_condition",
        message: `${at}: "${parsed.field}" is not the id of a question in this form`,
      };
    }
    if (target >= index) {
      const which = target === index ? "the question itself" : `${list}[${target}], which comes later`;
      return {
        category: "invalid_condition",
        message: `${at}: "${parsed.field}" refers to ${which}; conditions can only look at earlier answers`,
      };
    }
    out.push(parsed);
  }
  return out;
}
