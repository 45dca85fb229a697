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
export const loadEngine = () => import("./engine/index.js");

export type Engine = Awaited<ReturnType<typeof loadEngine>>;

export const loadReviewPage = () => import("../renderers/review/page.js");
