/**
 * The benchmark's browser-tab rows (`npm run bench -- --web` prints only
 * them), at the 50-question limit on loopback: a control's events posted as
 * the page posts them to the new view arriving on the page's event stream
 * (Node's own `http` as the client: the server's and loopback's share); the
 * same in Chromium, from the key pressed in the page to the page showing the
 * new view (where Debian's chromium is installed); and the server's start
 * (listening, the form made) to the first view on a new event stream.
 * The first controls and keys warm the code up and are not counted.
 */
import { existsSync } from "node:fs";
import { type IncomingMessage, request } from "node:http";
import { loadavg } from "node:os";
import { FormSession } from "../machines/session.js";
import { PageScreen } from "../renderers/web/page-screen.js";
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
    request(`${url}events`, (res) => {
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
    const req = request(`${url}act`, { method: "POST", headers: { origin: `http://${host}` } }, (res) => {
      res.resume();
      res.on("end", resolve);
    });
    req.on("error", reject).end(body);
  });
}

/** Controls or keys done before the timed ones. */
const WARMUP = 30;

const percentile = (xs: number[], p: number) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * p))];

export async function webFigures(keys = 300, starts = 30) {
  const spec = fiftyQuestions();
  const startMs: number[] = [];
  for (let i = 0; i < starts; i++) {
    const t0 = performance.now();
    const server = await openWebServer({ title: "bench" });
    const form = new FormSession({ spec });
    server.serve(new PageScreen(form));
    let first = 0;
    const res = await stream(server.url, (name) => {
      if (name === "view" && !first) first = performance.now();
    });
    while (!first) await new Promise((r) => setImmediate(r));
    startMs.push(first - t0);
    res.destroy();
    form.abort();
    await server.close("done");
  }

  const server = await openWebServer({ title: "bench" });
  const form = new FormSession({ spec });
  server.serve(new PageScreen(form));
  let tab = "";
  let frames = 0;
  const res = await stream(server.url, (name, data) => {
    if (name === "tab") tab = data;
    if (name === "view") frames++;
  });
  while (!tab || frames === 0) await new Promise((r) => setImmediate(r));
  // ↓ ↑ within a question, then a tab move: 40 questions forward, 40 back (never the review), so every control
  // changes the view.
  const script = (i: number) =>
    i % 3 === 0
      ? { type: "MOVE", delta: 1 }
      : i % 3 === 1
        ? { type: "MOVE", delta: -1 }
        : { type: Math.floor(i / 120) % 2 ? "PREV_TAB" : "NEXT_TAB" };
  const keyMs: number[] = [];
  // The first controls are not counted: they compile the code the rest run, as in the terminal's benchmarks.
  for (let i = 0; i < WARMUP + keys; i++) {
    const before = frames;
    const t0 = performance.now();
    await post(server.url, JSON.stringify({ tab, events: [script(i)] }));
    while (frames === before) await new Promise((r) => setImmediate(r));
    if (i >= WARMUP) keyMs.push(performance.now() - t0);
  }
  res.destroy();
  form.abort();
  await server.close("done");
  return { keyMs, startMs };
}

const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

/** ↓ and ↑ pressed in the page on the highlighted option, each timed until the page shows the new view. */
async function pageFigures(keys: number): Promise<number[] | undefined> {
  if (!existsSync(CHROMIUM)) return undefined;
  const { chromium } = await import("playwright-core");
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ["--headless", "--no-sandbox", "--disable-gpu"],
  });
  const server = await openWebServer({ title: "bench" });
  const form = new FormSession({ spec: fiftyQuestions() });
  server.serve(new PageScreen(form));
  try {
    const page = await browser.newPage();
    await page.goto(server.url);
    await page.locator(".row.highlighted input").focus();
    return await page.evaluate(
      async ({ count, warmup }) => {
        const times: number[] = [];
        for (let i = 0; i < warmup + count; i++) {
          const before = document.body.dataset.version;
          const shown = new Promise<void>((resolve) => {
            const watch = new MutationObserver(() => {
              if (document.body.dataset.version !== before) {
                watch.disconnect();
                resolve();
              }
            });
            watch.observe(document.body, { attributes: true });
          });
          const t0 = performance.now();
          const key = i % 2 ? "ArrowUp" : "ArrowDown";
          document.activeElement?.dispatchEvent(new KeyboardEvent("keydown", { key, bubbles: true }));
          await shown;
          if (i >= warmup) times.push(performance.now() - t0);
        }
        return times;
      },
      { count: keys, warmup: WARMUP },
    );
  } finally {
    form.abort();
    await server.close("done");
    await browser.close();
  }
}

export async function printWebFigures(quick: boolean): Promise<void> {
  const load = loadavg()[0];
  const { keyMs, startMs } = await webFigures(quick ? 60 : 300, quick ? 8 : 30);
  const inPage = await pageFigures(quick ? 60 : 300);
  const ms = (x: number) => `${x.toFixed(1)} ms`;
  console.log(`Load average (1 min) at start ${load.toFixed(2)}, at end ${loadavg()[0].toFixed(2)}`);
  console.log("| browser tab, 50 questions, loopback | median | p99 | target |");
  console.log("| --- | --- | --- | --- |");
  const row = (what: string, xs: number[]) => {
    const p99 = percentile(xs, 0.99);
    const target = `≤ ${FRAME_MS} ms p99 ${p99 <= FRAME_MS ? "✓" : "✗"}`;
    console.log(`| ${what}, ${xs.length} times | ${ms(percentile(xs, 0.5))} | ${ms(p99)} | ${target} |`);
  };
  row("control (POST of its events) → new view on the event stream", keyMs);
  if (inPage) row("↓/↑ pressed in Chromium → the page shows the new view", inPage);
  else console.log(`| ↓/↑ in Chromium | — | — | no Chromium at ${CHROMIUM} |`);
  console.log(
    `| server start → first view, ${startMs.length} starts | ${ms(percentile(startMs, 0.5))} | ${ms(percentile(startMs, 0.99))} | |`,
  );
}
