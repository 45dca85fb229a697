/**
 * The keymap, written out by hand: which bytes mean which event where the
 * form stands. Path tests press the keys the keymap itself names for each
 * event, so a wrong binding would replay "correctly" there; this table is
 * the independent statement of the bindings the help line and docs promise.
 */

import { getKeybindings, setKittyProtocolActive } from "@earendil-works/pi-tui";
import { describe, expect, it } from "@jest/globals";
import { initialContext } from "../machines/context.js";
import type { FormPosition } from "../machines/position.js";
import { normalizeForm } from "../machines/spec.js";
import { keysForEvent, keyToEvent } from "../renderers/terminal/keymap.js";

const spec = normalizeForm({
  additionalNotes: true,
  questions: [
    { prompt: "Pick", options: [{ label: "A" }, { label: "B" }], notes: true },
    { prompt: "Name?", options: [], kind: "text" },
  ],
});
const kb = getKeybindings();
const at = (position: FormPosition) => ({
  spec,
  position,
  context: initialContext(spec),
  editorText: () => "typed text",
});
const choosing = at({ kind: "question", q: 0, mode: "choosing" });
const typing = at({ kind: "question", q: 1, mode: "typing" });
const review = at({ kind: "review", mode: "reviewing" });
const waiting = at({ kind: "waiting" });

describe("keys on the option list", () => {
  it.each([
    ["↑", "\x1b[A", { type: "MOVE", delta: -1 }],
    ["↓", "\x1b[B", { type: "MOVE", delta: 1 }],
    ["k", "k", { type: "MOVE", delta: -1 }],
    ["j", "j", { type: "MOVE", delta: 1 }],
    ["PageUp", "\x1b[5~", { type: "MOVE", delta: -5 }],
    ["PageDown", "\x1b[6~", { type: "MOVE", delta: 5 }],
    ["Home", "\x1b[H", { type: "MOVE_TO", to: "first" }],
    ["End", "\x1b[F", { type: "MOVE_TO", to: "last" }],
    ["1", "1", { type: "SELECT", row: 0 }],
    ["9", "9", { type: "SELECT", row: 8 }],
    ["Space", " ", { type: "TOGGLE" }],
    ["Enter", "\r", { type: "CONFIRM" }],
    ["Esc", "\x1b", { type: "CANCEL" }],
    ["Tab", "\t", { type: "NEXT_TAB" }],
    ["→", "\x1b[C", { type: "NEXT_TAB" }],
    ["Shift+Tab", "\x1b[Z", { type: "PREV_TAB" }],
    ["←", "\x1b[D", { type: "PREV_TAB" }],
    ["n (a question with notes)", "n", { type: "NOTE" }],
  ])("%s", (_name, bytes, event) => {
    expect(keyToEvent(bytes, choosing, kb)).toEqual(event);
  });

  it("ignores keys it does not bind", () => {
    for (const bytes of ["0", "x", "\x1b[1;5A"]) expect(keyToEvent(bytes, choosing, kb)).toBeUndefined();
  });
});

describe("keys in an open editor", () => {
  it.each([
    ["Enter submits the editor's text", "\r", { type: "SUBMIT_TEXT", text: "typed text" }],
    ["Esc", "\x1b", { type: "CANCEL" }],
    ["Tab", "\t", { type: "NEXT_TAB" }],
    ["Shift+Tab", "\x1b[Z", { type: "PREV_TAB" }],
  ])("%s", (_name, bytes, event) => {
    expect(keyToEvent(bytes, typing, kb)).toEqual(event);
  });

  it("leaves letters, digits, arrows and j/k to the editor", () => {
    for (const bytes of ["a", "1", "j", "k", " ", "\x1b[C", "\x1b[D", "\x1b[A"])
      expect(keyToEvent(bytes, typing, kb)).toBe("editor");
  });
});

describe("keys on the review screen and during a countdown", () => {
  it.each([
    ["Enter submits", review, "\r", { type: "CONFIRM" }],
    ["a digit goes to that question", review, "2", { type: "SELECT", row: 1 }],
    ["n writes additional notes", review, "n", { type: "NOTE" }],
    ["Tab", review, "\t", { type: "NEXT_TAB" }],
    ["Shift+Tab", review, "\x1b[Z", { type: "PREV_TAB" }],
    ["Esc", review, "\x1b", { type: "CANCEL" }],
    ["Esc cancels a countdown", waiting, "\x1b", { type: "CANCEL" }],
    ["↑ moves the cursor over the entries", review, "\x1b[A", { type: "MOVE", delta: -1 }],
    ["↓", review, "\x1b[B", { type: "MOVE", delta: 1 }],
    ["k", review, "k", { type: "MOVE", delta: -1 }],
    ["j", review, "j", { type: "MOVE", delta: 1 }],
    ["PageUp", review, "\x1b[5~", { type: "MOVE", delta: -5 }],
    ["PageDown", review, "\x1b[6~", { type: "MOVE", delta: 5 }],
    ["Home goes to the first entry", review, "\x1b[H", { type: "MOVE_TO", to: "first" }],
    ["End goes to the submit line", review, "\x1b[F", { type: "MOVE_TO", to: "last" }],
  ])("%s", (_name, where, bytes, event) => {
    expect(keyToEvent(bytes, where, kb)).toEqual(event);
  });

  it("a confirmation's review has no entries to move over", () => {
    const confirmation = normalizeForm({ questions: [], declinable: true });
    const k = { ...review, spec: confirmation, context: initialContext(confirmation) };
    for (const bytes of ["\x1b[A", "\x1b[B", "j", "k", "\x1b[H", "\x1b[F"])
      expect(keyToEvent(bytes, k, kb)).toBeUndefined();
    expect(keyToEvent("\r", k, kb)).toEqual({ type: "CONFIRM" });
  });

  it("a countdown takes no other key", () => {
    for (const bytes of ["\r", "1", "\t", "j"]) expect(keyToEvent(bytes, waiting, kb)).toBeUndefined();
  });
});

describe("the inverse table names the same keys", () => {
  it.each([
    [{ type: "MOVE", delta: 1 } as const, ["down", "j"]],
    [{ type: "MOVE", delta: -1 } as const, ["up", "k"]],
    [{ type: "NEXT_TAB" } as const, ["tab", "right"]],
    [{ type: "PREV_TAB" } as const, ["shift+tab", "left"]],
    [{ type: "SELECT", row: 2 } as const, ["3"]],
  ])("%j", (event, keys) => {
    expect(keysForEvent(event, choosing, kb)).toEqual(expect.arrayContaining(keys));
  });
});

describe("key ids worked out once", () => {
  it("the same bytes are read again under the kitty keyboard protocol, where they mean another key", () => {
    // Without the protocol Esc h is Alt+H (the fold key); with it, Alt+H comes as a CSI u sequence.
    try {
      expect(keyToEvent("\x1bh", choosing, kb)).toEqual({ type: "FOLD" });
      setKittyProtocolActive(true);
      expect(keyToEvent("\x1bh", choosing, kb)).not.toEqual({ type: "FOLD" });
      expect(keyToEvent("\x1b[104;3u", choosing, kb)).toEqual({ type: "FOLD" });
    } finally {
      setKittyProtocolActive(false);
    }
    expect(keyToEvent("\x1bh", choosing, kb)).toEqual({ type: "FOLD" });
  });

  it("a key matched once and pressed again gives the same event, and a long paste is no key", () => {
    for (let i = 0; i < 3; i++) {
      expect(keyToEvent("\t", choosing, kb)).toEqual({ type: "NEXT_TAB" });
      expect(keyToEvent("j", choosing, kb)).toEqual({ type: "MOVE", delta: 1 });
      expect(keyToEvent("j".repeat(40), choosing, kb)).toBeUndefined();
    }
  });
});
