// The service worker (issue 26), served at /sw.js so its scope is the whole site. It keeps the
// offline page and the hashed build in a cache named after this build, and only those: /api,
// /ws, /peerjs, /uploads, pages and every other answer go to the network untouched, so nothing a
// session sees is ever stored. A navigation that finds no network is answered with the offline
// page ("You are offline"). A new build's worker installs beside the old one and waits: it takes
// over only once no tab of the old one is left (no skipWaiting), so an open chat keeps the files
// it started with. It also shows pushes (src/push/service.ts) and opens the chat clicked.
import type { PushPayload } from "../../src/push/service.ts";
import { OFFLINE_URL, type OpenChatMessage } from "./shared.ts";

// The DOM lib types `self` as a window; a service worker's scope is this much of it.
interface ExtendableEvent extends Event {
  waitUntil(promise: Promise<unknown>): void;
}
interface FetchEvent extends ExtendableEvent {
  request: Request;
  respondWith(response: Promise<Response> | Response): void;
}
interface PushEvent extends ExtendableEvent {
  data: { json(): unknown } | null;
}
interface NotificationEvent extends ExtendableEvent {
  notification: Notification;
}
interface WindowClient {
  url: string;
  focused: boolean;
  focus(): Promise<WindowClient>;
  postMessage(message: unknown): void;
}
interface Scope {
  addEventListener(type: "install" | "activate", listener: (event: ExtendableEvent) => void): void;
  addEventListener(type: "fetch", listener: (event: FetchEvent) => void): void;
  addEventListener(type: "push", listener: (event: PushEvent) => void): void;
  addEventListener(type: "notificationclick", listener: (event: NotificationEvent) => void): void;
  registration: ServiceWorkerRegistration;
  location: Location;
  clients: {
    claim(): Promise<void>;
    matchAll(options: { type: "window"; includeUncontrolled: boolean }): Promise<WindowClient[]>;
    openWindow(url: string): Promise<WindowClient | null>;
  };
}
const sw = globalThis as unknown as Scope;

/** Filled in by scripts/build-client.ts: this build's id and what to keep offline. */
const VERSION = process.env.SW_VERSION ?? "dev";
const PRECACHE: string[] = JSON.parse(process.env.SW_PRECACHE ?? "[]");
const ICON = process.env.SW_ICON ?? "/favicon.svg";
const CACHE = `webchat-${VERSION}`;

sw.addEventListener("install", (event) => {
  event.waitUntil(
    caches.open(CACHE).then((cache) =>
      // Without cookies: the offline page is the same for everyone, and no session's answer is stored.
      cache.addAll(PRECACHE.map((url) => new Request(url, { credentials: "omit", cache: "reload" }))),
    ),
  );
});

sw.addEventListener("activate", (event) => {
  // Only once every tab of the previous worker is gone: its cache can go.
  event.waitUntil(
    caches
      .keys()
      .then((keys) => Promise.all(keys.filter((key) => key.startsWith("webchat-") && key !== CACHE).map((key) => caches.delete(key))))
      .then(() => sw.clients.claim()),
  );
});

/** The hashed build: never changes under its name, so the cache answers first. */
async function buildFile(request: Request): Promise<Response> {
  const cached = await caches.match(request);
  if (cached) return cached;
  const response = await fetch(request);
  if (response.ok) {
    const copy = response.clone();
    void caches.open(CACHE).then((cache) => cache.put(request, copy));
  }
  return response;
}

/** A page: always from the network (pages carry the session); the offline page when there is none. */
async function page(request: Request): Promise<Response> {
  try {
    return await fetch(request);
  } catch (error) {
    const offline = await caches.match(OFFLINE_URL);
    if (offline) return offline;
    throw error;
  }
}

sw.addEventListener("fetch", (event) => {
  const { request } = event;
  if (request.method !== "GET") return;
  const url = new URL(request.url);
  if (url.origin !== sw.location.origin) return;
  if (request.mode === "navigate") event.respondWith(page(request));
  else if (url.pathname.startsWith("/build/")) event.respondWith(buildFile(request));
  // Anything else (/api, /ws, /peerjs, /uploads, ...) is not touched.
});

function isPayload(value: unknown): value is PushPayload {
  return typeof value === "object" && value !== null && typeof (value as { type?: unknown }).type === "string" && typeof (value as { tag?: unknown }).tag === "string";
}

async function showPush(data: PushPayload): Promise<void> {
  if (data.type === "call_ended") {
    for (const shown of await sw.registration.getNotifications({ tag: data.tag })) shown.close();
    return;
  }
  await sw.registration.showNotification(data.title, {
    body: data.body,
    tag: data.tag,
    icon: ICON,
    badge: ICON,
    data: { url: data.url, chatId: data.chatId },
    // A call keeps showing until it stops ringing (call_ended closes it) or is clicked.
    requireInteraction: data.type === "call",
    ...({ renotify: true } as object),
  });
}

sw.addEventListener("push", (event) => {
  let data: unknown = null;
  try {
    data = event.data?.json() ?? null;
  } catch {
    // Not ours: nothing to show.
  }
  if (isPayload(data)) event.waitUntil(showPush(data));
});

sw.addEventListener("notificationclick", (event) => {
  event.notification.close();
  const { url, chatId } = (event.notification.data ?? {}) as { url?: string; chatId?: number };
  if (typeof url !== "string" || typeof chatId !== "number") return;
  event.waitUntil(
    sw.clients.matchAll({ type: "window", includeUncontrolled: true }).then(async (tabs) => {
      // An open chat screen switches to that chat; otherwise a new tab opens on it.
      const tab = tabs.find((t) => new URL(t.url).pathname === "/");
      if (tab) {
        tab.postMessage({ type: "open_chat", chatId } satisfies OpenChatMessage);
        await tab.focus();
      } else {
        await sw.clients.openWindow(url);
      }
    }),
  );
});

export {};
