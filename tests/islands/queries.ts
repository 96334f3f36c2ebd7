// DOM queries shared by the island and call-screen tests (happy-dom has no accessible-name lookup).

/** The button whose trimmed text or aria-label is `label`, or null. */
export const button = (root: ParentNode, label: string): HTMLButtonElement | null =>
  Array.from(root.querySelectorAll("button")).find((b) => b.textContent?.trim() === label || b.getAttribute("aria-label") === label) ?? null;
