// happy-dom for the DOM test files only (not preloaded for every file: it replaces fetch, Request,
// WebSocket and friends, STACK-NOTES). Bun runs test files in one process and evaluates this
// module once, so each DOM file calls registerDom() itself and unregisterDom() in afterAll.
// React DOM decides once, when it loads, whether the page has "input" events; loaded without a
// DOM it falls back to an old-IE polyfill that fails under happy-dom. Another test file may have
// loaded it that way already (Bun evaluates CommonJS packages ahead of the ES modules importing
// them, and shares them across files), so freshReactDomClient() loads a copy of its own.
import { GlobalRegistrator } from "@happy-dom/global-registrator";
import { afterEach } from "bun:test";
import { act, type ReactNode } from "react";
import { dirname, join } from "node:path";

export function registerDom(): void {
  if (!GlobalRegistrator.isRegistered) GlobalRegistrator.register({ url: "http://localhost:5001/" });
  (globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;
}

export async function unregisterDom(): Promise<void> {
  if (GlobalRegistrator.isRegistered) await GlobalRegistrator.unregister();
}

/** react-dom/client evaluated now, with the DOM in place (call after registerDom()). */
export function freshReactDomClient(): typeof import("react-dom/client") {
  const entry = require.resolve("react-dom/client");
  // The package's exports hide its cjs/ folder from require.resolve; it sits next to the entry.
  const impl = join(dirname(entry), "cjs", `react-dom-client.${process.env.NODE_ENV === "production" ? "production" : "development"}.js`);
  delete require.cache[entry];
  delete require.cache[impl];
  return require("react-dom/client") as typeof import("react-dom/client");
}

registerDom();

/**
 * One React root per DOM test file: `mount` renders into a fresh container in the body, and
 * after every test the root is unmounted and the body emptied, so tests never see each other.
 */
export function reactRoot() {
  // A file before this one may have unregistered the DOM in its afterAll.
  registerDom();
  const { createRoot } = freshReactDomClient();
  let root: ReturnType<typeof createRoot> | null = null;
  const unmount = () => {
    act(() => root?.unmount());
    root = null;
  };
  afterEach(() => {
    unmount();
    document.body.innerHTML = "";
  });
  return {
    mount(node: ReactNode): HTMLElement {
      const host = document.createElement("div");
      document.body.append(host);
      root = createRoot(host);
      act(() => root?.render(node));
      return host;
    },
    /** For components that must mount inside an async act (lazy chunks, effects that fetch). */
    async mountAsync(node: ReactNode): Promise<HTMLElement> {
      const host = document.createElement("div");
      document.body.append(host);
      root = createRoot(host);
      await act(async () => root?.render(node));
      return host;
    },
    unmount,
  };
}
