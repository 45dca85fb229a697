/**
 * A scripted OpenAI-compatible model on 127.0.0.1 for driving the real `pi`:
 * the end-to-end tests script it, the benchmark (bench-footprint.ts) reads
 * what Pi sends it.
 *
 * Each request to `/v1/chat/completions` is recorded and answered with the
 * next scripted turn, streamed as `chat.completion.chunk` server-sent events:
 * text, then one or several tool calls. When the script runs out the model
 * answers "Done." so the agent loop ends.
 */
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";

export interface ScriptedToolCall {
  name: string;
  arguments: unknown;
}

export interface ScriptedTurn {
  text?: string;
  toolCalls?: ScriptedToolCall[];
}

export interface ChatMessage {
  role: string;
  content?: unknown;
  tool_call_id?: string;
  tool_calls?: unknown[];
}

export interface RecordedRequest {
  messages: ChatMessage[];
  tools?: Array<{ function: { name: string; parameters: unknown } }>;
}

export interface FakeModel {
  port: number;
  baseUrl: string;
  requests: RecordedRequest[];
  /** Resolves when at least `count` requests have arrived. */
  waitForRequests(count: number, timeoutMs?: number): Promise<void>;
  close(): Promise<void>;
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    req.on("error", reject);
  });
}

function chunk(id: string, delta: object, finish: string | null = null): string {
  const body = {
    id,
    object: "chat.completion.chunk",
    created: 0,
    model: "fake-model",
    choices: [{ index: 0, delta, finish_reason: finish }],
  };
  return `data: ${JSON.stringify(body)}\n\n`;
}

export async function startFakeModel(script: ScriptedTurn[]): Promise<FakeModel> {
  const requests: RecordedRequest[] = [];
  const waiters: Array<() => void> = [];
  let turn = 0;
  const server: Server = createServer(async (req, res) => {
    if (req.method !== "POST" || !req.url?.endsWith("/chat/completions")) {
      res.writeHead(404).end();
      return;
    }
    const body = JSON.parse(await readBody(req)) as RecordedRequest;
    requests.push(body);
    for (const w of waiters.splice(0)) w();
    const next = script[turn++] ?? { text: "Done." };
    const id = `chatcmpl-${turn}`;
    res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache", connection: "keep-alive" });
    res.write(chunk(id, { role: "assistant", content: next.text ?? "" }));
    (next.toolCalls ?? []).forEach((call, index) => {
      const toolCall = {
        index,
        id: `call_${turn}_${index}`,
        type: "function",
        function: { name: call.name, arguments: JSON.stringify(call.arguments) },
      };
      res.write(chunk(id, { tool_calls: [toolCall] }));
    });
    res.write(chunk(id, {}, next.toolCalls?.length ? "tool_calls" : "stop"));
    res.write("data: [DONE]\n\n");
    res.end();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    port,
    baseUrl: `http://127.0.0.1:${port}/v1`,
    requests,
    async waitForRequests(count, timeoutMs = 20000) {
      const deadline = Date.now() + timeoutMs;
      while (requests.length < count) {
        const left = deadline - Date.now();
        if (left <= 0) throw new Error(`expected ${count} model requests, got ${requests.length}`);
        await new Promise<void>((resolve) => {
          const t = setTimeout(resolve, Math.min(left, 200));
          waiters.push(() => {
            clearTimeout(t);
            resolve();
          });
        });
      }
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** The text of the `role: "tool"` messages in a request, in order. */
export function toolResults(request: RecordedRequest): string[] {
  return request.messages
    .filter((m) => m.role === "tool")
    .map((m) => (typeof m.content === "string" ? m.content : JSON.stringify(m.content)));
}
