// The offline page's script (issue 26): when the browser says the network is back, the server is
// asked (GET /healthz, which the service worker leaves alone) until it answers, then the page the
// person asked for loads by itself (the service worker answered its address with this page). A
// network that comes up before its route does only delays the reload.
import "../legacy/fallbacks.ts";
import { markRan } from "../legacy/ran.ts";

markRan("offline");

const TRIES = 15;
const EVERY_MS = 2000;
let trying = false;

async function comeBack(): Promise<void> {
  if (trying) return;
  trying = true;
  for (let i = 0; i < TRIES && navigator.onLine; i++) {
    try {
      if ((await fetch("/healthz", { cache: "no-store" })).ok) {
        window.location.reload();
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
