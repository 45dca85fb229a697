/**
 * Data as it reaches a review page: JSON inside a script element that it
 * cannot close, with no raw control character a terminal would act on when
 * the file is shown with `cat`.
 */

/** Controls a terminal would run, and bidirectional ones that reorder what `cat` shows: escaped in the JSON. */
const CONTROLS = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

/** JSON that can sit inside a `<script>` element: no `<`, no line separators that end it early, no raw controls. */
export function scriptJson(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, "\\u003c")
    .replace(CONTROLS, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
}
