/**
 * The browser side of a form's page: xterm.js draws the frames the server
 * sends, and hands back the bytes a terminal would send for each key, click
 * and wheel turn (SGR mouse reports, asked for as a terminal program asks).
 * What the server says is only ever written into xterm.js or as text.
 */
import type { FitAddon as Fit } from "@xterm/addon-fit";
import type { Terminal as XTerm } from "@xterm/xterm";

declare const Terminal: typeof XTerm;
declare const FitAddon: { FitAddon: typeof Fit };

const status = document.getElementById("status") as HTMLElement;
const narrow = window.matchMedia("(max-width: 600px)").matches;
const term = new Terminal({
  fontFamily: "monospace",
  fontSize: narrow ? 12 : 15,
  scrollback: 0,
  cursorInactiveStyle: "none",
  theme: { background: "#1e1e1e" },
});
const fit = new FitAddon.FitAddon();
term.loadAddon(fit);
term.open(document.getElementById("screen") as HTMLElement);
fit.fit();
// Mouse reports on (clicks and the wheel, SGR encoding), the terminal's own cursor off: the form draws its own.
term.write("\x1b[?1000h\x1b[?1006h\x1b[?25l");
term.focus();

let tab = "";
let closed = false;
const events = new EventSource(`events?cols=${term.cols}&rows=${term.rows}`);
events.addEventListener("tab", (e) => {
  tab = e.data;
  status.textContent = `Answer with the keys or the mouse. ${status.dataset.where ?? ""}`;
  void flush();
});
events.addEventListener("frame", (e) => {
  const lines = JSON.parse(e.data) as string[];
  term.write(`\x1b[H\x1b[2J${lines.join("\r\n")}`);
});
events.addEventListener("closed", (e) => end(JSON.parse(e.data) as string));
events.onerror = () => {
  if (events.readyState === EventSource.CLOSED) end("The form is closed: its server is gone.");
};

function end(text: string): void {
  closed = true;
  events.close();
  status.textContent = text;
  document.body.classList.add("closed");
  term.options.disableStdin = true;
}

function post(path: string, body: object): Promise<Response> {
  return fetch(path, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
}

// Keys go in order: those pressed while a request is on its way go together in the next.
let pending: string[] = [];
let sending = false;
async function flush(): Promise<void> {
  if (sending || closed || !tab || pending.length === 0) return;
  sending = true;
  const keys = pending;
  pending = [];
  try {
    const answer = await post("input", { tab, keys });
    // 200: these keys closed the form; how it ended comes on the event stream.
    if (answer.status === 200) closed = true;
    else if (!answer.ok && !closed) status.textContent = await answer.text();
  } catch {
    // The server closed: its "closed" event or the stream's end says why.
  } finally {
    sending = false;
  }
  void flush();
}

term.onData((data) => {
  if (closed) return;
  pending.push(data);
  void flush();
});
term.onResize(({ cols, rows }) => {
  if (tab && !closed) void post("size", { tab, cols, rows });
});
window.addEventListener("resize", () => fit.fit());
