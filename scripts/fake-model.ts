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
import { mkdirSync, writeFileSync } from "node:fs";
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { dirname, join } from "node:path";

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

/**
 * Make `dir` an agent directory in which the real `pi` talks to the model at
 * `baseUrl` (its only provider and model, offline, no telemetry, no retries),
 * with `files` (paths relative to `dir`) beside Pi's own; the environment
 * that points Pi at it.
 */
export function writePiHome(dir: string, baseUrl: string, files: Record<string, string> = {}): Record<string, string> {
  const models = {
    providers: {
      fake: {
        baseUrl,
        api: "openai-completions",
        apiKey: "x",
        compat: { supportsDeveloperRole: false, supportsReasoningEffort: false },
        models: [
          {
            id: "fake-model",
            name: "Fake",
            reasoning: false,
            input: ["text"],
            contextWindow: 128000,
            maxTokens: 4096,
            cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
          },
        ],
      },
    },
  };
  const settings = {
    defaultProvider: "fake",
    defaultModel: "fake-model",
    quietStartup: true,
    enableInstallTelemetry: false,
    retry: { enabled: false },
  };
  writeFileSync(join(dir, "models.json"), JSON.stringify(models));
  // A settings.json among the files adds to these settings.
  const more = files["settings.json"] === undefined ? {} : JSON.parse(files["settings.json"]);
  writeFileSync(join(dir, "settings.json"), JSON.stringify({ ...settings, ...more }));
  for (const [name, content] of Object.entries(files)) {
    if (name === "settings.json") continue;
    mkdirSync(dirname(join(dir, name)), { recursive: true });
    writeFileSync(join(dir, name), content);
  }
  return { PI_CODING_AGENT_DIR: dir, PI_OFFLINE: "1", NO_PROXY: "127.0.0.1", no_proxy: "127.0.0.1" };
}
