"use strict";
(() => {
  // renderers/web/client/dom.ts
  function h(tag, attrs = {}, ...children) {
    const el = document.createElement(tag);
    for (const [name, value] of Object.entries(attrs)) {
      if (value === void 0 || value === false) continue;
      if (name === "class") el.className = value;
      else el.setAttribute(name, value === true ? "" : value);
    }
    for (const child of children) if (child !== void 0 && child !== false && child !== null) el.append(child);
    return el;
  }
  var keyOf = (node) => node instanceof HTMLElement ? node.dataset.key ?? node.dataset.row ?? node.id : void 0;
  function morph(from, to) {
    for (const { name } of [...from.attributes]) if (!to.hasAttribute(name)) from.removeAttribute(name);
    for (const { name, value } of [...to.attributes])
      if (from.getAttribute(name) !== value) from.setAttribute(name, value);
    if (from instanceof HTMLInputElement && to instanceof HTMLInputElement) from.checked = to.hasAttribute("checked");
    if (from instanceof HTMLTextAreaElement || from.hasAttribute("data-field")) return;
    const wanted = [...to.childNodes];
    const have = [...from.childNodes];
    wanted.forEach((next, i) => {
      const old = have[i];
      if (!old) from.append(next);
      else if (old.nodeType === Node.TEXT_NODE && next.nodeType === Node.TEXT_NODE) {
        if (old.nodeValue !== next.nodeValue) old.nodeValue = next.nodeValue;
      } else if (old instanceof Element && next instanceof Element && old.tagName === next.tagName && keyOf(old) === keyOf(next))
        morph(old, next);
      else old.replaceWith(next);
    });
    for (const old of have.slice(wanted.length)) old.remove();
  }

  // renderers/web/client/parts.ts
  function tabsOf(v, acts2) {
    if (!v.tabs) return v.progress ? h("p", { class: "progress" }, v.progress) : void 0;
    const list = h("div", { role: "tablist", "aria-label": "Questions" });
    v.tabs.forEach((t, i) => {
      const key = `tab:${i}`;
      acts2.use.set(key, { send: t.send, relative: true });
      const state = t.answered ? t.submit ? ", ready" : ", answered" : t.submit ? ", not ready" : ", open";
      list.append(
        h(
          "button",
          {
            type: "button",
            role: "tab",
            id: `tab-${i}`,
            "aria-selected": t.current ? "true" : "false",
            tabindex: t.current ? "0" : "-1",
            class: `${t.answered ? "answered" : ""}${t.submit ? " submit" : ""}`,
            "data-key": key,
            // Its name in one string: a hidden part of its content was read apart ("Ship , open").
            "aria-label": `${t.label}${state}`
          },
          h("span", { "aria-hidden": "true" }, t.submit ? t.answered ? "✓ " : "□ " : t.answered ? "■ " : "□ "),
          t.label
        )
      );
    });
    return h(
      "nav",
      { class: "tabs", "aria-label": "The form's questions" },
      list,
      v.progress && h("p", { class: "progress" }, v.progress)
    );
  }
  function buttonsOf(buttons, acts2) {
    return h(
      "div",
      { class: "buttons" },
      ...buttons.map((b) => {
        const key = `button:${b.label}`;
        acts2.use.set(key, { send: b.send });
        return h("button", { type: "button", class: b.primary ? "primary" : void 0, "data-key": key }, b.label);
      })
    );
  }
  function bodyOf(v, acts2) {
    const body = v.body;
    if (body.kind === "done") return h("section", { class: "done" }, h("p", {}, body.text));
    if (body.kind === "message")
      return h("section", { class: "message" }, h("p", {}, body.text), buttonsOf(body.buttons, acts2));
    const el = body.kind === "review" ? reviewOf(body, acts2) : questionOf(body, acts2);
    const current = v.tabs?.findIndex((t) => t.current) ?? -1;
    if (current >= 0) {
      el.setAttribute("role", "tabpanel");
      el.setAttribute("aria-labelledby", `tab-${current}`);
    }
    return el;
  }
  function questionOf(q, acts2) {
    const optional = !q.required && h("span", { class: "optional" }, " (optional)");
    const about = [
      q.body && h("p", { class: "about" }, q.body),
      q.context && h("p", { class: "context" }, "Context: ", h("span", {}, q.context)),
      q.recommendation && h("p", { class: "recommendation" }, "★ Recommendation: ", h("span", {}, q.recommendation)),
      q.caveats && h("p", { class: "caveats" }, "⚠ Caveats: ", h("span", {}, q.caveats)),
      q.count && h("p", { class: "count", id: `count-${q.q}` }, q.count)
    ];
    if (q.choice === "text")
      return h(
        "section",
        { class: "question" },
        h("h2", { class: "prompt", id: `prompt-${q.q}` }, q.prompt, optional),
        ...about,
        q.editor && editorOf(q.editor, acts2, `prompt-${q.q}`),
        buttonsOf(q.buttons, acts2)
      );
    const list = h("div", { class: "rows" });
    if (q.above) list.append(h("p", { class: "more" }, `${q.above} options above: ↑ or PgUp shows them.`));
    q.rows.forEach((row, i) => {
      const id = `c-${q.q}-${q.above + i}`;
      const key = `row:${q.q}:${q.above + i}`;
      acts2.use.set(key, { send: row.select });
      acts2.focus.set(key, row.focus);
      const details = [
        row.description && h("span", { class: "description" }, row.description),
        row.details && h("span", { class: "details" }, row.details),
        row.authorNote && h("span", { class: "author-note" }, "» From the author: ", h("span", {}, row.authorNote)),
        row.ownNote && h("span", { class: "own-note" }, "✎ Your note: ", h("span", {}, row.ownNote))
      ].filter((d) => !!d);
      let note;
      if (row.note) {
        const noteKey = `note:${q.q}:${q.above + i}`;
        acts2.use.set(noteKey, { send: row.note, relative: true });
        const verb = row.ownNote ? "Edit the note" : "Add a note";
        note = h(
          "button",
          { type: "button", class: "note", "data-key": noteKey, "aria-label": `${verb} on ${row.label}` },
          verb
        );
      }
      list.append(
        h(
          "div",
          { class: `row${row.highlighted ? " highlighted" : ""}${row.chosen ? " chosen" : ""}`, "data-row": id },
          h("input", {
            type: q.choice === "multi" ? "checkbox" : "radio",
            id,
            name: `q-${q.q}`,
            "data-key": key,
            checked: row.chosen,
            "aria-describedby": details.length ? `d-${id}` : void 0
          }),
          h(
            "label",
            { for: id },
            h("span", { class: "label" }, row.label),
            row.recommended && h("span", { class: "mark" }, " ★ recommended"),
            row.chosen && q.choice === "single" && h("span", { class: "mark" }, " ✓ your answer")
          ),
          details.length > 0 && h("div", { class: "details", id: `d-${id}` }, ...details),
          previewOf(row, "under"),
          note,
          q.editor && q.editorAt === i && editorOf(q.editor, acts2)
        )
      );
    });
    if (q.below) list.append(h("p", { class: "more" }, `${q.below} options below: ↓ or PgDn shows them.`));
    const legend = h("legend", { class: "prompt" }, q.prompt, optional);
    const beside = q.rows.find((r) => r.highlighted);
    const options = q.rows.some((r) => r.preview) ? h("div", { class: "options" }, list, beside && previewOf(beside, "beside")) : list;
    return h(
      "section",
      { class: "question" },
      h("fieldset", { "aria-describedby": q.count ? `count-${q.q}` : void 0 }, legend, ...about, options),
      buttonsOf(q.buttons, acts2)
    );
  }
  function previewOf(row, where) {
    if (!row.preview) return void 0;
    return h(
      "div",
      { class: `preview ${where}`, role: "region", tabindex: "0", "aria-label": `Preview of ${row.label}` },
      ...row.preview.map(
        (line) => h("span", { class: `line${line.code ? " code" : ""}${line.tone ? ` ${line.tone}` : ""}` }, line.text)
      )
    );
  }
  function editorOf(editor, acts2, labelledBy) {
    const id = `field-${editor.id.replace(/\W/g, "-")}`;
    const checks = `checks-${id}`;
    const rule = `rule-${id}`;
    const attrs = {
      id,
      "data-field": editor.id,
      "data-key": `field:${editor.id}`,
      dir: "auto",
      placeholder: editor.placeholder,
      "aria-describedby": [editor.rule ? rule : "", checks].filter(Boolean).join(" "),
      "aria-invalid": editor.problems.length > 0 ? "true" : "false",
      "aria-labelledby": labelledBy ? `${labelledBy} label-${id}` : void 0
    };
    const field = editor.multiline ? h("textarea", { rows: "4", ...attrs }) : h("input", { type: "text", ...attrs });
    if (editor.close) acts2.use.set(`close:${editor.id}`, { send: [{ type: "CANCEL" }] });
    return h(
      "form",
      { class: "editor", novalidate: true, "data-key": `editor:${editor.id}` },
      h("label", { for: id, id: `label-${id}` }, editor.label),
      editor.rule && h("p", { class: "rule", id: rule }, editor.rule),
      field,
      h(
        "div",
        { id: checks, class: "checks", "aria-live": "polite" },
        ...editor.problems.map((p) => h("p", { class: "problem" }, "✗ ", p)),
        editor.good && h("p", { class: "good" }, "✓ ", editor.good)
      ),
      h(
        "div",
        { class: "buttons" },
        h("button", { type: "submit", class: "primary", "data-key": `save:${editor.id}` }, editor.save),
        editor.close && h("button", { type: "button", "data-key": `close:${editor.id}` }, editor.close)
      )
    );
  }
  function reviewOf(r, acts2) {
    const list = h("ul", { class: "entries" });
    r.entries.forEach((entry, i) => {
      const key = `entry:${i}`;
      acts2.use.set(key, { send: entry.select });
      acts2.focus.set(key, entry.focus);
      list.append(
        h(
          "li",
          {},
          h(
            "button",
            {
              type: "button",
              class: `entry ${entry.status}${entry.highlighted ? " highlighted" : ""}`,
              "data-key": key,
              disabled: entry.select.length === 0 ? true : void 0
            },
            h("span", { class: "label" }, entry.label, ": "),
            h("span", { class: "answer" }, entry.text),
            h("span", { class: "hidden" }, " (change)")
          )
        )
      );
    });
    return h(
      "section",
      { class: "review" },
      h("h2", {}, r.entries.length ? "Review your answers" : "Confirm"),
      r.entries.length > 0 && list,
      r.notes && !r.editor && h("p", { class: "notes" }, "Additional notes: ", h("span", {}, r.notes)),
      r.editor && editorOf(r.editor, acts2),
      h("p", { class: r.ready ? "ready" : "blocked" }, r.status),
      buttonsOf(r.buttons, acts2)
    );
  }

  // renderers/web/client/main.ts
  var status = document.getElementById("status");
  var said = document.getElementById("said");
  var heard = document.getElementById("heard");
  var main = document.getElementById("form");
  var tab = "";
  var closed = false;
  var view;
  var acts = { use: /* @__PURE__ */ new Map(), focus: /* @__PURE__ */ new Map() };
  var queue = [];
  var sending = false;
  var typing = 0;
  var typedAt = 0;
  function post(events2, version) {
    if (closed || events2.length === 0) return;
    const typed = events2.length === 1 && events2[0].type === "TYPE";
    const last = queue.at(-1);
    if (typed && last?.typing) last.events = events2;
    else {
      if (typed) typing++;
      queue.push({ events: events2, version, typing: typed });
    }
    void flush();
  }
  function showBusy() {
    if (sending || queue.length > 0 && !closed) main.setAttribute("aria-busy", "true");
    else main.removeAttribute("aria-busy");
  }
  async function flush() {
    showBusy();
    if (sending || closed || !tab) return;
    const next = queue.shift();
    if (!next) return;
    sending = true;
    try {
      const body = { tab, events: next.events, ...next.version === void 0 ? {} : { version: next.version } };
      const answer = await fetch("act", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(body)
      });
      if (!answer.ok) say(await answer.text());
      else {
        const got = await answer.json();
        if (got.closed) closed = true;
        if (next.typing && got.version !== void 0) typedAt = got.version;
        say(got.why);
      }
    } catch {
    } finally {
      if (next.typing) typing--;
      sending = false;
    }
    void flush();
  }
  var CLOCK_SOON = 10;
  var clockHeard;
  function hearClock(clock) {
    if (!clock) {
      clockHeard = void 0;
      heard.textContent = "";
      return;
    }
    const soon = clock.seconds <= CLOCK_SOON;
    if (clockHeard === void 0) heard.textContent = `${clock.text} Take my time stops the clock.`;
    else if (soon && clockHeard === "started") heard.textContent = clock.text;
    else return;
    clockHeard = soon ? "soon" : "started";
  }
  function say(text) {
    said.hidden = !text;
    said.textContent = text ?? "";
  }
  var events = new EventSource("events");
  events.addEventListener("tab", (e) => {
    tab = e.data;
    status.textContent = `Answer here. ${status.dataset.where ?? ""}`;
    void flush();
  });
  events.addEventListener("view", (e) => show(JSON.parse(e.data)));
  events.addEventListener("closed", (e) => end(JSON.parse(e.data)));
  events.onerror = () => {
    if (events.readyState === EventSource.CLOSED) end("The form is closed: its server is gone.");
  };
  function end(text) {
    closed = true;
    events.close();
    status.textContent = text;
    document.body.classList.add("closed");
    main.inert = true;
    showBusy();
  }
  var made = /* @__PURE__ */ new Map();
  function part(key, data, build) {
    const json = JSON.stringify(data ?? null);
    let last = made.get(key);
    if (last?.json !== json) {
      last = { json, acts: { use: /* @__PURE__ */ new Map(), focus: /* @__PURE__ */ new Map() } };
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
  var editorIn = (body) => body && "editor" in body ? body.editor : void 0;
  function show(next) {
    const before = view;
    view = next;
    acts = { use: /* @__PURE__ */ new Map(), focus: /* @__PURE__ */ new Map() };
    showBusy();
    if (next.title) document.title = next.title;
    const focused = document.activeElement instanceof HTMLElement ? document.activeElement : void 0;
    part(
      "head",
      [next.title, next.description, next.notice],
      () => h(
        "header",
        { class: "head" },
        next.title && h("h1", {}, next.title),
        next.description && h("p", { class: "description" }, next.description),
        next.notice && h("p", { class: "notice" }, next.notice)
      )
    );
    part("tabs", [next.tabs, next.progress], (own) => tabsOf(next, own));
    part(
      "alerts",
      next.alerts,
      () => h("div", { class: "alerts", "aria-live": "polite" }, ...next.alerts.map((a) => h("p", {}, a)))
    );
    hearClock(next.clock);
    part("clock", next.clock, (own) => {
      if (!next.clock) return void 0;
      own.use.set("clock", { send: next.clock.stop });
      return h(
        "div",
        { class: "clock" },
        h("p", {}, next.clock.text),
        h("button", { type: "button", "data-key": "clock" }, "Take my time")
      );
    });
    const kept = main.querySelector("[data-field]");
    const keptText = kept?.value;
    part("body", [next.body, next.tabs?.findIndex((t) => t.current)], (own) => bodyOf(next, own));
    const editor = editorIn(next.body);
    const field = main.querySelector("[data-field]");
    if (field && kept && field !== kept && keptText !== void 0 && field.dataset.field === kept.dataset.field)
      field.value = keptText;
    if (field && editor && typing === 0 && next.version >= typedAt && field.value !== editor.text)
      field.value = editor.text;
    placeFocus(before?.body, next.body, focused);
    document.body.dataset.version = String(next.version);
  }
  function placeFocus(before, now, focused) {
    const key = focused?.dataset.key ?? "";
    const gone = !focused?.isConnected || focused === document.body;
    const current = key.startsWith("tab:") && main.querySelector('[role="tab"][aria-selected="true"]');
    if (current) return void (current !== focused && current.focus());
    const editor = editorIn(now);
    if (editor && editorIn(before)?.id !== editor.id)
      return void main.querySelector(`[data-field="${CSS.escape(editor.id)}"]`)?.focus();
    const came = before?.kind !== now.kind || before.kind === "question" && now.kind === "question" && before.q !== now.q;
    if (/^(row|entry):/.test(key) && !came) {
      const lit = main.querySelector(
        key.startsWith("row:") ? ".row.highlighted input" : ".entry.highlighted"
      );
      if (lit) {
        if (lit !== focused) lit.focus();
        return;
      }
    }
    if (gone && key) {
      const same = main.querySelector(`[data-key="${CSS.escape(key)}"]`);
      if (same) return void same.focus();
    }
    const lost = gone && focused !== void 0 && focused !== document.body;
    if (!lost && !(came && (gone || main.contains(focused ?? null)))) return;
    for (const where of [
      ".row.highlighted input",
      "[data-field]",
      ".entry.highlighted",
      ".buttons .primary",
      "section button"
    ]) {
      const first = main.querySelector(where);
      if (!first) continue;
      const fromTop = came && (!first.matches(".row input") || first === main.querySelector(".row input"));
      first.focus({ preventScroll: fromTop });
      if (fromTop) scrollTo(0, 0);
      return;
    }
  }
  var keyed = (target) => target instanceof Element ? target.closest("[data-key]") : null;
  main.addEventListener("click", (e) => {
    const el = keyed(e.target);
    const act = el && acts.use.get(el.dataset.key ?? "");
    if (!el || !act) return;
    if (el instanceof HTMLInputElement) e.preventDefault();
    post(act.send, act.relative ? view?.version : void 0);
  });
  var pointing = false;
  main.addEventListener("pointerdown", () => {
    pointing = true;
  });
  main.addEventListener("pointerup", () => setTimeout(() => pointing = false));
  main.addEventListener("focusin", (e) => {
    const el = keyed(e.target);
    const send = el && acts.focus.get(el.dataset.key ?? "");
    if (send && !pointing) post(send, view?.version);
  });
  function listKey(key, page) {
    const move = { ArrowUp: -1, ArrowLeft: -1, ArrowDown: 1, ArrowRight: 1, PageUp: -page, PageDown: page }[key];
    if (move !== void 0) return [{ type: "MOVE", delta: move }];
    return key === "Home" ? [{ type: "MOVE_TO", to: "first" }] : key === "End" ? [{ type: "MOVE_TO", to: "last" }] : void 0;
  }
  document.addEventListener("keydown", (e) => {
    if (!view || e.altKey || e.ctrlKey || e.metaKey || closed) {
      const field = e.target instanceof HTMLTextAreaElement ? e.target : void 0;
      if (field && e.key === "Enter" && (e.ctrlKey || e.metaKey)) {
        e.preventDefault();
        post([{ type: "SUBMIT_TEXT", text: field.value }]);
      }
      return;
    }
    const target = e.target instanceof HTMLElement ? e.target : void 0;
    const send = keySends(e.key, target, view.pageRows);
    if (!send) return;
    e.preventDefault();
    post(send);
  });
  function keySends(key, target, page) {
    if (key === "Escape") return [{ type: "CANCEL" }];
    if (!target || target.closest(".editor")) return void 0;
    if (target.closest('[role="tablist"]'))
      return key === "ArrowRight" ? [{ type: "NEXT_TAB" }] : key === "ArrowLeft" ? [{ type: "PREV_TAB" }] : void 0;
    const row = target instanceof HTMLInputElement && target.closest(".row");
    if (row && key === "Enter") return [{ type: "CONFIRM" }];
    if (row && key === " ") return acts.use.get(target.dataset.key ?? "")?.send;
    if (row) return listKey(key, page);
    if (target.closest(".review") && key !== "ArrowLeft" && key !== "ArrowRight") return listKey(key, page);
    return void 0;
  }
  var spaceOnRow = (e) => e.key === " " && e.target instanceof HTMLInputElement && e.target.closest(".row") ? e.target : void 0;
  main.addEventListener("keyup", (e) => {
    if (spaceOnRow(e)) e.preventDefault();
  });
  main.addEventListener("input", (e) => {
    if (e.target instanceof HTMLElement && e.target.dataset.field !== void 0)
      post([{ type: "TYPE", text: e.target.value }]);
  });
  main.addEventListener("submit", (e) => {
    e.preventDefault();
    const field = e.target.querySelector("[data-field]");
    if (field) post([{ type: "SUBMIT_TEXT", text: field.value }]);
  });
})();
