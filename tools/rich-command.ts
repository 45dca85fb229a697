/**
 * `/rich-questions`: the open questions of the last assistant message as a
 * rich form, its answers sent back into the conversation.
 *
 * Contract: the model calls an internal `submit_questions` tool (forced where
 * the provider can be, else JSON text, as with `richExtraction: "text"`);
 * ajv checks it, with one repair attempt. An empty `questions` list means the
 * message asks nothing. Every failure ends in a notice; cancel sends nothing.
 */

import type {
  Api,
  AssistantMessage,
  Context,
  Message,
  Model,
  ProviderStreamOptions,
  Tool,
} from "@earendil-works/pi-ai";
import * as piAi from "@earendil-works/pi-ai";
import type { ExtensionAPI, ExtensionCommandContext } from "@earendil-works/pi-coding-agent";
import { sanitize } from "../renderers/text.js";
import { type RichArgs, RichParameters } from "../schemas/rich.js";
import { loadEngine } from "./on-demand.js";
import { askRichQuestions, type RichFormResult } from "./rich.js";
import type { FormchartState } from "./state.js";

export type CompleteFn = (
  model: Model<Api>,
  context: Context,
  options?: ProviderStreamOptions,
) => Promise<AssistantMessage>;

export const SUBMIT_TOOL = "submit_questions";

const submitTool: Tool = {
  name: SUBMIT_TOOL,
  description: "Submit the open questions found in the message as a form.",
  parameters: RichParameters,
};

const BASE_PROMPT = [
  "You read a message an assistant wrote to a user and find the questions in it that the user still has to answer.",
  "Turn each into a form question: radio when one option must be chosen, checkbox when several may apply, text when the answer is free text.",
  "Keep the assistant's options, give each a short label and a stable value, mark the option the assistant recommends with recommended: true",
  "and put its reasoning in recommendation; put trade-offs in caveats. Use the message's own words. If there are no open questions, submit an empty questions list.",
].join(" ");

const TOOL_PROMPT = `${BASE_PROMPT}\nCall the ${SUBMIT_TOOL} tool exactly once.`;

export const TEXT_PROMPT = `${BASE_PROMPT}
Reply with one JSON object and nothing else, matching this JSON Schema:
${JSON.stringify(RichParameters)}`;

export function forcedToolChoice(api: string): unknown {
  switch (api) {
    case "openai-completions":
    case "mistral-conversations":
      return { type: "function", function: { name: SUBMIT_TOOL } };
    case "anthropic-messages":
    case "bedrock-converse-stream":
      return { type: "tool", name: SUBMIT_TOOL };
    case "google-generative-ai":
    case "google-vertex":
      return "any";
    default:
      return undefined;
  }
}

export type Extraction =
  | { ok: true; args: RichArgs; via: "tool" | "text"; attempts: number }
  | { ok: false; reason: string };

function textOf(message: AssistantMessage): string {
  return message.content
    .filter((c): c is { type: "text"; text: string } => c.type === "text")
    .map((c) => c.text)
    .join("\n");
}

/** The JSON object in a reply: the whole reply, a fenced block, or the outermost braces. */
export function parseJsonReply(reply: string): { ok: true; value: unknown } | { ok: false; reason: string } {
  const fenced = /```(?:json)?\s*([\s\S]*?)```/i.exec(reply)?.[1];
  const start = reply.indexOf("{");
  const end = reply.lastIndexOf("}");
  const candidates = [
    reply.trim(),
    fenced?.trim(),
    start >= 0 && end > start ? reply.slice(start, end + 1) : undefined,
  ];
  for (const candidate of candidates) {
    if (!candidate) continue;
    try {
      return { ok: true, value: JSON.parse(candidate) };
    } catch {
      // try the next reading
    }
  }
  return { ok: false, reason: "the reply is not a JSON object" };
}

function user(text: string): Message {
  return { role: "user", content: [{ type: "text", text }], timestamp: Date.now() };
}

export interface ExtractOptions {
  apiKey?: string;
  headers?: Record<string, string>;
  signal?: AbortSignal;
  /** `text` skips the forced tool call even where the provider has one. */
  mode?: "auto" | "text";
}

async function ask(
  complete: CompleteFn,
  model: Model<Api>,
  context: Context,
  options: ProviderStreamOptions,
): Promise<AssistantMessage | { failed: string }> {
  try {
    return await complete(model, context, options);
  } catch (error) {
    if (options.signal?.aborted) return { failed: "cancelled" };
    return { failed: `the model request failed (${error instanceof Error ? error.message : String(error)})` };
  }
}

export async function extractQuestions(
  message: string,
  model: Model<Api>,
  complete: CompleteFn,
  options: ExtractOptions = {},
): Promise<Extraction> {
  const toolChoice = options.mode === "text" ? undefined : forcedToolChoice(model.api);
  const { checkExtractedArgs } = await loadEngine();
  const base: ProviderStreamOptions = { apiKey: options.apiKey, headers: options.headers, signal: options.signal };
  const messages: Message[] = [user(`The assistant's message:\n\n${message}`)];
  let problem = "";
  for (let attempt = 1; attempt <= 2; attempt++) {
    if (toolChoice !== undefined) {
      const reply = await ask(
        complete,
        model,
        { systemPrompt: TOOL_PROMPT, messages, tools: [submitTool] },
        { ...base, toolChoice },
      );
      if ("failed" in reply) return { ok: false, reason: reply.failed };
      if (reply.stopReason === "aborted") return { ok: false, reason: "cancelled" };
      if (reply.stopReason === "error") return { ok: false, reason: reply.errorMessage ?? "the model request failed" };
      const call = reply.content.find((c) => c.type === "toolCall" && c.name === SUBMIT_TOOL);
      const checked = call && call.type === "toolCall" ? checkExtractedArgs(call.arguments) : undefined;
      if (checked?.ok) return { ok: true, args: checked.value, via: "tool", attempts: attempt };
      problem = checked ? checked.error.message : `the model did not call ${SUBMIT_TOOL}`;
      messages.push(reply);
      if (call && call.type === "toolCall") {
        messages.push({
          role: "toolResult",
          toolCallId: call.id,
          toolName: SUBMIT_TOOL,
          content: [
            { type: "text", text: `Rejected: ${problem}. Call ${SUBMIT_TOOL} again with corrected arguments.` },
          ],
          isError: true,
          timestamp: Date.now(),
        });
      } else {
        messages.push(user(`You must call ${SUBMIT_TOOL}. ${problem}.`));
      }
    } else {
      const reply = await ask(complete, model, { systemPrompt: TEXT_PROMPT, messages }, base);
      if ("failed" in reply) return { ok: false, reason: reply.failed };
      if (reply.stopReason === "aborted") return { ok: false, reason: "cancelled" };
      if (reply.stopReason === "error") return { ok: false, reason: reply.errorMessage ?? "the model request failed" };
      const parsed = parseJsonReply(textOf(reply));
      const checked = parsed.ok ? checkExtractedArgs(parsed.value) : undefined;
      if (checked?.ok) return { ok: true, args: checked.value, via: "text", attempts: attempt };
      problem = checked ? checked.error.message : parsed.ok ? "" : parsed.reason;
      messages.push(
        reply,
        user(`That reply cannot be used: ${problem}. Reply again with the corrected JSON object only.`),
      );
    }
  }
  return { ok: false, reason: `the model's answer was malformed twice (${problem})` };
}

export function lastAssistantText(ctx: Pick<ExtensionCommandContext, "sessionManager">): string | undefined {
  const branch = ctx.sessionManager.getBranch();
  for (let i = branch.length - 1; i >= 0; i--) {
    const entry = branch[i];
    if (entry.type !== "message") continue;
    const msg = entry.message;
    if (!("role" in msg) || msg.role !== "assistant") continue;
    const text = msg.content
      .filter((c): c is { type: "text"; text: string } => c.type === "text")
      .map((c) => c.text)
      .join("\n")
      .trim();
    if (text) return text;
  }
  return undefined;
}

export const RICH_MESSAGE_TYPE = "rich-questions";

/** Pi 1.x's registry resolves the provider and its authentication itself; older hosts hand over pi-ai's `complete`. */
function hostComplete(ctx: ExtensionCommandContext): CompleteFn | undefined {
  const registry = ctx.modelRegistry as { complete?: CompleteFn };
  if (typeof registry.complete === "function") return registry.complete.bind(registry);
  return (piAi as { complete?: CompleteFn }).complete;
}

/** Header values a provider leaves unset (null) are not sent. */
function definedHeaders(headers: Record<string, string | null> | undefined): Record<string, string> | undefined {
  if (!headers) return undefined;
  return Object.fromEntries(Object.entries(headers).filter((e): e is [string, string] => e[1] !== null));
}

export function registerRichCommand(pi: ExtensionAPI, state: FormchartState, override?: CompleteFn): void {
  pi.registerCommand("rich-questions", {
    description: "Answer the open questions of the last assistant message in a rich form",
    handler: async (_args, ctx) => {
      const say = (text: string, level: "info" | "warning" | "error" = "info"): void => {
        // Reasons can carry the model's or a provider's words: no escape sequence reaches the terminal.
        if (ctx.hasUI) ctx.ui.notify(sanitize(text), level);
        else process.stdout.write(`${text}\n`);
      };
      if (!ctx.hasUI) return say("/rich-questions needs Pi's interactive terminal.", "error");
      if (!ctx.model) return say("/rich-questions: no model is selected.", "error");
      const message = lastAssistantText(ctx);
      if (!message) return say("/rich-questions: there is no assistant message to take questions from.", "warning");
      const model = ctx.model;
      let auth: Awaited<ReturnType<typeof ctx.modelRegistry.getApiKeyAndHeaders>>;
      try {
        auth = await ctx.modelRegistry.getApiKeyAndHeaders(model);
      } catch (error) {
        return say(
          `/rich-questions: no API key for ${model.id} (${error instanceof Error ? error.message : String(error)}).`,
          "error",
        );
      }
      if (!auth.ok) return say(`/rich-questions: ${auth.error}`, "error");
      const complete = override ?? hostComplete(ctx);
      if (!complete)
        return say("/rich-questions: this version of Pi offers extensions no way to call the model.", "error");
      say(`Finding the open questions with ${model.id}…`);
      const extraction = await extractQuestions(message, model, complete, {
        apiKey: auth.apiKey,
        headers: definedHeaders(auth.headers),
        signal: state.closed,
        mode: state.settings.richExtraction,
      });
      if (!extraction.ok) return say(`/rich-questions could not build a form: ${extraction.reason}.`, "error");
      if (extraction.args.questions.length === 0)
        return say("/rich-questions: no open questions found in the last assistant message.");
      const outcome = await (await loadEngine()).runForPerson(askRichQuestions.name, state, ctx, extraction.args);
      if (outcome.kind === "refused") return say(`/rich-questions could not build a form: ${outcome.reason}.`, "error");
      if (outcome.kind !== "closed") return say(`/rich-questions: ${outcome.reason}`, "error");
      const details = outcome.details as RichFormResult;
      if (details.cancelled) return say("Form cancelled; nothing was sent.");
      pi.sendMessage(
        { customType: RICH_MESSAGE_TYPE, content: outcome.text, display: true, details },
        { triggerTurn: true },
      );
    },
  });
}
