// Reads an island's props from the `<script type="application/json" id="<id>-props">` next to
// its marker (src/pages/chat/Island.tsx) and removes that element: the chat island's props carry
// the session token, which from then on lives only in the island's memory, not in the page.
export function takeIslandProps(el: HTMLElement, doc: Document = document): object {
  const holder = doc.getElementById(`${el.id}-props`);
  const props = JSON.parse(holder?.textContent ?? "{}") as object;
  holder?.remove();
  return props;
}
