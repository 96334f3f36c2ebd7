// DOM queries shared by the island and call-screen tests (happy-dom has no accessible-name lookup).

/** The button whose trimmed text or aria-label is `label`, or null. */
export const button = (root: ParentNode, label: string): HTMLButtonElement | null =>
  Array.from(root.querySelectorAll("button")).find((b) => b.textContent?.trim() === label || b.getAttribute("aria-label") === label) ?? null;

/** Sets an input's or a text area's value as typing would (through the native setter, so React sees the change). */
export function typeInto(field: HTMLInputElement | HTMLTextAreaElement, value: string): void {
  const prototype = field instanceof HTMLTextAreaElement ? HTMLTextAreaElement.prototype : HTMLInputElement.prototype;
  Object.getOwnPropertyDescriptor(prototype, "value")?.set?.call(field, value);
  field.dispatchEvent(new Event("input", { bubbles: true }));
}

/** A key pressed on `target`; answers whether the component let the default happen. */
export const press = (target: Element, key: string): boolean =>
  target.dispatchEvent(new KeyboardEvent("keydown", { key, bubbles: true, cancelable: true }));
