/**
 * The engine behind its one door (tools/on-demand.ts): what a call, a form
 * or the warm-up needs, loaded once on first use. Everything that answers a
 * request goes through `run` (tools/engine/run.ts).
 */
import type { ExtensionContext } from "@earendil-works/pi-coding-agent";
import { precompiledValidator } from "../../schemas/precompiled.js";
import { usePrecompiled } from "../../schemas/validate.js";
import { takeWait } from "../manifest.js";
import type { FormchartState } from "../state.js";
import { askLater, canAskLater, WAITED_NOTE } from "./ask-later.js";
import { formTool, readFormCall } from "./catalog.js";
import { type Content, content, failureText, NO_UI } from "./form-tool.js";
import { answeredBy } from "./offers.js";
import { type RunRequest, run } from "./run.js";

export { checkExtractedArgs } from "../../schemas/rich-check.js";
export { openWaiting, resumeWaiting, waitingCommand, withdrawWaiting } from "./ask-later.js";
export { elicitWith } from "./elicit.js";
export { warmUp } from "./warm-up.js";

// Every check runs in the engine: from here on, with the validators the build compiled ahead of time.
usePrecompiled(precompiledValidator);

export { precompiledValidator };

function toolNamed(name: string) {
  const tool = formTool(name);
  if (!tool) throw new Error(`pi-formchart has no tool ${name}`);
  return tool;
}

export async function runTool(name: string, request: Omit<RunRequest, "defaultTimeout">): Promise<Content> {
  const tool = toolNamed(name);
  const { raw, wait } = takeWait(request.raw);
  if (wait === false && canAskLater(request.ctx))
    return askLater(tool, request.state, request.ctx, raw, request.folded, request.toolCallId);
  const outcome = await run(tool, { ...request, raw, defaultTimeout: true });
  if (outcome.kind === "refused") return content(failureText(outcome.error), tool.failure(outcome.error, raw));
  if (outcome.kind === "no-ui") return content(failureText(NO_UI), tool.failure(NO_UI, raw, outcome.spec));
  // Asked not to wait where no form can show beside the agent's work (RPC): it waited, and says so.
  const note = wait === false && request.ctx.hasUI ? WAITED_NOTE : "";
  const answer = answeredBy(outcome.answer, outcome.answeredIn);
  return content(answer.text + note, answer.details);
}

/** A form the person asked for themselves (`/rich-questions`): the settings' timeout does not apply. */
export async function runForPerson(
  name: string,
  state: FormchartState,
  ctx: ExtensionContext,
  raw: unknown,
): Promise<{ kind: "refused" | "no-ui"; reason: string } | { kind: "closed"; text: string; details: unknown }> {
  const tool = toolNamed(name);
  const outcome = await run(tool, { state, ctx, raw });
  if (outcome.kind === "refused") return { kind: "refused", reason: outcome.error.message };
  if (outcome.kind === "no-ui") return { kind: "no-ui", reason: failureText(NO_UI) };
  return { kind: "closed", ...outcome.answer };
}

export type Tried = { ok: false; message: string } | { ok: true; tool: string; text: string; details: unknown };

/**
 * `/formchart try`: the call in a form file, run as the model's call is run,
 * its result handed back to the person alone. A `wait` in the file is left
 * out: a question that waits would send its answer to the model.
 */
export async function tryCall(file: string, state: FormchartState, ctx: ExtensionContext): Promise<Tried> {
  const call = readFormCall(file);
  if (!call.ok) return call;
  const { raw } = takeWait(call.raw);
  const { content: blocks, details } = await runTool(call.tool.name, { state, ctx, raw, folded: false });
  return { ok: true, tool: call.tool.name, text: blocks.map((b) => b.text).join("\n"), details };
}
