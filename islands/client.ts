// The island bootstrap, loaded as a module only on pages that carry islands. The server renders
// each island as `<div id data-island="Name" data-ssr="1|0">` plus its props in
// `<script type="application/json" id="<id>-props">` (src/pages/chat/Island.tsx). Each island's
// code arrives by dynamic import, so a page loads only the islands it shows. Islands the server
// rendered are hydrated; one it could not render (data-ssr="0") is rendered fresh. Props are
// taken out of the page as they are read (the chat island's carry the session token).
import "./legacy/fallbacks.ts";
import { createElement } from "react";
import { createRoot, hydrateRoot } from "react-dom/client";
import { islandLoaders } from "island-loaders";
import { markRan } from "./legacy/ran.ts";
import { takeIslandProps } from "./lib/island-props.ts";
import { registerServiceWorker } from "./sw/register.ts";

markRan("client");
registerServiceWorker();

async function start(el: HTMLElement): Promise<void> {
  const name = el.dataset.island ?? "";
  const load = islandLoaders[name];
  if (!load) throw new Error(`this build has no island called "${name}"`);
  const props = takeIslandProps(el);
  const { default: Component } = await load();
  const element = createElement(Component, props);
  if (el.dataset.ssr === "1") hydrateRoot(el, element);
  else createRoot(el).render(element);
}

for (const el of document.querySelectorAll<HTMLElement>("[data-island]")) {
  start(el).catch((error: unknown) => console.error(`[islands] ${el.dataset.island}:`, error));
}
