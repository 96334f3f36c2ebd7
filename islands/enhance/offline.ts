// The offline page's script (issue 26): when the network is back, the page the person asked for
// loads by itself (the service worker answered its address with this page).
import "../legacy/fallbacks.ts";
import { markRan } from "../legacy/ran.ts";

markRan("offline");

window.addEventListener("online", () => window.location.reload());
