/**
 * The benchmark's table of what the model sees (scripts/bench-footprint.ts):
 * every named set's row carries its ratio to Pi's questionnaire example and
 * its target, marked kept or missed on the main host, whatever the second
 * host measures.
 */
import { describe, expect, it } from "@jest/globals";
import {
  FOOTPRINT_TARGETS,
  type FootprintHost,
  type FootprintRow,
  printFootprint,
  type Seen,
} from "../scripts/bench-footprint.js";

const host = (name: string): FootprintHost => ({
  name,
  node: "node",
  cli: "pi",
  theirs: { path: "questionnaire.ts" },
  question: { path: "question.ts" },
});
const main = host("Pi 1.6.0");
const second = host("Pi 0.73.1");

/** A request: Pi's one built-in tool of 100 characters and a system prompt of 1,000, plus `tools` and `system` added. */
const seen = (tools: Array<[string, number]>, system = 0): Seen => ({
  tools: [{ name: "read", chars: 100 }, ...tools.map(([name, chars]) => ({ name, chars }))],
  system: 1000 + system,
});

function rows(sizes: Record<string, number>): FootprintRow[] {
  const both = (s: Seen) =>
    new Map([
      [main.name, s],
      [second.name, s],
    ]);
  return [
    { label: "bare", baseline: true, seen: both(seen([])) },
    { label: "example", reference: true, seen: both(seen([["questionnaire", 1000]])) },
    ...Object.entries(sizes).map(([toolSet, chars]) => ({
      label: `set ${toolSet}`,
      toolSet,
      fallback: toolSet === "compact",
      // The declarations and the prompt lines both count.
      seen: both(seen([["question", chars - 100]], 100)),
    })),
  ];
}

/** The table as cells: one array per row, the header first. */
function cells(out: string[]): string[][] {
  return out
    .filter((line) => line.startsWith("|") && !line.startsWith("| --"))
    .map((line) =>
      line
        .slice(1, -1)
        .split("|")
        .map((cell) => cell.trim()),
    );
}

const table = (head: string[], body: string[][]) =>
  [head, head.map(() => "--"), ...body].map((r) => `| ${r.join(" | ")} |`);

describe("what the model sees, in the benchmark's table", () => {
  it("gives each named set its ratio to the example and its target, kept or missed", () => {
    const sizes = {
      compact: FOOTPRINT_TARGETS.compact,
      qwizard: FOOTPRINT_TARGETS.qwizard + 1,
      all: FOOTPRINT_TARGETS.all - 500,
      none: 0,
    };
    const [head, ...body] = cells(printFootprint(rows(sizes), main, second, table));
    const column = (name: string) => head.indexOf(name);
    const row = (set: string) => body.find((r) => r[0] === `set ${set}`)!;
    expect(row("compact")[column("total")]).toBe("2,000");
    expect(row("compact")[column("to questionnaire.ts")]).toBe("2.00");
    expect(row("compact")[column("target")]).toBe("✓ ≤ 2,000 (2.00×), the default");
    expect(row("qwizard")[column("target")]).toBe("✗ ≤ 4,700 (4.70×)");
    expect(row("all")[column("target")]).toBe("✓ ≤ 7,000 (7.00×)");
    expect(row("none")[column("target")]).toBe("");
  });
});
