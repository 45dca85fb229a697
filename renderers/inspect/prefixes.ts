interface PrefixNode {
  next: Map<string, PrefixNode>;
  /** A route ending here was kept: an equal one after it is not. */
  kept: boolean;
}

/**
 * The routes whose events are not the start of (or the same as) a route kept
 * before them, longest first (ties in their order). Each route's events go into
 * a tree of prefixes once, so this is linear in the steps of all routes.
 */
export function withoutPrefixes<P extends { steps: ReadonlyArray<{ event: unknown }> }>(paths: readonly P[]): P[] {
  const root: PrefixNode = { next: new Map(), kept: false };
  const ends = paths.map((path) => {
    let node = root;
    for (const step of path.steps) {
      const event = JSON.stringify(step.event);
      let child = node.next.get(event);
      if (!child) {
        child = { next: new Map(), kept: false };
        node.next.set(event, child);
      }
      node = child;
    }
    return node;
  });
  const longestFirst = paths.map((_, i) => i).sort((a, b) => paths[b].steps.length - paths[a].steps.length);
  const kept: P[] = [];
  for (const i of longestFirst) {
    const end = ends[i];
    if (end.next.size > 0 || end.kept) continue;
    end.kept = true;
    kept.push(paths[i]);
  }
  return kept;
}
