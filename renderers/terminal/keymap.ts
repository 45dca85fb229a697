/**
 * Key bytes → semantic form events, aware of where the form stands.
 *
 * Contract: ↑/↓ and k/j move, PageUp/PageDown move a page, Home/End jump
 * (in a list, and on the review screen over its entries and the submit line),
 * 1–9 choose a row or go to a question from the review (y / n the answer of a yes/no question), Space toggles, a / i tick all (or none) / invert a
 * multi-select, Enter confirms, Esc backs out one level — and once something
 * was entered asks first (Esc again or Enter discards, any other key goes
 * back) — Tab/→ and Shift+Tab/← switch tabs, d declines on the review tab of
 * a form that can be declined, Alt+H folds the form to one line and opens it again. Actions Pi lets users remap
 * (`tui.select.*`, `tui.input.submit`) are matched through the keybindings
 * manager Pi passes in, so a user's remapping is honoured. While the editor is
 * open every key but submit and cancel belongs to the editor.
 *
 * The same table answers the inverse question — which keys produce an event —
 * so generated path tests press exactly what this keymap understands and the
 * review page labels each edge with its keys.
 */
import { isKittyProtocolActive, type Keybinding, type KeyId, matchesKey } from "@earendil-works/pi-tui";
import type { FormContext, FormEvent } from "../../machines/context.js";
import { discarding, type FormPosition } from "../../machines/position.js";
import { PAGE } from "../../machines/rows.js";
import { type FormSpec, yesNoRow } from "../../machines/spec.js";
import type { KeyHints } from "./help.js";

/**
 * What the form needs of Pi's `KeybindingsManager`: the keys bound to an
 * action now (Pi can change them in place, so they are asked for on every key).
 */
export interface KeyMatcher {
  getKeys(binding: Keybinding): KeyId[];
}

export interface KeyContext {
  spec: FormSpec;
  position: FormPosition;
  context: FormContext;
  /** The editor's current text, read when Enter submits it. */
  editorText(): string;
}

type Mode = "choosing" | "typing" | "review" | "waiting" | "discarding" | "folded";

/** Folds the form to one line and opens it again: bound by Pi to nothing, and typed by no editor. */
export const FOLD_KEY: KeyId = "alt+h";

interface Binding {
  modes: Mode[];
  /** A remappable Pi action, matched through the keybindings manager. */
  action?: Keybinding;
  /** Fixed keys, matched in addition to the action's keys. */
  keys: KeyId[];
  /** Only where this holds (a feature the form has). */
  when?: (k: KeyContext) => boolean;
  event(k: KeyContext): FormEvent;
}

const questionHasNotes = (k: KeyContext) => k.position.kind === "question" && k.spec.questions[k.position.q].notes;
const multiSelect = (k: KeyContext) =>
  k.position.kind === "question" && k.spec.questions[k.position.q].kind === "multi";
/** The row a yes/no question answers with for `key`, or undefined. */
const yesNo = (k: KeyContext, key: "y" | "n") =>
  k.position.kind === "question" ? yesNoRow(k.spec.questions[k.position.q], key) : undefined;
const formHasAdditionalNotes = (k: KeyContext) => k.spec.additionalNotes === true;
const formIsDeclinable = (k: KeyContext) => k.spec.declinable === true;

export { PAGE };

/** Where the cursor keys move: a question's list, and the review screen's entries. */
const LISTS: Mode[] = ["choosing", "review"];
/** A review screen without questions (a bare confirmation) has nothing to move over. */
const hasList = (k: KeyContext) => k.position.kind !== "review" || k.spec.questions.length > 0;

const BINDINGS: Binding[] = [
  // First, so that an open editor does not take it.
  { modes: ["choosing", "typing", "review"], keys: [FOLD_KEY], event: () => ({ type: "FOLD" }) },
  { modes: ["folded"], keys: [FOLD_KEY], event: () => ({ type: "UNFOLD" }) },
  { modes: ["typing", "waiting"], action: "tui.select.cancel", keys: [], event: () => ({ type: "CANCEL" }) },
  {
    modes: ["typing"],
    action: "tui.input.submit",
    keys: [],
    event: (k) => ({ type: "SUBMIT_TEXT", text: k.editorText() }),
  },
  // In a list the highlight moves; on the review screen, a cursor over its entries and the submit line.
  { modes: LISTS, when: hasList, action: "tui.select.up", keys: ["k"], event: () => ({ type: "MOVE", delta: -1 }) },
  { modes: LISTS, when: hasList, action: "tui.select.down", keys: ["j"], event: () => ({ type: "MOVE", delta: 1 }) },
  {
    modes: LISTS,
    when: hasList,
    action: "tui.select.pageUp",
    keys: [],
    event: () => ({ type: "MOVE", delta: -PAGE }),
  },
  {
    modes: LISTS,
    when: hasList,
    action: "tui.select.pageDown",
    keys: [],
    event: () => ({ type: "MOVE", delta: PAGE }),
  },
  { modes: LISTS, when: hasList, keys: ["home"], event: () => ({ type: "MOVE_TO", to: "first" }) },
  { modes: LISTS, when: hasList, keys: ["end"], event: () => ({ type: "MOVE_TO", to: "last" }) },
  { modes: ["choosing"], keys: ["space"], event: () => ({ type: "TOGGLE" }) },
  { modes: ["choosing"], keys: ["n"], when: questionHasNotes, event: () => ({ type: "NOTE" }) },
  // A yes/no question is answered by the initial of its answer.
  {
    modes: ["choosing"],
    keys: ["y"],
    when: (k) => yesNo(k, "y") !== undefined,
    event: (k) => ({ type: "SELECT", row: yesNo(k, "y")! }),
  },
  {
    modes: ["choosing"],
    keys: ["n"],
    when: (k) => yesNo(k, "n") !== undefined,
    event: (k) => ({ type: "SELECT", row: yesNo(k, "n")! }),
  },
  { modes: ["choosing"], keys: ["a"], when: multiSelect, event: () => ({ type: "TOGGLE_ALL" }) },
  { modes: ["choosing"], keys: ["i"], when: multiSelect, event: () => ({ type: "INVERT" }) },
  // Asked whether to discard the answers: Esc again or Enter discards, any other key goes back.
  { modes: ["discarding"], action: "tui.select.cancel", keys: [], event: () => ({ type: "CANCEL" }) },
  { modes: ["discarding"], action: "tui.select.confirm", keys: [], event: () => ({ type: "CONFIRM" }) },
  { modes: ["discarding"], keys: ["space"], event: () => ({ type: "RESUME" }) },
  { modes: ["review"], keys: ["n"], when: formHasAdditionalNotes, event: () => ({ type: "NOTE" }) },
  { modes: ["review"], keys: ["d"], when: formIsDeclinable, event: () => ({ type: "DECLINE" }) },
  { modes: ["choosing", "review"], action: "tui.select.confirm", keys: [], event: () => ({ type: "CONFIRM" }) },
  { modes: ["choosing", "review"], action: "tui.select.cancel", keys: [], event: () => ({ type: "CANCEL" }) },
  { modes: ["choosing", "review"], keys: ["tab", "right"], event: () => ({ type: "NEXT_TAB" }) },
  { modes: ["choosing", "review"], keys: ["shift+tab", "left"], event: () => ({ type: "PREV_TAB" }) },
  // In the editor ←/→ move the caret, so only Tab/Shift+Tab switch questions.
  { modes: ["typing"], keys: ["tab"], event: () => ({ type: "NEXT_TAB" }) },
  { modes: ["typing"], keys: ["shift+tab"], event: () => ({ type: "PREV_TAB" }) },
];

/**
 * pi-tui's `matchesKey` answers, by key id and bytes, apart for each state of
 * the kitty keyboard protocol (some bytes mean another key under it):
 * `matchesKey` parses the key id on every call, and a key that matches late
 * is checked against a dozen ids, fixed or bound to Pi's actions. Bytes of a paste are not kept.
 */
const answers = [new Map<KeyId, Map<string, boolean>>(), new Map<KeyId, Map<string, boolean>>()];
const KEPT_BYTES = 16;
const KEPT_PER_ID = 64;

/** `matchesKey(data, id)`, worked out once per key id and bytes. */
export function keyIs(data: string, id: KeyId): boolean {
  if (data.length > KEPT_BYTES) return matchesKey(data, id);
  const byId = answers[isKittyProtocolActive() ? 1 : 0];
  let seen = byId.get(id);
  if (!seen) {
    seen = new Map();
    byId.set(id, seen);
  }
  let answer = seen.get(data);
  if (answer === undefined) {
    if (seen.size >= KEPT_PER_ID) seen.clear();
    answer = matchesKey(data, id);
    seen.set(data, answer);
  }
  return answer;
}

/**
 * Whether the bytes are one of the keys bound to a remappable action, as
 * Pi's keybindings manager matches them (each of the action's keys in turn),
 * with each key id's answer worked out once per bytes.
 */
function actionIs(data: string, action: Keybinding, kb: KeyMatcher): boolean {
  for (const id of kb.getKeys(action)) if (keyIs(data, id)) return true;
  return false;
}

/** Editors (a typed answer, a note, additional notes) all take keys the same way. */
function modeOf(position: FormPosition): Mode | undefined {
  if (discarding(position)) return "discarding";
  if (position.kind === "question") return position.mode === "choosing" ? "choosing" : "typing";
  if (position.kind === "review") return position.mode === "writing" ? "typing" : "review";
  if (position.kind === "waiting") return "waiting";
  if (position.kind === "folded") return "folded";
  return undefined;
}

/**
 * The event a key produces, `"editor"` when the key belongs to the open
 * editor, or `undefined` when the form ignores it.
 */
export function keyToEvent(data: string, k: KeyContext, kb: KeyMatcher): FormEvent | "editor" | undefined {
  const mode = modeOf(k.position);
  if (!mode) return undefined;
  for (const b of BINDINGS) {
    if (!b.modes.includes(mode) || (b.when && !b.when(k))) continue;
    if (b.action && actionIs(data, b.action, kb)) return b.event(k);
    for (const id of b.keys) if (keyIs(data, id)) return b.event(k);
  }
  if (mode === "typing") return "editor";
  if (mode === "discarding") return { type: "RESUME" };
  // 1–9 choose a row of the list, or on the review screen go back to that question.
  if ((mode === "choosing" || mode === "review") && /^[1-9]$/.test(data))
    return { type: "SELECT", row: Number(data) - 1 };
  return undefined;
}

function sameEvent(a: FormEvent, b: FormEvent): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/**
 * The keys that send `event` in the current position, in the order the table
 * above tries them: the user's bindings of a remappable action first, then
 * the fixed keys. A digit stands for SELECT. Empty when no key sends it here.
 */
export function keysForEvent(event: FormEvent, k: KeyContext, kb: KeyMatcher): KeyId[] {
  const mode = modeOf(k.position);
  if (!mode) return [];
  if (event.type === "SELECT") return event.row >= 0 && event.row < 9 ? [String(event.row + 1) as KeyId] : [];
  const keys: KeyId[] = [];
  for (const b of BINDINGS) {
    if (!b.modes.includes(mode) || (b.when && !b.when(k)) || !sameEvent(b.event(k), event)) continue;
    keys.push(...(b.action ? kb.getKeys(b.action) : []), ...b.keys);
  }
  return [...new Set(keys)];
}

const KEY_NAMES: Record<string, string> = {
  up: "↑",
  down: "↓",
  left: "←",
  right: "→",
  enter: "Enter",
  escape: "Esc",
  tab: "Tab",
  space: "Space",
  home: "Home",
  end: "End",
  pageUp: "PgUp",
  pageDown: "PgDn",
  ctrl: "Ctrl",
  shift: "Shift",
  alt: "Alt",
};

/** A key id as the help line names it: `↑`, `Enter`, `Shift+Tab`, `Ctrl+C`. */
export function keyName(id: KeyId): string {
  let name = names.get(id);
  if (name === undefined) {
    const parts = id.split("+");
    name = parts
      .map((part) => KEY_NAMES[part] ?? (parts.length > 1 && part.length === 1 ? part.toUpperCase() : part))
      .join("+");
    if (names.size >= KEPT_PER_ID) names.clear();
    names.set(id, name);
  }
  return name;
}

/** Each key id's name, worked out once (every form names the keys of its help line). */
const names = new Map<KeyId, string>();

const nameOr = (id: KeyId | undefined, fallback: string) => (id ? keyName(id) : fallback);

/** Key names for the help line, from the user's bindings. */
export function hintsFrom(kb: KeyMatcher): KeyHints {
  return {
    up: nameOr(kb.getKeys("tui.select.up")[0], "↑"),
    down: nameOr(kb.getKeys("tui.select.down")[0], "↓"),
    confirm: nameOr(kb.getKeys("tui.select.confirm")[0], "Enter"),
    cancel: nameOr(kb.getKeys("tui.select.cancel")[0], "Esc"),
  };
}

/** What an unbound key gets: a printable character says it does nothing here; other sequences pass silently. */
export function unboundKey(data: string): string | undefined {
  if ([...data].length !== 1 || !/\p{L}|\p{N}|\p{P}|\p{S}/u.test(data)) return undefined;
  return `"${data}" does nothing here; the keys that work are listed below.`;
}
