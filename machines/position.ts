/** Where a form stands, read from the state's tags (which question too), never from the shape of the state value. */
import type { SnapshotFrom } from "xstate";
import type { FormContext } from "./context.js";
import type { FormMachine } from "./form.js";
import { memoizeOne } from "./memo.js";

export type FormSnapshot = SnapshotFrom<FormMachine>;

export type FormPosition =
  | { kind: "waiting" }
  | { kind: "folded" }
  | { kind: "question"; q: number; mode: "choosing" | "typing" | "noting" | "discarding" }
  | { kind: "review"; mode: "reviewing" | "writing" | "discarding" }
  | { kind: "done"; outcome: "submitted" | "cancelled" | "declined" | "timed_out" };

/** Where the latest snapshot stands: a key reads it several times, and every step makes a new snapshot. */
export const formPosition = memoizeOne((snapshot: FormSnapshot): FormPosition => readPosition(snapshot));

function readPosition(snapshot: FormSnapshot): FormPosition {
  if (snapshot.status !== "active") {
    const outcome = snapshot.context.outcome;
    return {
      kind: "done",
      outcome: outcome === "submitted" || outcome === "declined" || outcome === "timed_out" ? outcome : "cancelled",
    };
  }
  if (snapshot.hasTag("waiting")) return { kind: "waiting" };
  if (snapshot.hasTag("folded")) return { kind: "folded" };
  const discarding = snapshot.hasTag("discarding");
  if (snapshot.hasTag("review")) {
    return { kind: "review", mode: discarding ? "discarding" : snapshot.hasTag("writing") ? "writing" : "reviewing" };
  }
  const q = questionOf(snapshot.tags);
  if (q === undefined) throw new Error(`Unknown form state: ${JSON.stringify(snapshot.value)}`);
  const mode = discarding
    ? "discarding"
    : snapshot.hasTag("typing")
      ? "typing"
      : snapshot.hasTag("noting")
        ? "noting"
        : "choosing";
  return { kind: "question", q, mode };
}

/** The question a state's tags name (`q3`: the third), if any. */
function questionOf(tags: ReadonlySet<string>): number | undefined {
  for (const tag of tags) {
    const key = /^q(\d+)$/.exec(tag);
    if (key) return Number(key[1]) - 1;
  }
  return undefined;
}

export function editing(position: FormPosition): boolean {
  if (position.kind === "question") return position.mode === "typing" || position.mode === "noting";
  return position.kind === "review" && position.mode === "writing";
}

export function discarding(position: FormPosition): boolean {
  return (position.kind === "question" || position.kind === "review") && position.mode === "discarding";
}

/** The text an editor position edits: a typed answer's draft, an option's note, or the additional notes. */
export function editorText(position: FormPosition, context: FormContext): string {
  if (position.kind === "review") return context.additionalText;
  if (position.kind !== "question") return "";
  if (position.mode === "noting") return context.notes[position.q][context.cursors[position.q]] ?? "";
  return context.drafts[position.q];
}
