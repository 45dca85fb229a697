/** Building the page's elements: text always goes in as text, never as markup. */

export function el<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  className?: string,
  ...children: Array<Node | string | undefined | null>
): HTMLElementTagNameMap[K] {
  const e = document.createElement(tag);
  if (className) e.className = className;
  for (const c of children) if (c !== undefined && c !== null) e.append(c);
  return e;
}

export function link(text: string, hash: string, className?: string): HTMLAnchorElement {
  const a = el("a", className, text);
  a.href = `#${hash}`;
  return a;
}

/** An element the page is written with: a clear failure when the page lacks it. */
export function byId<T extends HTMLElement = HTMLElement>(id: string): T {
  const e = document.getElementById(id);
  if (!e) throw new Error(`The review page has no #${id}`);
  return e as T;
}
