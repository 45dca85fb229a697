/** `elicit()` once called (its contract: tools/elicit.ts), through the one path every form takes. */
import type { ExtensionContext } from "@earendil-works/pi-coding-agent";
import { type CheckedElicitRequest, checkElicitRequest, type ElicitRequestInput } from "../../schemas/elicit.js";
import { ElicitError } from "../elicit-error.js";
import type { FormchartState } from "../state.js";
import type { FormJob } from "./form-tool.js";
import { run } from "./run.js";
import { type ElicitResult, elicitResult, schemaForm } from "./schema-form.js";

const ELICIT: FormJob<CheckedElicitRequest, ElicitResult> = {
  check: checkElicitRequest,
  form: (request) => schemaForm(request.form, request.message),
  answer: (request, _spec, result) => elicitResult(request.form, result),
};

export async function elicitWith(
  state: FormchartState,
  ctx: ExtensionContext,
  request: ElicitRequestInput,
  signal?: AbortSignal,
): Promise<ElicitResult> {
  const outcome = await run(ELICIT, { state, ctx, raw: request, signal });
  if (outcome.kind === "refused") throw new ElicitError(outcome.error.category, outcome.error.message);
  if (outcome.kind === "no-ui")
    throw new ElicitError("no_ui", "this Pi mode (print or JSON) has no interactive UI to show a form");
  return outcome.answer;
}
