/**
 * The browser side of a form's page: the views the server sends, laid out
 * (parts.ts) and brought up to date in place (dom.ts), and what each control
 * carries posted back, in order. The controls are listened to on the page as
 * a whole, so a control keeps working while the view around it changes. What
 * the server says is only ever written as text.
 */
import { h, morph } from "./dom.js";
import { type Acts, bodyOf, tabsOf } from "./parts.js";
import type { ActAnswer, BodyView, EditorView, PageView, Send } from "./view.js";

const status = document.getElementById("status") as HTMLElement;
const said = document.getElementById("said") as HTMLElement;
const heard = document.getElementById("heard") as HTMLElement;
const main = document.getElementById("form") as HTMLElement;

let tab = "";
let closed = false;
let view: PageView | undefined;
let acts: Acts = { use: new Map(), focus: new Map() };

// The events go in order, one request at a time; typing sends the field's whole text, the latest replacing one not yet sent.
interface Queued {
  events: Send;
  version?: number;
  typing?: boolean;
}
const queue: Queued[] = [];
let sending = false;
/** Typed text on its way, and the form's step once the last of it was taken: a view from before must not undo it. */
let typing = 0;
let typedAt = 0;

function post(events: Send, version?: number): void {
  if (closed || events.length === 0) return;
  const typed = events.length === 1 && events[0].type === "TYPE";
  const last = queue.at(-1);
  if (typed && last?.typing) last.events = events;
  else {
    if (typed) typing++;
    queue.push({ events, version, typing: typed });
  }
  void flush();
}

/** The form is busy while what was done here is on its way, and says so (`aria-busy`). */
function showBusy(): void {
  if (sending || (queue.length > 0 && !closed)) main.setAttribute("aria-busy", "true");
  else main.removeAttribute("aria-busy");
}

async function flush(): Promise<void> {
  showBusy();
  if (sending || closed || !tab) return;
  const next = queue.shift();
  if (!next) return;
  sending = true;
  try {
    const body = { tab, events: next.events, ...(next.version === undefined ? {} : { version: next.version }) };
    const answer = await fetch("act", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
    });
    if (!answer.ok) say(await answer.text());
    else {
      const got = (await answer.json()) as ActAnswer;
      if (got.closed) closed = true;
      if (next.typing && got.version !== undefined) typedAt = got.version;
      say(got.why);
    }
  } catch {
    // The server closed: its "closed" event or the stream's end says why.
  } finally {
    if (next.typing) typing--;
    sending = false;
  }
  void flush();
}

/** Why the last thing done did nothing; cleared by the next that did something. */
/** Seconds left at which the clock is read out a second time. */
const CLOCK_SOON = 10;
let clockHeard: "started" | "soon" | undefined;

/** The clock read out when it starts and once near its end, never at each tick (it changes every second). */
function hearClock(clock: PageView["clock"]): void {
  if (!clock) {
    clockHeard = undefined;
    heard.textContent = "";
    return;
  }
  const soon = clock.seconds <= CLOCK_SOON;
  if (clockHeard === undefined) heard.textContent = `${clock.text} Take my time stops the clock.`;
  else if (soon && clockHeard === "started") heard.textContent = clock.text;
  else return;
  clockHeard = soon ? "soon" : "started";
}

function say(text: string | undefined): void {
  said.hidden = !text;
  said.textContent = text ?? "";
}

const events = new EventSource("events");
events.addEventListener("tab", (e) => {
  tab = e.data;
  status.textContent = `Answer here. ${status.dataset.where ?? ""}`;
  void flush();
});
events.addEventListener("view", (e) => show(JSON.parse(e.data) as PageView));
events.addEventListener("closed", (e) => end(JSON.parse(e.data) as string));
events.onerror = () => {
  if (events.readyState === EventSource.CLOSED) end("The form is closed: its server is gone.");
};

function end(text: string): void {
  closed = true;
  events.close();
  status.textContent = text;
  document.body.classList.add("closed");
  main.inert = true;
  showBusy();
}

/** Each part of the page as last made: the JSON of its part of the view, and what its controls send. */
const made = new Map<string, { json: string; acts: Acts }>();

/** The part `key` of the page made from its part of the view (`data`) and put in place, unless that is as it was. */
function part(key: string, data: unknown, build: (own: Acts) => HTMLElement | undefined | false | ""): void {
  const json = JSON.stringify(data ?? null);
  let last = made.get(key);
  if (last?.json !== json) {
    last = { json, acts: { use: new Map(), focus: new Map() } };
    const next = build(last.acts) || h("div", { hidden: true });
    next.dataset.part = key;
    const old = main.querySelector(`:scope > [data-part="${key}"]`);
    if (!old) main.append(next);
    else if (old.tagName === next.tagName) morph(old, next);
    else old.replaceWith(next);
    made.set(key, last);
  }
  for (const [name, act] of last.acts.use) acts.use.set(name, act);
  for (const [name, send] of last.acts.focus) acts.focus.set(name, send);
}

const editorIn = (body: BodyView | undefined): EditorView | undefined =>
  body && "editor" in body ? body.editor : undefined;

function show(next: PageView): void {
  const before = view;
  view = next;
  acts = { use: new Map(), focus: new Map() };
  showBusy();
  if (next.title) document.title = next.title;
  const focused = document.activeElement instanceof HTMLElement ? document.activeElement : undefined;
  part("head", [next.title, next.description, next.notice], () =>
    h(
      "header",
      { class: "head" },
      next.title && h("h1", {}, next.title),
      next.description && h("p", { class: "description" }, next.description),
      next.notice && h("p", { class: "notice" }, next.notice),
    ),
  );
  part("tabs", [next.tabs, next.progress], (own) => tabsOf(next, own));
  part("alerts", next.alerts, () =>
    h("div", { class: "alerts", "aria-live": "polite" }, ...next.alerts.map((a) => h("p", {}, a))),
  );
  hearClock(next.clock);
  part("clock", next.clock, (own) => {
    if (!next.clock) return undefined;
    own.use.set("clock", { send: next.clock.stop });
    return h(
      "div",
      { class: "clock" },
      h("p", {}, next.clock.text),
      h("button", { type: "button", "data-key": "clock" }, "Take my time"),
    );
  });
  const kept = main.querySelector<HTMLInputElement | HTMLTextAreaElement>("[data-field]");
  const keptText = kept?.value;
  part("body", [next.body, next.tabs?.findIndex((t) => t.current)], (own) => bodyOf(next, own));
  const editor = editorIn(next.body);
  const field = main.querySelector<HTMLInputElement | HTMLTextAreaElement>("[data-field]");
  // A field made anew for the same editor (what was around it changed) takes what the old one held.
  if (field && kept && field !== kept && keptText !== undefined && field.dataset.field === kept.dataset.field)
    field.value = keptText;
  // Text typed here and on its way stays; text from elsewhere (another tab, the terminal) comes in.
  if (field && editor && typing === 0 && next.version >= typedAt && field.value !== editor.text)
    field.value = editor.text;
  placeFocus(before?.body, next.body, focused);
  document.body.dataset.version = String(next.version);
}

/**
 * Focus follows a list's highlight and the current tab, goes to a field that opened or to a question that came,
 * finds a place when its control went, and stays otherwise.
 */
function placeFocus(before: BodyView | undefined, now: BodyView, focused: HTMLElement | undefined): void {
  const key = focused?.dataset.key ?? "";
  const gone = !focused?.isConnected || focused === document.body;
  // In the tab list the focus follows the current tab, so ←/→ walk along it; Tab goes into the question.
  const current = key.startsWith("tab:") && main.querySelector<HTMLElement>('[role="tab"][aria-selected="true"]');
  if (current) return void (current !== focused && current.focus());
  const editor = editorIn(now);
  if (editor && editorIn(before)?.id !== editor.id)
    return void main.querySelector<HTMLElement>(`[data-field="${CSS.escape(editor.id)}"]`)?.focus();
  const came =
    before?.kind !== now.kind || (before.kind === "question" && now.kind === "question" && before.q !== now.q);
  // A list's focus follows its highlight, also where the focused row went with the part of a long list it was in.
  if (/^(row|entry):/.test(key) && !came) {
    const lit = main.querySelector<HTMLElement>(
      key.startsWith("row:") ? ".row.highlighted input" : ".entry.highlighted",
    );
    if (lit) {
      if (lit !== focused) lit.focus();
      return;
    }
  }
  // The focused control made anew (what was around it changed): the new one has the focus.
  if (gone && key) {
    const same = main.querySelector<HTMLElement>(`[data-key="${CSS.escape(key)}"]`);
    if (same) return void same.focus();
  }
  // A control that went with the view (a note's field closed, its buttons) hands the focus on, as a question that came does.
  const lost = gone && focused !== undefined && focused !== document.body;
  if (!lost && !(came && (gone || main.contains(focused ?? null)))) return;
  for (const where of [
    ".row.highlighted input",
    "[data-field]",
    ".entry.highlighted",
    ".buttons .primary",
    "section button",
  ]) {
    const first = main.querySelector<HTMLElement>(where);
    if (!first) continue;
    // A question that comes is shown from the page's top (its prompt first, on a phone too), unless what takes the
    // focus is a highlight further down its list.
    const fromTop = came && (!first.matches(".row input") || first === main.querySelector(".row input"));
    first.focus({ preventScroll: fromTop });
    if (fromTop) scrollTo(0, 0);
    return;
  }
}

// Every control is listened to here, by its key: elements stay while views change, and what they send is the view's now.
const keyed = (target: EventTarget | null) =>
  target instanceof Element ? target.closest<HTMLElement>("[data-key]") : null;

main.addEventListener("click", (e) => {
  const el = keyed(e.target);
  const act = el && acts.use.get(el.dataset.key ?? "");
  if (!el || !act) return;
  // A box shows what the form holds: the click sends the digit's event, the view ticks it.
  if (el instanceof HTMLInputElement) e.preventDefault();
  post(act.send, act.relative ? view?.version : undefined);
});

/** Focus that came with a pointer: the click says where it goes. */
let pointing = false;
main.addEventListener("pointerdown", () => {
  pointing = true;
});
main.addEventListener("pointerup", () => setTimeout(() => (pointing = false)));
main.addEventListener("focusin", (e) => {
  const el = keyed(e.target);
  const send = el && acts.focus.get(el.dataset.key ?? "");
  if (send && !pointing) post(send, view?.version);
});

/** A list's keys, as in the terminal: ↑/↓ (and ←/→ in a list of options) move the highlight, PgUp/PgDn by the form's page, Home/End. */
function listKey(key: string, page: number): Send | undefined {
  const move = { ArrowUp: -1, ArrowLeft: -1, ArrowDown: 1, ArrowRight: 1, PageUp: -page, PageDown: page }[key];
  if (move !== undefined) return [{ type: "MOVE", delta: move }];
  return key === "Home"
    ? [{ type: "MOVE_TO", to: "first" }]
    : key === "End"
      ? [{ type: "MOVE_TO", to: "last" }]
      : undefined;
}

document.addEventListener("keydown", (e) => {
  if (!view || e.altKey || e.ctrlKey || e.metaKey || closed) {
    const field = e.target instanceof HTMLTextAreaElement ? e.target : undefined;
    // In a field of several lines Enter is a new line; Ctrl+Enter saves, as the button does.
    if (field && e.key === "Enter" && (e.ctrlKey || e.metaKey)) {
      e.preventDefault();
      post([{ type: "SUBMIT_TEXT", text: field.value }]);
    }
    return;
  }
  const target = e.target instanceof HTMLElement ? e.target : undefined;
  const send = keySends(e.key, target, view.pageRows);
  if (!send) return;
  e.preventDefault();
  post(send);
});

function keySends(key: string, target: HTMLElement | undefined, page: number): Send | undefined {
  if (key === "Escape") return [{ type: "CANCEL" }];
  if (!target || target.closest(".editor")) return undefined;
  if (target.closest('[role="tablist"]'))
    return key === "ArrowRight" ? [{ type: "NEXT_TAB" }] : key === "ArrowLeft" ? [{ type: "PREV_TAB" }] : undefined;
  const row = target instanceof HTMLInputElement && target.closest(".row");
  if (row && key === "Enter") return [{ type: "CONFIRM" }];
  // Space on an option chooses or ticks it, as its digit does, even where it is chosen already (a radio button
  // takes no click then); the box itself shows what the form holds.
  if (row && key === " ") return acts.use.get(target.dataset.key ?? "")?.send;
  if (row) return listKey(key, page);
  // In the review only ↑/↓ move (←/→ go along its buttons).
  if (target.closest(".review") && key !== "ArrowLeft" && key !== "ArrowRight") return listKey(key, page);
  return undefined;
}

const spaceOnRow = (e: KeyboardEvent) =>
  e.key === " " && e.target instanceof HTMLInputElement && e.target.closest(".row") ? e.target : undefined;
main.addEventListener("keyup", (e) => {
  if (spaceOnRow(e)) e.preventDefault();
});

main.addEventListener("input", (e) => {
  if (e.target instanceof HTMLElement && e.target.dataset.field !== undefined)
    post([{ type: "TYPE", text: (e.target as HTMLInputElement).value }]);
});
main.addEventListener("submit", (e) => {
  e.preventDefault();
  const field = (e.target as HTMLElement).querySelector<HTMLInputElement | HTMLTextAreaElement>("[data-field]");
  if (field) post([{ type: "SUBMIT_TEXT", text: field.value }]);
});
