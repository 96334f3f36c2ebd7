// The offline page's script (issue 26): once the browser says the network is up (at once if it
// already says so when this page shows: the server was out of reach), the server is asked
// (GET /healthz, which the service worker leaves alone) until it answers, then the page the person
// asked for loads by itself (the service worker answered its address with this page). A network
// that comes up before its route only delays the reload; at most RELOADS_PER_MINUTE automatic
// reloads, so a page that keeps failing never loops.
import "../legacy/fallbacks.ts";
import { markRan } from "../legacy/ran.ts";

markRan("offline");

const TRIES = 15;
const EVERY_MS = 2000;
const RELOADS_PER_MINUTE = 3;
const RELOADS_KEY = "offlineReloads";
let trying = false;

function mayReload(): boolean {
  try {
    const now = Date.now();
    const recent = (JSON.parse(sessionStorage.getItem(RELOADS_KEY) ?? "[]") as number[]).filter((t) => now - t < 60_000);
    if (recent.length >= RELOADS_PER_MINUTE) return false;
    sessionStorage.setItem(RELOADS_KEY, JSON.stringify([...recent, now]));
    return true;
  } catch {
    return true;
  }
}

async function comeBack(): Promise<void> {
  if (trying) return;
  trying = true;
  for (let i = 0; i < TRIES && navigator.onLine; i++) {
    try {
      if ((await fetch("/healthz", { cache: "no-store" })).ok) {
        if (mayReload()) window.location.reload();
        return;
      }
    } catch {
      // Not yet.
    }
    await new Promise((resolve) => setTimeout(resolve, EVERY_MS));
  }
  trying = false;
}

window.addEventListener("online", () => void comeBack());
if (navigator.onLine) void comeBack();
