/**
 * A view laid out with the browser's own controls: a question is a fieldset
 * whose legend is its prompt, its options radio buttons or checkboxes with
 * their labels, descriptions, marks, notes and previews; a typed answer is a
 * labelled field with its rule and live checks; a tabbed form has a tab
 * list; the review is a list of answers and buttons. Each control carries a
 * `data-key`; what it sends is kept in `Acts` under that key.
 */
import { h } from "./dom.js";
import type { BodyView, ButtonView, EditorView, PageView, QuestionView, ReviewView, RowView, Send } from "./view.js";

/** What each control sends: when used (`use`), when the keyboard brings focus to it (`focus`). */
export interface Acts {
  use: Map<string, { send: Send; relative?: boolean }>;
  focus: Map<string, Send>;
}

export function tabsOf(v: PageView, acts: Acts): HTMLElement | undefined {
  if (!v.tabs) return v.progress ? h("p", { class: "progress" }, v.progress) : undefined;
  const list = h("div", { role: "tablist", "aria-label": "Questions" });
  v.tabs.forEach((t, i) => {
    const key = `tab:${i}`;
    acts.use.set(key, { send: t.send, relative: true });
    const state = t.answered ? (t.submit ? ", ready" : ", answered") : t.submit ? ", not ready" : ", open";
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
          "aria-label": `${t.label}${state}`,
        },
        h("span", { "aria-hidden": "true" }, t.submit ? (t.answered ? "✓ " : "□ ") : t.answered ? "■ " : "□ "),
        t.label,
      ),
    );
  });
  return h(
    "nav",
    { class: "tabs", "aria-label": "The form's questions" },
    list,
    v.progress && h("p", { class: "progress" }, v.progress),
  );
}

function buttonsOf(buttons: readonly ButtonView[], acts: Acts): HTMLElement {
  return h(
    "div",
    { class: "buttons" },
    ...buttons.map((b) => {
      const key = `button:${b.label}`;
      acts.use.set(key, { send: b.send });
      return h("button", { type: "button", class: b.primary ? "primary" : undefined, "data-key": key }, b.label);
    }),
  );
}

export function bodyOf(v: PageView, acts: Acts): HTMLElement {
  const body: BodyView = v.body;
  if (body.kind === "done") return h("section", { class: "done" }, h("p", {}, body.text));
  if (body.kind === "message")
    return h("section", { class: "message" }, h("p", {}, body.text), buttonsOf(body.buttons, acts));
  const el = body.kind === "review" ? reviewOf(body, acts) : questionOf(body, acts);
  const current = v.tabs?.findIndex((t) => t.current) ?? -1;
  if (current >= 0) {
    el.setAttribute("role", "tabpanel");
    el.setAttribute("aria-labelledby", `tab-${current}`);
  }
  return el;
}

function questionOf(q: QuestionView, acts: Acts): HTMLElement {
  const optional = !q.required && h("span", { class: "optional" }, " (optional)");
  const about = [
    q.body && h("p", { class: "about" }, q.body),
    q.context && h("p", { class: "context" }, "Context: ", h("span", {}, q.context)),
    q.recommendation && h("p", { class: "recommendation" }, "★ Recommendation: ", h("span", {}, q.recommendation)),
    q.caveats && h("p", { class: "caveats" }, "⚠ Caveats: ", h("span", {}, q.caveats)),
    q.count && h("p", { class: "count", id: `count-${q.q}` }, q.count),
  ];
  if (q.choice === "text")
    return h(
      "section",
      { class: "question" },
      h("h2", { class: "prompt", id: `prompt-${q.q}` }, q.prompt, optional),
      ...about,
      q.editor && editorOf(q.editor, acts, `prompt-${q.q}`),
      buttonsOf(q.buttons, acts),
    );
  const list = h("div", { class: "rows" });
  if (q.above) list.append(h("p", { class: "more" }, `${q.above} options above: ↑ or PgUp shows them.`));
  q.rows.forEach((row, i) => {
    // Named by the row's place in the whole list: a row keeps its element while the window of a long list moves.
    const id = `c-${q.q}-${q.above + i}`;
    const key = `row:${q.q}:${q.above + i}`;
    acts.use.set(key, { send: row.select });
    acts.focus.set(key, row.focus);
    const details = [
      row.description && h("span", { class: "description" }, row.description),
      row.details && h("span", { class: "details" }, row.details),
      row.authorNote && h("span", { class: "author-note" }, "» From the author: ", h("span", {}, row.authorNote)),
      row.ownNote && h("span", { class: "own-note" }, "✎ Your note: ", h("span", {}, row.ownNote)),
    ].filter((d): d is HTMLElement => !!d);
    let note: HTMLElement | undefined;
    if (row.note) {
      const noteKey = `note:${q.q}:${q.above + i}`;
      acts.use.set(noteKey, { send: row.note, relative: true });
      const verb = row.ownNote ? "Edit the note" : "Add a note";
      note = h(
        "button",
        { type: "button", class: "note", "data-key": noteKey, "aria-label": `${verb} on ${row.label}` },
        verb,
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
          "aria-describedby": details.length ? `d-${id}` : undefined,
        }),
        h(
          "label",
          { for: id },
          h("span", { class: "label" }, row.label),
          row.recommended && h("span", { class: "mark" }, " ★ recommended"),
          row.chosen && q.choice === "single" && h("span", { class: "mark" }, " ✓ your answer"),
        ),
        details.length > 0 && h("div", { class: "details", id: `d-${id}` }, ...details),
        previewOf(row, "under"),
        note,
        q.editor && q.editorAt === i && editorOf(q.editor, acts),
      ),
    );
  });
  if (q.below) list.append(h("p", { class: "more" }, `${q.below} options below: ↓ or PgDn shows them.`));
  const legend = h("legend", { class: "prompt" }, q.prompt, optional);
  const beside = q.rows.find((r) => r.highlighted);
  const options = q.rows.some((r) => r.preview)
    ? h("div", { class: "options" }, list, beside && previewOf(beside, "beside"))
    : list;
  return h(
    "section",
    { class: "question" },
    h("fieldset", { "aria-describedby": q.count ? `count-${q.q}` : undefined }, legend, ...about, options),
    buttonsOf(q.buttons, acts),
  );
}

/**
 * An option's preview: under it on a narrow screen, beside the list on a wide one (page.css shows one of the two,
 * and a hidden one is neither read nor focused).
 */
function previewOf(row: RowView, where: "under" | "beside"): HTMLElement | undefined {
  if (!row.preview) return undefined;
  return h(
    "div",
    { class: `preview ${where}`, role: "region", tabindex: "0", "aria-label": `Preview of ${row.label}` },
    ...row.preview.map((line) =>
      h("span", { class: `line${line.code ? " code" : ""}${line.tone ? ` ${line.tone}` : ""}` }, line.text),
    ),
  );
}

/** The field is made empty: the page puts the text in, and keeps it while the person types. */
function editorOf(editor: EditorView, acts: Acts, labelledBy?: string): HTMLElement {
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
    "aria-labelledby": labelledBy ? `${labelledBy} label-${id}` : undefined,
  };
  const field = editor.multiline ? h("textarea", { rows: "4", ...attrs }) : h("input", { type: "text", ...attrs });
  if (editor.close) acts.use.set(`close:${editor.id}`, { send: [{ type: "CANCEL" }] });
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
      editor.good && h("p", { class: "good" }, "✓ ", editor.good),
    ),
    h(
      "div",
      { class: "buttons" },
      h("button", { type: "submit", class: "primary", "data-key": `save:${editor.id}` }, editor.save),
      editor.close && h("button", { type: "button", "data-key": `close:${editor.id}` }, editor.close),
    ),
  );
}

function reviewOf(r: ReviewView, acts: Acts): HTMLElement {
  const list = h("ul", { class: "entries" });
  r.entries.forEach((entry, i) => {
    const key = `entry:${i}`;
    acts.use.set(key, { send: entry.select });
    acts.focus.set(key, entry.focus);
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
            disabled: entry.select.length === 0 ? true : undefined,
          },
          h("span", { class: "label" }, entry.label, ": "),
          h("span", { class: "answer" }, entry.text),
          h("span", { class: "hidden" }, " (change)"),
        ),
      ),
    );
  });
  return h(
    "section",
    { class: "review" },
    h("h2", {}, r.entries.length ? "Review your answers" : "Confirm"),
    r.entries.length > 0 && list,
    r.notes && !r.editor && h("p", { class: "notes" }, "Additional notes: ", h("span", {}, r.notes)),
    r.editor && editorOf(r.editor, acts),
    h("p", { class: r.ready ? "ready" : "blocked" }, r.status),
    buttonsOf(r.buttons, acts),
  );
}
