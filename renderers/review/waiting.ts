/**
 * The review page's section on asking without waiting: the chart a question
 * called with `wait: false` goes through around its form (machines/waiting.ts),
 * each edge named by what sends it (a key, the model, the clock, the session).
 */
import { TIMED_OUT, waitingMachine } from "../../machines/waiting.js";
import { partsToSvg } from "../graph.js";
import { escapeHtml } from "../text.js";

/** Who or what sends each event of the waiting chart. */
export const WAITING_SENDERS: Readonly<Record<string, string>> = {
  OPEN: "the open key (Alt+A), or a click on the line",
  PUT_BACK: "Esc, the fold key, or the open key to the next",
  ANSWER: "submit, decline or the form's timeout",
  CLOSE_BY: "the refuse key (Alt+X), or the open key to the next: noted",
  REFUSE: "the form closed by the refuse key",
  WITHDRAW: "the model: withdraw_question",
  [TIMED_OUT]: "timeout, unopened",
  SESSION_END: "the session ends",
};

function waitingDot(): string {
  // The font of the page's other charts, a key noted drawn as a loop, and the states in words (`putBack` → "put back").
  const lines = [
    "digraph waiting {",
    '  rankdir=LR; fontname="Helvetica";',
    '  node [shape=box, style=rounded, fontname="Helvetica", fontsize=12];',
    '  edge [fontname="Helvetica", fontsize=10];',
  ];
  for (const [name, node] of Object.entries(waitingMachine.root.states)) {
    const words = name.replace(/([a-z])([A-Z])/g, "$1 $2").toLowerCase();
    lines.push(`  "${name}" [label="${words}"${node.type === "final" ? ", peripheries=2" : ""}];`);
    for (const [event, transitions] of node.transitions)
      for (const t of transitions)
        for (const target of t.target ?? [node])
          lines.push(`  "${name}" -> "${target.key}" [label="${WAITING_SENDERS[event] ?? event}"];`);
  }
  lines.push("}");
  return lines.join("\n");
}

export async function waitingSection(): Promise<string> {
  return `<section id="waiting">
<h2>Asked with wait: false</h2>
<p>${escapeHtml("The call returns at once; the form waits beside the editor in this chart until it is answered, refused, withdrawn or timed out. The answer reaches the model as a message with the same text and details.")}</p>
${await partsToSvg([waitingDot()], "waiting")}
</section>`;
}
