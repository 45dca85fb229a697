"use strict";
(() => {
  // renderers/web/client/main.ts
  var status = document.getElementById("status");
  var narrow = window.matchMedia("(max-width: 600px)").matches;
  var term = new Terminal({
    fontFamily: "monospace",
    fontSize: narrow ? 12 : 15,
    scrollback: 0,
    cursorInactiveStyle: "none",
    theme: { background: "#1e1e1e" }
  });
  var fit = new FitAddon.FitAddon();
  term.loadAddon(fit);
  term.open(document.getElementById("screen"));
  fit.fit();
  term.write("\x1B[?1000h\x1B[?1006h\x1B[?25l");
  term.focus();
  var tab = "";
  var closed = false;
  var events = new EventSource(`events?cols=${term.cols}&rows=${term.rows}`);
  events.addEventListener("tab", (e) => {
    tab = e.data;
    status.textContent = `Answer with the keys or the mouse. ${status.dataset.where ?? ""}`;
    void flush();
  });
  events.addEventListener("frame", (e) => {
    const lines = JSON.parse(e.data);
    term.write(`\x1B[H\x1B[2J${lines.join("\r\n")}`);
  });
  events.addEventListener("closed", (e) => end(JSON.parse(e.data)));
  events.onerror = () => {
    if (events.readyState === EventSource.CLOSED) end("The form is closed: its server is gone.");
  };
  function end(text) {
    closed = true;
    events.close();
    status.textContent = text;
    document.body.classList.add("closed");
    term.options.disableStdin = true;
  }
  function post(path, body) {
    return fetch(path, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
  }
  var pending = [];
  var sending = false;
  async function flush() {
    if (sending || closed || !tab || pending.length === 0) return;
    sending = true;
    const keys = pending;
    pending = [];
    try {
      const answer = await post("input", { tab, keys });
      if (answer.status === 200) closed = true;
      else if (!answer.ok && !closed) status.textContent = await answer.text();
    } catch {
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
})();
