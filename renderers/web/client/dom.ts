/**
 * Elements made from text only (`textContent`, attributes), and a page part
 * brought up to date in place: `morph` keeps the elements that are still
 * there, so the focus, a field's caret and what is being typed stay put
 * while the view around them changes.
 */

export type Child = Node | string | false | undefined | null;

export function h(
  tag: string,
  attrs: Record<string, string | boolean | undefined> = {},
  ...children: Child[]
): HTMLElement {
  const el = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) {
    if (value === undefined || value === false) continue;
    if (name === "class") el.className = value as string;
    else el.setAttribute(name, value === true ? "" : value);
  }
  for (const child of children) if (child !== undefined && child !== false && child !== null) el.append(child);
  return el;
}

const keyOf = (node: Node) =>
  node instanceof HTMLElement ? (node.dataset.key ?? node.dataset.row ?? node.id) : undefined;

/** `from` made to look like `to`: attributes, a box's tick and the children, by position; an element of another kind is replaced. */
export function morph(from: Element, to: Element): void {
  for (const { name } of [...from.attributes]) if (!to.hasAttribute(name)) from.removeAttribute(name);
  for (const { name, value } of [...to.attributes])
    if (from.getAttribute(name) !== value) from.setAttribute(name, value);
  if (from instanceof HTMLInputElement && to instanceof HTMLInputElement) from.checked = to.hasAttribute("checked");
  // A field's text is the person's while they type: the page sets it itself.
  if (from instanceof HTMLTextAreaElement || from.hasAttribute("data-field")) return;
  const wanted = [...to.childNodes];
  const have = [...from.childNodes];
  wanted.forEach((next, i) => {
    const old = have[i];
    if (!old) from.append(next);
    else if (old.nodeType === Node.TEXT_NODE && next.nodeType === Node.TEXT_NODE) {
      if (old.nodeValue !== next.nodeValue) old.nodeValue = next.nodeValue;
    } else if (
      old instanceof Element &&
      next instanceof Element &&
      old.tagName === next.tagName &&
      keyOf(old) === keyOf(next)
    )
      morph(old, next);
    else old.replaceWith(next);
  });
  for (const old of have.slice(wanted.length)) old.remove();
}
