// The classic-script loader for browsers that do not run the module build (islands/legacy/ran.ts).
// Pages name it after their module scripts, `defer`, so it runs after them, in document order, with
// `data-legacy` = [[page script name, classic build URL], ...]. A browser where every module script
// ran loads nothing more.
import { hasRun } from "./ran.ts";

export function missingScripts(list: unknown, ran: (name: string) => boolean): string[] {
  if (!Array.isArray(list)) return [];
  const urls: string[] = [];
  for (const item of list) {
    if (Array.isArray(item) && typeof item[0] === "string" && typeof item[1] === "string" && !ran(item[0])) urls.push(item[1]);
  }
  return urls;
}

function boot(): void {
  const holder = document.querySelector<HTMLScriptElement>("script[data-legacy]");
  let list: unknown = null;
  try {
    list = JSON.parse(holder?.getAttribute("data-legacy") ?? "null");
  } catch {
    return;
  }
  for (const url of missingScripts(list, (name) => hasRun(name))) {
    const script = document.createElement("script");
    script.src = url;
    // Run in the order listed, like the module scripts they stand in for.
    script.async = false;
    document.head.appendChild(script);
  }
}

if (typeof document !== "undefined") boot();
