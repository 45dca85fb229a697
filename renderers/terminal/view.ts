/**
 * The form as lines, a pure function of the snapshot. Contract: every line
 * fits `width` (CJK and emoji included); prompts and labels wrap, long values
 * are cut to a few lines ending in "…"; every model- or person-written string
 * is sanitized. Beside the lines, where each click target is.
 */
import { visibleWidth } from "@earendil-works/pi-tui";
import { canSubmit, type FormContext, SUBMIT_LINE, shownQuestions } from "../../machines/context.js";
import { hasInput } from "../../machines/entered.js";
import { discarding, type FormSnapshot, formPosition } from "../../machines/position.js";
import { type FormSpec, isTabbed } from "../../machines/spec.js";
import { displayLine, displayText, fitTo, sanitize, wrap, wrapClipped } from "../text.js";
import type { FormColor, FormTheme } from "../theme.js";
import { frame, type Hit, type Layout, type Screen } from "./frame.js";
import { DEFAULT_HINTS, discardHelp, helpLines, type KeyHints, questionHelp, reviewHelp } from "./help.js";
import { FOLD_KEY, keyName } from "./keymap.js";
import type { LineCache } from "./line-cache.js";
import {
  closesInLine,
  cooldownLine,
  DONE_WORDS,
  discardQuestion,
  droppedNotice,
  hasPreviews,
  questionRows,
} from "./presentation.js";
import { previewLines } from "./preview.js";
import { type EditorRender, PREVIEW_LINES, questionHead, rowBlocks, textBlocks } from "./question-blocks.js";
import { reviewBlocks } from "./review-blocks.js";

export type { Hit, Screen, Target } from "./frame.js";
export type { KeyHints } from "./help.js";
export { DEFAULT_HINTS } from "./help.js";

export interface ViewInput {
  spec: FormSpec;
  snapshot: FormSnapshot;
  theme: FormTheme;
  width: number;
  height: number;
  editor?: EditorRender;
  remainingMs?: number;
  timeoutMs?: number;
  notice?: string;
  message?: string;
  hints?: KeyHints;
  /** Without one every line is drawn. */
  cache?: LineCache;
  /** Work out the click targets (default); a form whose mouse is off needs none. */
  targets?: boolean;
}

const ENTRY_IN_HELP = 40;

/** From this width on, the preview is beside the list; narrower, under the option. */
export const PREVIEW_BESIDE_WIDTH = 100;
const SIDE_GAP = 3;

export function view(input: ViewInput): string[] {
  return screen(input).lines;
}

export function screen(input: ViewInput): Screen {
  const width = Math.max(1, Math.floor(input.width));
  const height = Math.max(1, Math.floor(input.height));
  if (formPosition(input.snapshot).kind === "folded") return { lines: [foldedLine(input, width)], hits: [] };
  return frame(layout(input, width, height), input.theme, width, height, input.targets !== false);
}

const EMPTY_LAYOUT: Layout = {
  header: [],
  headerHits: [],
  status: [],
  above: 0,
  below: 0,
  focus: 0,
  pinned: [],
  blocks: [],
  footer: [],
};

/** A folded form is one line, so the transcript above it can be read. */
function foldedLine(input: ViewInput, width: number): string {
  const { spec, theme } = input;
  const context = input.snapshot.context;
  const shown = shownQuestions(spec, context);
  const answered = shown.filter((i) => context.answered[i]).length;
  const what = displayLine(spec.title ?? spec.questions[0]?.prompt ?? "Form", 200);
  // The key comes first: a long title is cut at the width, the way back never is.
  const line = `▸ ${keyName(FOLD_KEY)} opens the form again · ${answered}/${shown.length} answered · ${what}`;
  return theme.fg("accent", fitTo(line, width));
}

function layout(input: ViewInput, width: number, height: number): Layout {
  const { spec, theme, cache } = input;
  const hints = input.hints ?? DEFAULT_HINTS;
  const position = formPosition(input.snapshot);
  if (position.kind === "folded") return { ...EMPTY_LAYOUT, pinned: [foldedLine(input, width)] };
  const context = input.snapshot.context;
  const tabbed = isTabbed(spec);

  let header = cached(cache, `top\0${width}`, () => topLines(spec, input.notice, theme, width));
  let headerHits: Hit[] = [];
  if (tabbed && spec.questions.length > 0 && position.kind !== "waiting" && position.kind !== "done") {
    const active = position.kind === "review" ? -1 : position.q;
    const bar = tabBarOf(spec, context, active, theme, width, cache);
    if (input.targets !== false) {
      const at = header.length;
      headerHits = at === 0 ? bar.hits : bar.hits.map((h) => ({ ...h, line: h.line + at }));
    }
    header = header.length === 0 ? bar.lines : [...header, ...bar.lines];
  }
  const asking = discarding(position);
  const message = asking ? discardQuestion(spec, context) : input.message;
  const timed = input.timeoutMs !== undefined && position.kind !== "waiting" && position.kind !== "done";
  const dropped = position.kind === "done" ? undefined : droppedNotice(spec, context);
  const status = [message, dropped, timed ? timeoutLine(spec, input.timeoutMs!) : undefined]
    .filter((text): text is string => !!text)
    .flatMap((text) => wrap(text, width, " ").map((l) => theme.fg("warning", l)));
  const out: Layout = { header, headerHits, status, above: 0, below: 0, focus: 0, pinned: [], blocks: [], footer: [] };
  if (cache) out.border = cache.lines(`border\0${width}`, () => theme.fg("accent", "─".repeat(width)));
  // The help footer, kept by what decides its groups (`what`); the hints are the form's own.
  const footerOf = (what: string, groups: () => string[]) =>
    cached(cache, `footer\0${width}\0${what}`, () => helpLines(groups(), width).map((l) => theme.fg("dim", l)));
  const discardFooter = () => footerOf("discard", () => discardHelp(hints));

  if (position.kind === "question") {
    const k = position.q;
    const q = spec.questions[k];
    // While Esc asks whether to discard, the question stays as it was, the editor closed.
    const mode = position.mode === "discarding" ? "choosing" : position.mode;
    const entered = hasInput(spec, context);
    out.footer = asking
      ? discardFooter()
      : footerOf(`q${k}\0${mode}\0${entered}`, () => questionHelp(q, mode, tabbed, hints, entered));
    out.pinned = cached(cache, `head\0${k}\0${width}`, () => questionHead(q, theme, width));
    if (q.kind === "text") return Object.assign(out, textBlocks(q, context.drafts[k], input.editor, theme, width));
    // A typed answer's editor (a row without a preview) takes the whole width.
    if (hasPreviews(q) && width >= PREVIEW_BESIDE_WIDTH && mode !== "typing") {
      const listWidth = Math.min(60, Math.floor((width - SIDE_GAP) * 0.45));
      Object.assign(out, rowBlocks(q, k, context, mode, input.editor, theme, listWidth, height, false, cache));
      const cursor = context.cursors[k];
      const preview = questionRows(q, k, context, cursor, cursor + 1)[0]?.preview;
      const lines = preview ? previewLines(preview, width - listWidth - SIDE_GAP, 2 * PREVIEW_LINES, theme) : [];
      out.side = { lines, listWidth };
      return out;
    }
    return Object.assign(out, rowBlocks(q, k, context, mode, input.editor, theme, width, height, true, cache));
  }
  if (position.kind === "review") {
    const mode = position.mode === "discarding" ? "reviewing" : position.mode;
    const entered = hasInput(spec, context);
    const blocked = !canSubmit(spec, context);
    out.footer = asking
      ? discardFooter()
      : footerOf(`review\0${mode}\0${entered}\0${context.reviewCursor}\0${blocked}`, () =>
          reviewHelp(mode, hints, {
            additionalNotes: spec.additionalNotes === true,
            entered,
            declinable: spec.declinable === true,
            questions: spec.questions.length > 0,
            blocked,
            onEntry:
              context.reviewCursor === SUBMIT_LINE
                ? undefined
                : displayLine(spec.questions[context.reviewCursor].label, ENTRY_IN_HELP),
          }),
        );
    return Object.assign(out, reviewBlocks(spec, context, mode, input.editor, theme, width));
  }
  if (position.kind === "waiting") {
    const lines = wrap(`${cooldownLine(input.remainingMs ?? 0)}.`, width, " ");
    out.pinned = lines.map((l) => theme.fg("muted", l));
    out.footer = footerOf("waiting", () => [`${hints.cancel} cancel`]);
    return out;
  }
  out.pinned = [theme.fg("muted", fitTo(` ${DONE_WORDS[position.outcome]}`, width))];
  return out;
}

function topLines(spec: FormSpec, notice: string | undefined, theme: FormTheme, width: number): string[] {
  const lines: string[] = [];
  if (spec.title)
    for (const l of wrapClipped(sanitize(spec.title), width, 3, " ")) lines.push(theme.bold(theme.fg("accent", l)));
  if (spec.description)
    for (const l of wrapClipped(sanitize(spec.description), width, 3, " ")) lines.push(theme.fg("muted", l));
  if (notice) for (const l of wrap(notice, width, " ")) lines.push(theme.fg("success", l));
  return lines;
}

function timeoutLine(spec: FormSpec, ms: number): string {
  return `${closesInLine(spec, ms)}; press any key to take your time.`;
}

/** `draw()`'s lines, kept under `key` (all that they show) when there is a cache. */
function cached<T>(cache: LineCache | undefined, key: string, draw: () => T): T {
  return cache ? cache.lines(key, draw) : draw();
}

function tabBarOf(
  spec: FormSpec,
  context: FormContext,
  active: number,
  theme: FormTheme,
  width: number,
  cache: LineCache | undefined,
) {
  if (!cache) return tabBar(spec, context, active, theme, width);
  // What the bar shows follows from the answers and the selections.
  return cache.tabs(context.answered, context.picks, active, width, () => {
    let ticks = "";
    for (const i of shownQuestions(spec, context)) ticks += `${i}${context.answered[i] ? "+" : "-"},`;
    const key = `tabs\0${width}\0${active}\0${canSubmit(spec, context)}\0${ticks}`;
    return cache.lines(key, () => tabBar(spec, context, active, theme, width));
  });
}

function tabBar(spec: FormSpec, context: FormContext, active: number, theme: FormTheme, width: number) {
  const shown = shownQuestions(spec, context);
  const answeredCount = shown.filter((i) => context.answered[i]).length;
  const items = shown.map((i) => {
    const done = context.answered[i];
    const text = ` ${done ? "■" : "□"} ${displayText(spec.questions[i].label, 200).replace(/\s+/g, " ")} `;
    const styled =
      i === active ? theme.bg("selectedBg", theme.fg("text", text)) : theme.fg(done ? "success" : "muted", text);
    return { text, styled, target: { kind: "tab" as const, q: i } };
  });
  // Ticked like an answered question once the form can be submitted, and not before.
  const ready = canSubmit(spec, context);
  const submitText = ready ? " ✓ Submit " : " □ Submit ";
  const submitColor: FormColor = ready ? "success" : "dim";
  items.push({
    text: submitText,
    styled: active === -1 ? theme.bg("selectedBg", theme.fg("text", submitText)) : theme.fg(submitColor, submitText),
    target: { kind: "submit" } as never,
  });
  const counter = ` ${answeredCount}/${shown.length}`;
  items.push({ text: counter, styled: theme.fg("dim", counter), target: undefined as never });

  const lines: string[] = [];
  const hits: Hit[] = [];
  let line = "";
  let used = 0;
  for (const item of items) {
    const w = visibleWidth(item.text);
    if (used > 0 && used + w > width) {
      lines.push(line);
      line = "";
      used = 0;
    }
    line += w > width ? fitTo(item.styled, width) : item.styled;
    if (item.target) hits.push({ line: lines.length, from: used, to: used + Math.min(w, width), target: item.target });
    used += Math.min(w, width);
  }
  if (line) lines.push(line);
  return { lines, hits };
}
