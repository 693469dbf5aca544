// The one way the page makes elements: text goes in through textContent, attributes through
// setAttribute — never innerHTML, so a payload is always shown as the characters it holds.

type Child = Node | string | false | null | undefined;

/** `<tag attrs…>children</tag>`; strings become text nodes, falsy children are skipped. */
export function el<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attrs: Record<string, string | boolean | undefined> = {},
  ...children: Child[]
): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) {
    if (value === undefined || value === false) continue;
    node.setAttribute(name, value === true ? '' : value);
  }
  for (const child of children) {
    if (child === false || child === null || child === undefined) continue;
    node.append(typeof child === 'string' ? document.createTextNode(child) : child);
  }
  return node;
}

/** A value as text: strings as they are, anything else as JSON. */
export function asText(value: unknown): string {
  if (typeof value === 'string') return value;
  const json = JSON.stringify(value);
  return json === undefined ? String(value) : json;
}

/** `children` without the falsy ones, for `replaceChildren`. */
export function present(...children: Child[]): (Node | string)[] {
  return children.filter((child): child is Node | string => Boolean(child));
}
