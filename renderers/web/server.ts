/**
 * A form in a browser tab: one more screen of a session. Each tab is sent
 * the form's view (page-view.ts: text, and the events each control sends)
 * as server-sent events whenever the session changes; a control posts its
 * events, which go to the session as a key's do in the terminal, and the
 * answer says why they did nothing, if they did not.
 *
 * Contract: the server listens on 127.0.0.1 (or the address given) on a
 * port of its own (listening everywhere, its link names the machine's own
 * address), from `openWebServer` until `close`, which frees the port;
 * every request needs the form's token (256 random bits) in its path, a
 * Host that is an IP address, `localhost` or the address listened on (a
 * page of another name that resolves here is refused: DNS rebinding), and,
 * for a POST, the page's own Origin; a POST's body is checked into its one
 * shape (bodies.ts) before use, and nothing a request does throws outside
 * its handler. Everything the page is given is text, written as
 * `textContent`.
 */
import { randomBytes, timingSafeEqual } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import { isIP } from "node:net";
import { type NetworkInterfaceInfo, networkInterfaces } from "node:os";
import type { FormSession } from "../../machines/session.js";
import { type Act, actBody, MAX_BODY, type PageEvent } from "./bodies.js";
import type { ActAnswer, PageView } from "./client/view.js";
import { asset, pageHtml } from "./page.js";

/** A session as a page shows and answers it (page-screen.ts's `PageScreen`). */
export interface PageForm {
  readonly session: FormSession;
  /** The form's step, which a relative move was drawn on. */
  readonly version: number;
  view(): PageView;
  /** The events of a control, in order; why they did nothing, if they did not. */
  act(events: readonly PageEvent[]): string | undefined;
}

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
  serve(form: PageForm, left?: () => void): void;
  /** Tells each page `text` and lets the form go; the link stays, and a page that comes next calls `opened`. */
  release(text: string): void;
  /** Tells each page how the form ended (`elsewhere` unless a page answered it), then stops listening. */
  close(elsewhere: string): Promise<void>;
}

interface Tab {
  id: string;
  res: ServerResponse;
  sent?: string;
}

export async function openWebServer(options: WebServerOptions): Promise<WebServer> {
  const address = options.address ?? "127.0.0.1";
  const token = randomBytes(32).toString("base64url");
  const tabs = new Map<string, Tab>();
  let form: PageForm | undefined;
  let unwatch = () => {};
  let onLeft: (() => void) | undefined;
  /** The tab whose events are being taken: the one that answered, when the form closes meanwhile. */
  let actingFrom: Tab | undefined;
  let answeredIn: Tab | undefined;
  let scheduled = false;
  /** The POSTs not yet answered. */
  const answering = new Set<ServerResponse>();

  const send = (tab: Tab, event: string, data: string) => tab.res.write(`event: ${event}\ndata: ${data}\n\n`);
  /** A form whose view cannot be made is closed with the error, wherever it was asked: nothing is thrown. */
  const fail = (error: unknown) => form?.session.fail(error);
  /** The view is made once for every tab, and sent to those that have not seen it. */
  const showAll = guarded(() => {
    scheduled = false;
    if (!form || form.session.closed || tabs.size === 0) return;
    const view = JSON.stringify(form.view());
    for (const tab of tabs.values()) show(tab, view);
  }, fail);
  const show = (tab: Tab, view: string) => {
    if (view !== tab.sent) send(tab, "view", view);
    tab.sent = view;
  };
  const schedule = () => {
    if (scheduled) return;
    scheduled = true;
    setImmediate(showAll);
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
    if (req.method === "GET" && name === "events") return events(res);
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
    if (req.method !== "POST" || name !== "act") return refuse(res, 405, "Not allowed.");
    if (req.headers.origin !== `http://${req.headers.host}`) return refuse(res, 403, "Cross-origin request refused.");
    answering.add(res);
    res.once("close", () => answering.delete(res));
    readBody(req, res, act);
  };

  const events = (res: ServerResponse) => {
    res.writeHead(200, { ...HEADERS, "content-type": "text/event-stream" });
    const tab: Tab = { id: randomBytes(9).toString("base64url"), res };
    tabs.set(tab.id, tab);
    send(tab, "tab", tab.id);
    // A tab closed: the form stays open for the terminal and the other tabs.
    res.on(
      "close",
      guarded(() => {
        if (tabs.delete(tab.id) && tabs.size === 0 && form && !form.session.closed) onLeft?.();
      }, fail),
    );
    if (!form) options.opened?.();
    if (form && !form.session.closed) show(tab, JSON.stringify(form.view()));
  };

  const act = (body: Act): ActAnswer | string => {
    // Sent as the form closed (a second tap on what submitted it): nothing is left to do.
    const served = form;
    if (!served || served.session.closed) return { closed: true };
    const tab = tabs.get(body.tab);
    if (!tab) return "Unknown tab.";
    // A move drawn relative to a view the form has left (another tab or the terminal moved it) would land elsewhere.
    if (body.version !== undefined && body.version !== served.version)
      return { why: "The form changed meanwhile, so that did nothing; it shows what it holds now." };
    actingFrom = tab;
    let why: string | undefined;
    try {
      why = served.act(body.events);
      // Let go of meanwhile (closed from its own `done`), the tab was already told.
      if (served.session.closed && form === served) answeredIn = tab;
    } catch (error) {
      served.session.fail(error);
    } finally {
      actingFrom = undefined;
    }
    // Closed by these events: how it ended comes on the event stream.
    if (served.session.closed) return { closed: true };
    return why === undefined ? { version: served.version } : { why, version: served.version };
  };

  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, address, () => resolve());
  });
  // Once listening, a failure of the server (a connection it could not accept) ends no process.
  server.on("error", () => {});
  const { port } = server.address() as { port: number };
  const named = linkAddress(address);
  const host = isIP(named) === 6 ? `[${named}]` : named;

  /** Each page is told how the form ended, and the form is let go. */
  const letGo = (said: (tab: Tab) => string) => {
    unwatch();
    unwatch = () => {};
    for (const tab of [...tabs.values()]) {
      tabs.delete(tab.id);
      send(tab, "closed", JSON.stringify(said(tab)));
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
      showAll();
    },
    release: (text) => letGo(() => text),
    async close(elsewhere) {
      const answered = answeredIn ?? actingFrom;
      letGo((tab) => (tab === answered ? "Answered here." : answered ? "Answered in another tab." : elsewhere));
      // A request still being answered (the tap that closed the form) gets its answer first; then the port is free.
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
  // Scripts and styles only from the page's own files, nothing inline: no text of the model's or the person's is
  // ever markup, a script or a style.
  "content-security-policy":
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
};

function refuse(res: ServerResponse, status: number, message: string): void {
  if (res.headersSent) return void res.end();
  res.writeHead(status, { ...HEADERS, "content-type": "text/plain; charset=utf-8" });
  res.end(message);
}

/**
 * The address a link names: the one listened on, or, listening everywhere (`0.0.0.0`, `::`), the machine's first
 * address another device can reach (IPv4 first; an IPv6 link-local one needs a zone a link cannot carry), else
 * loopback.
 */
export function linkAddress(address: string, interfaces?: NodeJS.Dict<NetworkInterfaceInfo[]>): string {
  const family = isIP(address);
  const everywhere = family === 4 ? /^[0.]+$/.test(address) : /^[0:]+$/.test(address);
  if (!everywhere) return address;
  // The machine's interfaces are read only for such a link, not for every form's server.
  const own = Object.values(interfaces ?? networkInterfaces())
    .flat()
    .filter((a): a is NetworkInterfaceInfo => a !== undefined && !a.internal);
  const v4 = own.find((a) => a.family === "IPv4");
  const v6 = own.find((a) => a.family === "IPv6" && !/^fe[89ab]/i.test(a.address));
  return (v4 ?? (family === 6 ? v6 : undefined))?.address ?? (family === 6 ? "::1" : "127.0.0.1");
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

/** A POST's body, checked before `handle` sees it: 400 with the reason, 500 for what `handle` throws. */
function readBody(req: IncomingMessage, res: ServerResponse, handle: (body: Act) => ActAnswer | string) {
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
      const checked = actBody(text);
      if (!checked.ok) return refuse(res, 400, checked.why);
      const answer = handle(checked.body);
      if (typeof answer === "string") return refuse(res, 400, answer);
      res.writeHead(200, { ...HEADERS, "content-type": "application/json" });
      res.end(JSON.stringify(answer));
    }, failed),
  );
}
