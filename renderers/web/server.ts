/**
 * A form in a browser tab: one more screen of a session, through a terminal
 * screen of it (the terminal's own, or one of the page's). The page's key
 * bytes (xterm.js's `onData`, SGR mouse reports included) go to that screen
 * as a terminal's would, and its frames, drawn at the page's size, come back
 * as server-sent events: a key pressed in the page takes the same transition
 * as in the terminal, by construction.
 *
 * Contract: the server listens on 127.0.0.1 (or the address given) on a
 * port of its own, from `openWebServer` until `close`, which frees the port;
 * every request needs the form's token (256 random bits) in its path, a
 * Host that is an IP address, `localhost` or the address listened on (a
 * page of another name that resolves here is refused: DNS rebinding), and,
 * for a POST, the page's own Origin. Everything the page is given is text:
 * the frames as JSON strings written into xterm.js, the messages as
 * `textContent`.
 */
import { randomBytes, timingSafeEqual } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import { isIP } from "node:net";
import { CURSOR_MARKER } from "@earendil-works/pi-tui";
import { parseMouse } from "../terminal/mouse.js";
import type { SizedScreen, TerminalScreen } from "../terminal/screen.js";
import { type Keys, keysBody, MAX_BODY, type Size, sizeBody } from "./bodies.js";
import { asset, pageHtml } from "./page.js";

export interface WebServerOptions {
  /** The address to listen on; 127.0.0.1 unless the settings name another. */
  address?: string;
  /** The page's title (the form's). */
  title: string;
  /** What the page says once the form is in it: where else the form is, and what leaving does. */
  where?: string;
  /** A page came while no form is served: the form may be made now (a question that waits, opened from its link). */
  opened?: () => void;
}

export interface WebServer {
  /** The form's link, token included. */
  readonly url: string;
  /** The form the page shows, once it exists; until then the page waits. `left`: the last tab went while it was open. */
  serve(form: TerminalScreen, left?: () => void): void;
  /** Tells each page `text` and lets the form go; the link stays, and a page that comes next calls `opened`. */
  release(text: string): void;
  /** Tells each page how the form ended (`elsewhere` unless a page answered it), then stops listening. */
  close(elsewhere: string): Promise<void>;
}

interface Tab {
  id: string;
  res: ServerResponse;
  screen?: SizedScreen;
  cols: number;
  rows: number;
  sent?: string;
}

/** A page's columns and rows, kept drawable. */
const size = (value: unknown, fallback: number, max: number) =>
  Number.isInteger(value) && (value as number) > 0 ? Math.min(value as number, max) : fallback;

/** The answer to keys that closed the form. */
const CLOSED = { closed: true } as const;

export async function openWebServer(options: WebServerOptions): Promise<WebServer> {
  const address = options.address ?? "127.0.0.1";
  const token = randomBytes(32).toString("base64url");
  const tabs = new Map<string, Tab>();
  let form: TerminalScreen | undefined;
  let unwatch = () => {};
  let onLeft: (() => void) | undefined;
  /** The tab whose keys are being taken: the one that answered, when the form closes meanwhile. */
  let inputFrom: Tab | undefined;
  let answeredIn: Tab | undefined;
  let scheduled = false;
  /** The POSTs not yet answered. */
  const answering = new Set<ServerResponse>();

  const send = (tab: Tab, event: string, data: string) => tab.res.write(`event: ${event}\ndata: ${data}\n\n`);
  /** A form that cannot be drawn is closed with the error, wherever the drawing was asked: nothing is thrown. */
  const fail = (error: unknown) => form?.session.fail(error);
  const draw = guarded((tab: Tab) => {
    if (!form || form.session.closed) return;
    tab.screen ??= form.sized();
    const lines = tab.screen.render(tab.cols, tab.rows).map((line) => line.replaceAll(CURSOR_MARKER, ""));
    const frame = JSON.stringify(lines);
    if (frame !== tab.sent) send(tab, "frame", frame);
    tab.sent = frame;
  }, fail);
  const drawAll = () => {
    scheduled = false;
    for (const tab of tabs.values()) draw(tab);
  };
  const schedule = () => {
    if (scheduled) return;
    scheduled = true;
    setImmediate(drawAll);
  };

  // Loaded here, not with the module: a form without a page never loads Node's HTTP server.
  const { createServer } = await import("node:http");
  const server = createServer((req, res) => {
    // A connection lost midway is nobody's error: the page sends again or is gone.
    req.on("error", () => res.destroy());
    res.on("error", () => {});
    guarded(route, (error) => refuse(res, 500, error instanceof Error ? error.message : "The request failed."))(
      req,
      res,
    );
  });
  const route = (req: IncomingMessage, res: ServerResponse) => {
    if (!allowedHost(req.headers.host, address)) return refuse(res, 403, "This host name is not allowed.");
    const url = new URL(req.url ?? "/", "http://form");
    const [, given, name = ""] = url.pathname.split("/");
    if (!sameToken(given ?? "", token)) return refuse(res, 404, "No such form: the link is wrong or the form closed.");
    if (req.method === "GET" && name === "events") return events(res, url);
    if (req.method === "GET") {
      const file =
        name === ""
          ? {
              type: "text/html",
              body: pageHtml(options.title, options.where ?? "The same form is open where it was asked."),
            }
          : asset(name);
      if (!file) return refuse(res, 404, "No such file.");
      res.writeHead(200, { ...HEADERS, "content-type": `${file.type}; charset=utf-8` });
      return res.end(file.body);
    }
    if (req.method !== "POST" || (name !== "input" && name !== "size")) return refuse(res, 405, "Not allowed.");
    if (req.headers.origin !== `http://${req.headers.host}`) return refuse(res, 403, "Cross-origin request refused.");
    answering.add(res);
    res.once("close", () => answering.delete(res));
    if (name === "input") readBody(req, res, keysBody, input);
    else readBody(req, res, sizeBody, resize);
  };

  const events = (res: ServerResponse, url: URL) => {
    res.writeHead(200, { ...HEADERS, "content-type": "text/event-stream" });
    const tab: Tab = {
      id: randomBytes(9).toString("base64url"),
      res,
      cols: size(Number(url.searchParams.get("cols")), 80, 500),
      rows: size(Number(url.searchParams.get("rows")), 24, 200),
    };
    tabs.set(tab.id, tab);
    send(tab, "tab", tab.id);
    // A tab closed: the form stays open for the terminal and the other tabs.
    res.on(
      "close",
      guarded(() => {
        tab.screen?.close();
        if (tabs.delete(tab.id) && tabs.size === 0 && form && !form.session.closed) onLeft?.();
      }, fail),
    );
    if (!form) options.opened?.();
    draw(tab);
  };

  const input = (body: Keys) => {
    // A key sent as the form closed (a click's release after the press that submitted) has nothing left to do.
    const served = form;
    if (!served || served.session.closed) return undefined;
    const tab = tabs.get(body.tab);
    if (!tab) return "Unknown tab.";
    inputFrom = tab;
    try {
      for (const key of body.keys) {
        if (served.session.closed) break;
        const report = parseMouse(key);
        tab.screen ??= served.sized();
        if (report) tab.screen.pointer(report);
        else served.key(key);
        // Let go of meanwhile (closed from its own `done`), the tab was already told.
        if (served.session.closed && form === served) answeredIn = tab;
      }
    } catch (error) {
      served.session.fail(error);
    } finally {
      inputFrom = undefined;
    }
    // Closed by these keys: the page sends no more (how it ended comes on its event stream).
    if (served.session.closed) return CLOSED;
    // What the screen says of a key (why it did nothing) is drawn too.
    schedule();
    return undefined;
  };

  const resize = (body: Size) => {
    const tab = tabs.get(body.tab);
    if (!tab) return "Unknown tab.";
    tab.cols = size(body.cols, tab.cols, 500);
    tab.rows = size(body.rows, tab.rows, 200);
    draw(tab);
    return undefined;
  };

  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, address, () => resolve());
  });
  // Once listening, a failure of the server (a connection it could not accept) ends no process.
  server.on("error", () => {});
  const { port } = server.address() as { port: number };
  const host = isIP(address) === 6 ? `[${address}]` : address;

  /** Each page is told how the form ended, and the form is let go. */
  const letGo = (said: (tab: Tab) => string) => {
    unwatch();
    unwatch = () => {};
    for (const tab of [...tabs.values()]) {
      tabs.delete(tab.id);
      send(tab, "closed", JSON.stringify(said(tab)));
      tab.screen?.close();
      tab.res.end();
    }
    form = undefined;
    onLeft = undefined;
    answeredIn = undefined;
  };

  return {
    url: `http://${host}:${port}/${token}/`,
    serve(served, left) {
      form = served;
      onLeft = left;
      unwatch = served.session.watch(schedule);
      drawAll();
    },
    release: (text) => letGo(() => text),
    async close(elsewhere) {
      const answered = answeredIn ?? inputFrom;
      letGo((tab) => (tab === answered ? "Answered here." : answered ? "Answered in another tab." : elsewhere));
      // A request still being answered (the key that closed the form) gets its answer first; then the port is free.
      await Promise.all([...answering].map((res) => new Promise((resolve) => res.once("close", resolve))));
      const closed = new Promise((resolve) => server.close(resolve));
      server.closeIdleConnections();
      const late = setTimeout(() => server.closeAllConnections(), 1000);
      await closed;
      clearTimeout(late);
    },
  };
}

const HEADERS = {
  "cache-control": "no-store",
  "x-content-type-options": "nosniff",
  "referrer-policy": "no-referrer",
  // Scripts only from the page's own files, no inline script; xterm.js writes its colours and cell sizes as <style>
  // elements, so styles may be inline: no text of the model's or the person's is ever markup or a style.
  "content-security-policy":
    "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
};

function refuse(res: ServerResponse, status: number, message: string): void {
  if (res.headersSent) return void res.end();
  res.writeHead(status, { ...HEADERS, "content-type": "text/plain; charset=utf-8" });
  res.end(message);
}

/** Only names that cannot be rebound to another machine: IP literals, `localhost`, and the address listened on. */
function allowedHost(header: string | undefined, address: string): boolean {
  if (!header) return false;
  const name = header.replace(/:\d+$/, "").replace(/^\[(.*)\]$/, "$1");
  return name === "localhost" || name === address || isIP(name) !== 0;
}

function sameToken(given: string, token: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(token);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** A callback of the server's, outside any request's handler: whatever it throws ends there. */
function guarded<A extends unknown[]>(run: (...args: A) => void, failed: (error: unknown) => void = () => {}) {
  return (...args: A) => {
    try {
      run(...args);
    } catch (error) {
      failed(error);
    }
  };
}

/** A POST's body, checked by `check` before `handle` sees it: 400 with the reason, 500 for what `handle` throws. */
function readBody<T>(
  req: IncomingMessage,
  res: ServerResponse,
  check: (text: string) => { ok: true; body: T } | { ok: false; why: string },
  handle: (body: T) => string | typeof CLOSED | undefined,
) {
  const failed = (error: unknown) => refuse(res, 500, error instanceof Error ? error.message : "The request failed.");
  let text = "";
  req.setEncoding("utf8");
  req.on(
    "data",
    guarded((chunk: string) => {
      text += chunk;
      if (text.length > MAX_BODY) {
        refuse(res, 413, `At most ${MAX_BODY} characters at once.`);
        req.destroy();
      }
    }, failed),
  );
  req.on(
    "end",
    guarded(() => {
      if (res.headersSent) return;
      const checked = check(text);
      if (!checked.ok) return refuse(res, 400, checked.why);
      const problem = handle(checked.body);
      if (typeof problem === "string") return refuse(res, 400, problem);
      if (problem === CLOSED) {
        res.writeHead(200, { ...HEADERS, "content-type": "application/json" });
        return void res.end(JSON.stringify(CLOSED));
      }
      res.writeHead(204, HEADERS);
      res.end();
    }, failed),
  );
}
