/**
 * pi-formchart's extension entry: registers the question tools with Pi.
 */
import type { ExtensionAPI } from "@mariozechner/pi-coding-agent";
import { registerQuestion } from "./question.js";

export default function formchart(pi: ExtensionAPI): void {
  registerQuestion(pi);
}
