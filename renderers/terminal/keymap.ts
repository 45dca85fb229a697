/**
 * Key bytes → form events, where the form stands. Contract: the actions Pi
 * lets users remap (`tui.select.*`, `tui.input.submit`) go through Pi's
 * keybindings manager, so a remapping is honoured; while an editor is open
 * every key but submit and cancel is the editor's. The same table answers
 * which keys send an event (`keysForEvent`), for the path tests and the review page.
 */
import { isKittyProtocolActive, type Keybinding, type KeyId, matchesKey } from "@earendil-works/pi-tui";
import type { FormContext, FormEvent } from "../../machines/context.js";
import { discarding, type FormPosition } from "../../machines/position.js";
import { PAGE, rowAt } from "../../machines/rows.js";
import { type FormSpec, yesNoRow } from "../../machines/spec.js";
import { keep } from "../text.js";
import type { KeyHints } from "./help.js";

/** Pi's `KeybindingsManager`, asked on every key: Pi changes bindings in place. */
export interface KeyMatcher {
  getKeys(binding: Keybinding): KeyId[];
}

export interface KeyContext {
  spec: FormSpec;
  position: FormPosition;
  context: FormContext;
  editorText(): string;
}

type Mode = "choosing" | "typing" | "review" | "waiting" | "discarding" | "folded";

/** Bound by Pi to nothing, and typed by no editor. */
export const FOLD_KEY: KeyId = "alt+h";

interface Binding {
  modes: Mode[];
  action?: Keybinding;
  /** Matched beside the action's keys. */
  keys: KeyId[];
  when?: (k: KeyContext) => boolean;
  event(k: KeyContext): FormEvent;
}

const questionHasNotes = (k: KeyContext) => k.position.kind === "question" && k.spec.questions[k.position.q].notes;
const multiSelect = (k: KeyContext) =>
  k.position.kind === "question" && k.spec.questions[k.position.q].kind === "multi";
const yesNo = (k: KeyContext, key: "y" | "n") =>
  k.position.kind === "question" ? yesNoRow(k.spec.questions[k.position.q], key) : undefined;
const formHasAdditionalNotes = (k: KeyContext) => k.spec.additionalNotes === true;
const formIsDeclinable = (k: KeyContext) => k.spec.declinable === true;

export { PAGE };

const LISTS: Mode[] = ["choosing", "review"];
// A review screen without questions (a bare confirmation) has nothing to move over.
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
 * `matchesKey`'s answers by key id and bytes, apart for each state of the
 * kitty protocol (some bytes mean another key under it): it parses the id on
 * every call, and a key is checked against a dozen ids. Pastes are not kept.
 */
const answers = [new Map<KeyId, Map<string, boolean>>(), new Map<KeyId, Map<string, boolean>>()];
const KEPT_BYTES = 16;
const KEPT_PER_ID = 64;

export function keyIs(data: string, id: KeyId): boolean {
  if (data.length > KEPT_BYTES) return matchesKey(data, id);
  const byId = answers[isKittyProtocolActive() ? 1 : 0];
  // A hit makes no closure: a key asks this a dozen times.
  const seen = byId.get(id) ?? keep(byId, id, () => new Map<string, boolean>());
  return seen.get(data) ?? keep(seen, data, () => matchesKey(data, id), KEPT_PER_ID);
}

function actionIs(data: string, action: Keybinding, kb: KeyMatcher): boolean {
  for (const id of kb.getKeys(action)) if (keyIs(data, id)) return true;
  return false;
}

// Every editor (a typed answer, a note, additional notes) takes keys the same way.
function modeOf(position: FormPosition): Mode | undefined {
  if (discarding(position)) return "discarding";
  if (position.kind === "question") return position.mode === "choosing" ? "choosing" : "typing";
  if (position.kind === "review") return position.mode === "writing" ? "typing" : "review";
  if (position.kind === "waiting") return "waiting";
  if (position.kind === "folded") return "folded";
  return undefined;
}

/** The event a key sends, `"editor"` for the open editor's key, undefined when the form ignores it. */
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
  if ((mode === "choosing" || mode === "review") && /^[1-9]$/.test(data))
    return { type: "SELECT", row: Number(data) - 1 };
  return undefined;
}

function sameEvent(a: FormEvent, b: FormEvent): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/**
 * What a person does to select a row no digit reaches (the tenth option on): the moves that bring
 * the highlight there (PgDn or PgUp by pages, then ↓ or ↑), then what the digit would have done
 * (Enter; Space on a multi-select); nothing for a row that is not there. Any other event is itself.
 */
export function stepsToRow(event: FormEvent, k: KeyContext): FormEvent[] {
  if (event.type !== "SELECT" || event.row < 9 || k.position.kind !== "question") return [event];
  const q = k.position.q;
  // No key reaches a row that is not there.
  if (!rowAt(k.spec.questions[q], k.context.typed[q], event.row)) return [];
  let delta = event.row - k.context.cursors[q];
  const moves: FormEvent[] = [];
  for (; Math.abs(delta) >= PAGE; delta -= Math.sign(delta) * PAGE)
    moves.push({ type: "MOVE", delta: Math.sign(delta) * PAGE });
  for (; delta !== 0; delta -= Math.sign(delta)) moves.push({ type: "MOVE", delta: Math.sign(delta) });
  return [...moves, { type: k.spec.questions[q].kind === "multi" ? "TOGGLE" : "CONFIRM" }];
}

/** The keys that send `event` here, in the order the table tries them; a digit stands for SELECT. */
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
  backspace: "Backspace",
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
  return keep(
    names,
    id,
    () => {
      const parts = id.split("+");
      return parts
        .map((part) => KEY_NAMES[part] ?? (parts.length > 1 && part.length === 1 ? part.toUpperCase() : part))
        .join("+");
    },
    KEPT_PER_ID,
  );
}

const names = new Map<KeyId, string>();

const nameOr = (id: KeyId | undefined, fallback: string) => (id ? keyName(id) : fallback);

export function hintsFrom(kb: KeyMatcher): KeyHints {
  return {
    up: nameOr(kb.getKeys("tui.select.up")[0], "↑"),
    down: nameOr(kb.getKeys("tui.select.down")[0], "↓"),
    confirm: nameOr(kb.getKeys("tui.select.confirm")[0], "Enter"),
    cancel: nameOr(kb.getKeys("tui.select.cancel")[0], "Esc"),
  };
}

/** A printable character says it does nothing here; other sequences pass silently. */
export function unboundKey(data: string): string | undefined {
  if ([...data].length !== 1 || !/\p{L}|\p{N}|\p{P}|\p{S}/u.test(data)) return undefined;
  return `"${data}" does nothing here; the keys that work are listed below.`;
}

/** Backspace as a terminal sends it. */
export const BACKSPACE = "\x7f";

/**
 * The inputs that turn the editor's `draft` into `text`, as a person makes the change: a Backspace
 * for each character past where they part, then the rest of `text` typed (a route's TYPE event).
 */
export function editingInputs(draft: string, text: string): string[] {
  const from = [...draft];
  const to = [...text];
  let same = 0;
  while (same < from.length && same < to.length && from[same] === to[same]) same++;
  const typed = to.slice(same).join("");
  return [...Array<string>(from.length - same).fill(BACKSPACE), ...(typed === "" ? [] : [typed])];
}
