/**
 * The real `pi --mode rpc` as a child process: JSON lines in and out, with a
 * client that answers `extension_ui_request` dialogs.
 */
import { type ChildProcessWithoutNullStreams, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { OFFER_TITLE } from "../../renderers/web/offer.js";
import { type FakeModel, type ScriptedTurn, startFakeModel } from "../../scripts/fake-model.js";
import { makePiHome, piCommand } from "./pi-home.js";
import "./timeouts.js";

export interface UiRequest {
  type: "extension_ui_request";
  id: string;
  method: string;
  title?: string;
  message?: string;
  options?: string[];
  placeholder?: string;
}

/** How the client answers a dialog: a value, `{confirmed}`, or `{cancelled: true}`; undefined leaves it pending. */
export type DialogReply = { value: string } | { confirmed: boolean } | { cancelled: true } | undefined;

export interface RpcPi {
  model: FakeModel;
  requests: UiRequest[];
  send(command: object): void;
  prompt(message: string): void;
  close(): Promise<void>;
}

export async function startRpcPi(
  script: ScriptedTurn[],
  answer: (request: UiRequest) => DialogReply,
  extra: string[] = ["--mode", "rpc"],
  /** The files the agent directory starts with (every tool declared by default). */
  files?: Record<string, string>,
  /** How the client answers the offer of the browser tab; without it, with the dialogs. */
  offer?: (request: UiRequest) => DialogReply,
): Promise<RpcPi> {
  const model = await startFakeModel(script);
  const home = makePiHome(model.baseUrl, files);
  const cwd = mkdtempSync(join(tmpdir(), "formchart-cwd-"));
  const [bin, ...args] = piCommand(extra);
  const child: ChildProcessWithoutNullStreams = spawn(bin, args, {
    cwd,
    env: { ...process.env, ...home.env },
    stdio: ["pipe", "pipe", "pipe"],
  });
  const requests: UiRequest[] = [];
  const send = (command: object) => child.stdin.write(`${JSON.stringify(command)}\n`);
  createInterface({ input: child.stdout }).on("line", (line) => {
    let msg: { type?: string };
    try {
      msg = JSON.parse(line);
    } catch {
      return;
    }
    if (msg.type !== "extension_ui_request") return;
    const request = msg as UiRequest;
    if (!["select", "input", "confirm", "editor"].includes(request.method)) return;
    if (request.method === "select" && request.title === OFFER_TITLE) {
      const reply = offer ? offer(request) : { value: request.options?.[1] ?? "" };
      if (reply) send({ type: "extension_ui_response", id: request.id, ...reply });
      return;
    }
    requests.push(request);
    const reply = answer(request);
    if (reply) send({ type: "extension_ui_response", id: request.id, ...reply });
  });
  child.stderr.resume();
  return {
    model,
    requests,
    send,
    prompt: (message) => send({ type: "prompt", message }),
    close: async () => {
      child.kill("SIGTERM");
      await new Promise((r) => (child.exitCode !== null ? r(null) : child.once("exit", r)));
      await model.close();
      home.cleanup();
      rmSync(cwd, { recursive: true, force: true });
    },
  };
}

/** Run `pi -p` once (print mode; `extra` e.g. `--mode json`) and wait for it to exit. */
export async function runPrintPi(
  script: ScriptedTurn[],
  prompt: string,
  extra: string[] = [],
  /** What to load instead of this package, and the files the agent directory starts with (every tool declared by default). */
  options: { extensions?: string[]; files?: Record<string, string> } = {},
): Promise<{ model: FakeModel; output: string; code: number | null }> {
  const model = await startFakeModel(script);
  const home = makePiHome(model.baseUrl, options.files);
  const cwd = mkdtempSync(join(tmpdir(), "formchart-cwd-"));
  const [bin, ...args] = piCommand([...extra, "-p", prompt], options.extensions);
  const child = spawn(bin, args, { cwd, env: { ...process.env, ...home.env }, stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  child.stdout.on("data", (d) => (output += d));
  child.stderr.on("data", (d) => (output += d));
  const code = await new Promise<number | null>((resolve) => child.once("exit", resolve));
  await model.close();
  home.cleanup();
  rmSync(cwd, { recursive: true, force: true });
  return { model, output, code };
}
