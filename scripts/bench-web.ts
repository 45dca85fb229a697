/**
 * The benchmark's browser-tab row (`npm run bench -- --web` prints only it):
 * on loopback, a key sent as the page sends it (POST of the key's bytes) to
 * the new frame arriving on the page's event stream, at the 50-question
 * limit; and the server's start (listening, the form made) to the first
 * frame on a new event stream. The client is Node's own `http`, so the
 * figures are the server's and loopback's, without xterm.js drawing the frame.
 */
import { type IncomingMessage, request } from "node:http";
import { loadavg } from "node:os";
import { FormSession } from "../machines/session.js";
import { pageScreen } from "../renderers/web/page-screen.js";
import { openWebServer } from "../renderers/web/server.js";
import { prepareFormFile } from "../tools/engine/catalog.js";
import { questionArguments } from "./limit-forms.js";

const FRAME_MS = 16;

function fiftyQuestions() {
  const prepared = prepareFormFile({ tool: "question", arguments: questionArguments(50) });
  if (!prepared.ok) throw new Error(prepared.message);
  return prepared.form.spec;
}

/** An event stream read as the page reads it: each event's name and data, as they arrive. */
function stream(url: string, onEvent: (name: string, data: string) => void): Promise<IncomingMessage> {
  return new Promise((resolve, reject) => {
    request(`${url}events?cols=100&rows=40`, (res) => {
      let buffer = "";
      res.setEncoding("utf8");
      res.on("data", (chunk: string) => {
        buffer += chunk;
        for (let end = buffer.indexOf("\n\n"); end >= 0; end = buffer.indexOf("\n\n")) {
          const [name, data] = buffer
            .slice(0, end)
            .split("\n")
            .map((line) => line.slice(line.indexOf(":") + 2));
          buffer = buffer.slice(end + 2);
          onEvent(name, data);
        }
      });
      resolve(res);
    })
      .on("error", reject)
      .end();
  });
}

function post(url: string, body: string): Promise<void> {
  const { host } = new URL(url);
  return new Promise((resolve, reject) => {
    const req = request(`${url}input`, { method: "POST", headers: { origin: `http://${host}` } }, (res) => {
      res.resume();
      res.on("end", resolve);
    });
    req.on("error", reject).end(body);
  });
}

const percentile = (xs: number[], p: number) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * p))];

export async function webFigures(keys = 300, starts = 30) {
  const spec = fiftyQuestions();
  const startMs: number[] = [];
  for (let i = 0; i < starts; i++) {
    const t0 = performance.now();
    const server = await openWebServer({ title: "bench" });
    const form = new FormSession({ spec });
    server.serve(pageScreen(form));
    let first = 0;
    const res = await stream(server.url, (name) => {
      if (name === "frame" && !first) first = performance.now();
    });
    while (!first) await new Promise((r) => setImmediate(r));
    startMs.push(first - t0);
    res.destroy();
    form.abort();
    await server.close("done");
  }

  const server = await openWebServer({ title: "bench" });
  const form = new FormSession({ spec });
  server.serve(pageScreen(form));
  let tab = "";
  let frames = 0;
  const res = await stream(server.url, (name, data) => {
    if (name === "tab") tab = data;
    if (name === "frame") frames++;
  });
  while (!tab || frames === 0) await new Promise((r) => setImmediate(r));
  // ↓ ↑ within a question, then a tab move: 40 questions forward, 40 back (never the review), so every key
  // changes the frame.
  const script = (i: number) =>
    i % 3 === 0 ? "\x1b[B" : i % 3 === 1 ? "\x1b[A" : Math.floor(i / 120) % 2 ? "\x1b[Z" : "\t";
  const keyMs: number[] = [];
  for (let i = 0; i < keys; i++) {
    const before = frames;
    const t0 = performance.now();
    await post(server.url, JSON.stringify({ tab, keys: [script(i)] }));
    while (frames === before) await new Promise((r) => setImmediate(r));
    keyMs.push(performance.now() - t0);
  }
  res.destroy();
  form.abort();
  await server.close("done");
  return { keyMs, startMs };
}

export async function printWebFigures(quick: boolean): Promise<void> {
  const load = loadavg()[0];
  const { keyMs, startMs } = await webFigures(quick ? 60 : 300, quick ? 8 : 30);
  const ms = (x: number) => `${x.toFixed(1)} ms`;
  console.log(`Load average (1 min) at start ${load.toFixed(2)}, at end ${loadavg()[0].toFixed(2)}`);
  console.log("| browser tab, 50 questions, loopback | median | p99 | target |");
  console.log("| --- | --- | --- | --- |");
  const p50 = percentile(keyMs, 0.5);
  const p99 = percentile(keyMs, 0.99);
  console.log(
    `| key (POST) → new frame on the event stream, ${keyMs.length} keys | ${ms(p50)} | ${ms(p99)} | < ${FRAME_MS} ms ${p50 < FRAME_MS ? "✓" : "✗"} |`,
  );
  console.log(
    `| server start → first frame, ${startMs.length} starts | ${ms(percentile(startMs, 0.5))} | ${ms(percentile(startMs, 0.99))} | |`,
  );
}
