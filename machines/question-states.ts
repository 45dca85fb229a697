import { type ChartMoves, fold } from "./chart-moves.js";
import { formChart, questionStateKey } from "./setup.js";

export function textQuestion(moves: ChartMoves, k: number) {
  const { escFrom, discarding, tabs, advance, seekOn, skipHidden, answered } = moves;
  const p = { q: k };
  return formChart.createStateConfig({
    tags: ["question", questionStateKey(k)],
    initial: "typing",
    always: [...seekOn(k), ...skipHidden(k)],
    on: { ...tabs(k), ...advance(k) },
    states: {
      typing: {
        tags: "typing",
        on: {
          ...fold(`${questionStateKey(k)}.typing`),
          TYPE: { actions: { type: "typeAnswer", params: p } },
          SUBMIT_TEXT: {
            guard: { type: "textAccepted", params: p },
            ...answered(k, { type: "answerText", params: p }),
          },
          CANCEL: escFrom(k),
        },
      },
      discarding: discarding("typing"),
    },
  });
}

export function choiceQuestion(moves: ChartMoves, k: number) {
  const { qs, tabbed, stateOf, cancel, escFrom, discarding, holdsInput, tabs, advance, seekOn, skipHidden, answered } =
    moves;
  const q = qs[k];
  const p = { q: k };
  const toEditor = q.allowOther ? [{ guard: { type: "onOtherRow" as const, params: p }, target: "typing" }] : [];
  const choose =
    q.kind === "single"
      ? {
          CONFIRM: [
            ...toEditor,
            {
              guard: { type: "onOptionRow" as const, params: p },
              ...answered(k, { type: "pickHighlighted", params: p }),
            },
          ],
          ...(q.allowOther ? { TOGGLE: toEditor } : {}),
        }
      : {
          CONFIRM: [
            ...toEditor,
            {
              guard: { type: "selectionAccepted" as const, params: p },
              ...answered(k, { type: "confirmSelection", params: p }),
            },
          ],
          TOGGLE: [...toEditor, { actions: { type: "toggleHighlighted" as const, params: p } }],
          ...(qs[k].allMayBeChosen
            ? {
                TOGGLE_ALL: {
                  guard: { type: "allFit" as const, params: p },
                  actions: { type: "toggleAll" as const, params: p },
                },
              }
            : {}),
          INVERT: {
            guard: { type: "invertedFits" as const, params: p },
            actions: { type: "invert" as const, params: p },
          },
        };
  const noting = formChart.createStateConfig({
    tags: "noting",
    // The note is whatever is in its editor: Enter and Esc both close it, nothing typed is lost.
    on: {
      ...fold(`${questionStateKey(k)}.noting`),
      TYPE: { actions: { type: "writeNote", params: p } },
      SUBMIT_TEXT: { target: "choosing", actions: { type: "writeNote", params: p } },
      CANCEL: { target: "choosing" },
    },
  });
  // Leaving the editor by Tab keeps what it holds (the parent's move applies when it is empty).
  const keepOnTab = tabbed
    ? {
        NEXT_TAB: {
          guard: { type: "draftKept" as const, params: p },
          target: stateOf(k + 1),
          actions: [{ type: "keepDraft" as const, params: p }, "goForward" as const],
        },
        PREV_TAB: {
          guard: { type: "draftKept" as const, params: p },
          target: stateOf(k - 1),
          actions: [{ type: "keepDraft" as const, params: p }, "goBackward" as const],
        },
      }
    : {};
  const typing = formChart.createStateConfig({
    tags: "typing",
    on: {
      ...fold(`${questionStateKey(k)}.typing`),
      TYPE: { actions: { type: "saveDraft", params: p } },
      SUBMIT_TEXT:
        q.kind === "single"
          ? // A lone question submits; in a tabbed form the editor closes, then ADVANCE moves on.
            {
              guard: "hasText",
              target: tabbed ? "choosing" : "#form.submitted",
              ...answered(k, { type: "answerText", params: p }),
            }
          : { guard: "hasText", target: "choosing", actions: { type: "addTypedChoice", params: p } },
      CANCEL: { target: "choosing" },
      ...keepOnTab,
    },
  });
  return formChart.createStateConfig({
    tags: ["question", questionStateKey(k)],
    initial: "choosing",
    always: [...seekOn(k), ...skipHidden(k)],
    on: { ...tabs(k), ...advance(k) },
    states: {
      choosing: {
        tags: "choosing",
        on: {
          ...fold(`${questionStateKey(k)}.choosing`),
          MOVE: { actions: { type: "move", params: p } },
          MOVE_TO: { actions: { type: "moveTo", params: p } },
          SELECT: {
            guard: { type: "rowExists", params: p },
            actions: [{ type: "moveTo", params: p }, q.kind === "multi" ? "raiseToggle" : "raiseConfirm"],
          },
          CANCEL: holdsInput(k) ? escFrom(k) : cancel,
          ...choose,
          ...(q.notes ? { NOTE: { guard: { type: "onOptionRow", params: p }, target: "noting" } } : {}),
        },
      },
      ...(holdsInput(k) ? { discarding: discarding("choosing") } : {}),
      ...(q.notes ? { noting } : {}),
      ...(q.allowOther ? { typing } : {}),
    },
  });
}
