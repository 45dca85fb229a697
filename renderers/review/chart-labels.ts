/**
 * The labels of a review chart: DOT strings of model-written text, and edge
 * labels kept narrow (keys wrapped between keys, conditions between words,
 * and no condition the question an edge leads into says already).
 */
import type { FormSpec } from "../../machines/spec.js";
import { conditionText } from "./condition-words.js";

/** A DOT string: control and bidirectional characters dropped (the labels are model-written), lines kept. */
export const dotString = (text: string) =>
  `"${text
    .replace(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g, "")
    .replace(/\\/g, "\\\\")
    .replace(/"/g, '\\"')
    .replace(/\n/g, "\\n")}"`;

/** Narrow labels keep the chart narrow enough to read whole beside the screen. */
export const LABEL_WIDTH = 24;

export function wrap(text: string, width = LABEL_WIDTH, by = " "): string {
  const lines: string[] = [];
  let line = "";
  for (const word of text.split(by)) {
    if (line && line.length + word.length + by.length > width) {
      lines.push(by === " " ? line : `${line}${by.trimEnd()}`);
      line = word;
    } else line = line ? `${line}${by}${word}` : word;
  }
  if (line) lines.push(line);
  return lines.join("\n");
}

/** An edge's line: its keys (wrapped between keys), then when they lead there (wrapped between words). */
export function edgeLine(keys: string, when: string): string {
  const head = wrap(keys, LABEL_WIDTH, " / ");
  return when ? `${head}\n${wrap(when)}` : head;
}

/**
 * A step's condition less what the question it leads into says already
 * (`shown when Size is 4 or more`): the label keeps the keys, the other
 * conditions and the questions skipped, and the chart stays narrow.
 */
export function withoutShown(spec: FormSpec, to: string, when: string): string {
  const q = /^q(\d+)\./.exec(to);
  const question = q ? spec.questions[Number(q[1]) - 1] : undefined;
  if (question?.visibility.kind !== "when") return when;
  const shown = `when ${conditionText(spec, question.visibility)}`;
  if (!when.startsWith(shown)) return when;
  const rest = when.slice(shown.length);
  return rest.startsWith("; ") ? `when ${rest.slice(2)}` : rest.replace(/^ · /, "");
}
