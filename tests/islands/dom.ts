// happy-dom for the DOM test files only (not preloaded for every file: it replaces fetch, Request,
// WebSocket and friends, STACK-NOTES). Bun runs test files in one process and evaluates this
// module once, so each DOM file calls registerDom() itself and unregisterDom() in afterAll.
// React DOM must be imported dynamically after registerDom(): it checks for a DOM once, when it
// loads, and Bun evaluates CommonJS packages ahead of the ES modules that import them.
import { GlobalRegistrator } from "@happy-dom/global-registrator";

export function registerDom(): void {
  if (!GlobalRegistrator.isRegistered) GlobalRegistrator.register({ url: "http://localhost:5001/" });
  (globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;
}

export async function unregisterDom(): Promise<void> {
  if (GlobalRegistrator.isRegistered) await GlobalRegistrator.unregister();
}

registerDom();
