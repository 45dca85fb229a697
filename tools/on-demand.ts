/**
 * The doors from what Pi loads at start to what loads on demand. Nothing
 * that registers with Pi imports either but through here, and only as a
 * promise; the build makes each a file of its own.
 *
 * - the engine (tools/engine/: the statechart, the terminal view, the
 *   checks, what answers a call), loaded by the first call, the first form
 *   or the warm-up after the session starts (dist/engine.cjs);
 * - the review page (renderers/review/), loaded by the first
 *   `/formchart review` (dist/review.cjs).
 */
export const loadEngine = () =>
  (engine ??= kept(
    () => import("./engine/index.js"),
    () => (engine = undefined),
  ));

export type Engine = typeof import("./engine/index.js");
let engine: Promise<Engine> | undefined;

export const loadReviewPage = () =>
  (reviewPage ??= kept(
    () => import("../renderers/review/page.js"),
    () => (reviewPage = undefined),
  ));
let reviewPage: Promise<typeof import("../renderers/review/page.js")> | undefined;

/**
 * A door's module, loaded once: every call after the first gets the same
 * promise (the bundle's namespace is built once, not on every tool call); a
 * load that failed is tried again next time.
 */
function kept<T>(load: () => Promise<T>, forget: () => void): Promise<T> {
  return load().catch((error: unknown) => {
    forget();
    throw error;
  });
}
