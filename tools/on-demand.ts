/**
 * The doors from what Pi loads at start to the engine (dist/engine.cjs) and
 * the review page (dist/review.cjs). Nothing that registers with Pi imports
 * either but through here, and only as a promise.
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

/** One promise for every call (the namespace is built once); a load that failed is tried again next time. */
function kept<T>(load: () => Promise<T>, forget: () => void): Promise<T> {
  return load().catch((error: unknown) => {
    forget();
    throw error;
  });
}
