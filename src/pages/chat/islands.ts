// Server side of the islands: each islands/<Name>.tsx is imported on first use and rendered to
// HTML before the page, in a React root of its own, so useId and friends match the browser's
// hydrateRoot. An island file that is missing, or fails to render, leaves a server-rendered
// fallback that the browser replaces (createRoot instead of hydrateRoot).
import { existsSync } from "node:fs";
import { join } from "node:path";
import { createElement, type ComponentType } from "react";
import { renderToString } from "react-dom/server";
import type { ChatAppProps } from "../../../islands/props.ts";
import { errorFields, type Logger } from "../../observability/log.ts";
import { withStrings } from "../../../islands/i18n.ts";

/** Each island's props: plain serialisable data. */
export interface IslandProps {
  ChatApp: ChatAppProps;
}
export type IslandName = keyof IslandProps;

export interface RenderedIsland<N extends IslandName = IslandName> {
  name: N;
  props: IslandProps[N];
  /** The component's HTML, or null when the browser must render it. */
  html: string | null;
}

const islandsDir = join(import.meta.dir, "..", "..", "..", "islands");

async function loadIsland<N extends IslandName>(name: N): Promise<ComponentType<IslandProps[N]> | null> {
  const file = join(islandsDir, `${name}.tsx`);
  if (!existsSync(file)) return null;
  const module = (await import(file)) as { default?: ComponentType<IslandProps[N]> };
  return module.default ?? null;
}

export async function renderIsland<N extends IslandName>(name: N, props: IslandProps[N], log: Logger): Promise<RenderedIsland<N>> {
  try {
    const Component = await loadIsland(name);
    // The island's words are this request's language only while it renders (islands/i18n.ts).
    const render = () => (Component ? renderToString(createElement(Component, props)) : null);
    const i18n = props.i18n;
    return { name, props, html: i18n ? withStrings(i18n.locale, i18n.strings, render) : render() };
  } catch (error) {
    log.error("island not rendered on the server; the browser renders it", { island: name, ...errorFields(error) });
    return { name, props, html: null };
  }
}
