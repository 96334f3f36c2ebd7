// Installable and offline (issue 26), in real Chromium against the real server: the manifest and
// the service worker register and Chrome reports no installability error (CDP
// Page.getInstallabilityErrors); with the network gone a page of the site shows "You are offline"
// and comes back by itself, and an open chat says so; an update of the service worker waits while
// a chat is open (the chat keeps working) and takes over once its tab is gone; Settings →
// Notifications turns pushes on for the device, after which a message to a closed tab reaches a
// local push service encrypted for it; a push shows a notification in the worker, and a call's end
// closes its ringing one; clicking a message's notification opens that chat. Screenshots go to
// tests/e2e/screenshots/.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chromium, type Page } from "playwright-core";
import { BUILD_DIR, readManifest } from "../../src/pages/assets/manifest.ts";
import { PASSWORD, registerAccount, type Account } from "./support/accounts.ts";
import { CHROMIUM_ARGS, CHROMIUM_PATH, MOBILE } from "./support/browser.ts";
import { openConversation, openSettings, startChat } from "./support/screens.ts";
import { screenshot } from "./support/screenshots.ts";
import { browserSuite } from "./support/suite.ts";
import { browserSubscription, decryptPush, localPushService } from "../support/push-service.ts";
import { until } from "../support/until.ts";

const WAIT = { timeout: 15_000 };
const accounts = new Map<string, Account>();
const push = localPushService();

const suite = browserSuite({
  env: push.env,
  setup: async (server) => {
    for (const [username, name] of [
      ["alice", "Alice"],
      ["bob", "Bob"],
      ["carol", "Carol"],
    ] as const) {
      accounts.set(username, await registerAccount(server, username, name));
    }
  },
  open: { logConsoleErrors: true, listLoaded: true, defaultTimeout: WAIT.timeout },
});
beforeAll(() => push.start());
afterAll(() => push.stop());

/** The service worker is active and controls the page. */
async function controlled(page: Page): Promise<void> {
  await page.evaluate(() => navigator.serviceWorker.ready);
  await page.waitForFunction(() => navigator.serviceWorker.controller !== null, undefined, WAIT);
}

const cacheKeys = (page: Page) => page.evaluate(() => caches.keys());

describe("installable", () => {
  test("the landing page and the chat screen register the worker at the root, with a manifest Chrome can install", async () => {
    const visitor = await (await suite.newContext()).newPage();
    await visitor.goto("/");
    const scope = await visitor.evaluate(() => navigator.serviceWorker.ready.then((r) => r.scope));
    expect(scope).toBe(`${suite.server.url}/`);
    // The sign-in page is purple, every other page white (spec); the installed app is white.
    expect(await visitor.locator('meta[name="theme-color"]').getAttribute("content")).toBe("#7c3aed");
    const manifest = await (await visitor.request.get("/manifest.webmanifest")).json();
    expect(manifest).toMatchObject({ name: "Web Chat", short_name: "Web Chat", start_url: "/", display: "standalone", theme_color: "#ffffff", background_color: "#ffffff" });
    expect(manifest.icons.map((i: { sizes: string; purpose: string }) => `${i.sizes} ${i.purpose}`)).toEqual(["192x192 any", "512x512 any", "512x512 maskable"]);
    for (const icon of manifest.icons) {
      const answer = await visitor.request.get(icon.src);
      expect(answer.headers()["content-type"]).toBe("image/png");
    }
    // Chrome never offers to install from an incognito profile, which every other context here is.
    const profile = mkdtempSync(join(tmpdir(), "webchat-pwa-profile-"));
    const context = await chromium.launchPersistentContext(profile, { executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS, baseURL: suite.server.url });
    try {
      const page = context.pages()[0] ?? (await context.newPage());
      const login = await page.request.post("/api/auth/login", { data: { username: "alice", password: PASSWORD }, headers: { origin: suite.server.url } });
      expect(login.status()).toBe(200);
      for (const path of ["/", "/privacy"]) {
        await page.goto(path);
        if (path === "/") await page.locator(".chat-app .tab-bar").waitFor();
        await controlled(page);
        const cdp = await context.newCDPSession(page);
        const { installabilityErrors } = (await cdp.send("Page.getInstallabilityErrors")) as { installabilityErrors: unknown[] };
        expect(installabilityErrors).toEqual([]);
        const { errors } = (await cdp.send("Page.getAppManifest")) as { errors: unknown[] };
        expect(errors).toEqual([]);
      }
    } finally {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    }
  }, 60_000);

  test("the worker keeps only the offline page and the hashed build: no API answer, upload or page of a session", async () => {
    const alice = await suite.open("alice");
    await controlled(alice);
    await startChat(alice, "Bob");
    await alice.getByRole("textbox", { name: /message/i }).fill("cached?");
    await alice.keyboard.press("Enter");
    await alice.locator(".message-text", { hasText: "cached?" }).waitFor();
    const stored = await alice.evaluate(async () => {
      const urls: string[] = [];
      for (const key of await caches.keys()) for (const request of await (await caches.open(key)).keys()) urls.push(new URL(request.url).pathname);
      const offline = await caches.match("/offline");
      return { urls, offline: offline ? await offline.text() : "" };
    });
    expect(stored.urls.length).toBeGreaterThan(5);
    expect(stored.urls.filter((u) => u !== "/offline" && !u.startsWith("/build/"))).toEqual([]);
    // The offline page was fetched without cookies: nothing of Alice's session is in it.
    expect(stored.offline).toContain("You are offline");
    expect(stored.offline).not.toContain("Alice");
    expect(stored.offline).not.toContain("token");
  }, 60_000);
});

describe("offline", () => {
  for (const [label, size] of [["desktop", undefined], ["phone", MOBILE]] as const) {
    test(`a page of the site says "You are offline" without a network and comes back by itself (${label})`, async () => {
      const alice = await suite.open("alice", size ? { context: size } : {});
      await controlled(alice);
      await alice.context().setOffline(true);
      // The open chat screen hears it at once.
      await alice.getByRole("status").filter({ hasText: "You are offline" }).waitFor();
      await screenshot(alice, "pwa-chat-offline");
      await alice.reload();
      await alice.getByRole("heading", { name: "You are offline" }).waitFor();
      await expect(alice.getByRole("link", { name: "Try again" }).getAttribute("href")).resolves.toBe("/");
      await screenshot(alice, "pwa-offline-page");
      await alice.context().setOffline(false);
      // Its script reloads it; the chat screen is back.
      await alice.locator(".chat-app .tab-bar").waitFor();
      await expect(alice.getByRole("status").filter({ hasText: "You are offline" }).count()).resolves.toBe(0);
    }, 60_000);
  }
});

describe("updates", () => {
  test("a new worker waits while a chat is open, the chat keeps working, and it takes over once the tab is gone", async () => {
    const file = join(BUILD_DIR, "sw.js");
    const original = readFileSync(file, "utf8");
    const version = readManifest().serviceWorker!;
    expect(original).toContain(version);
    const alice = await suite.open("alice");
    const bob = await suite.open("bob");
    try {
      await controlled(alice);
      expect(await cacheKeys(alice)).toContain(`webchat-${version}`);
      await openConversation(alice, "Bob").catch(() => startChat(alice, "Bob"));
      // The next build: another id (as a deploy gives), so another cache.
      writeFileSync(file, original.replaceAll(version, "next-build-1"));
      const waiting = await alice.evaluate(async () => {
        const registration = await navigator.serviceWorker.ready;
        await registration.update();
        const worker = registration.installing ?? registration.waiting;
        if (worker && worker.state !== "installed") await new Promise<void>((resolve) => worker.addEventListener("statechange", () => worker.state === "installed" && resolve()));
        return { waiting: registration.waiting !== null, active: registration.active?.state };
      });
      expect(waiting).toEqual({ waiting: true, active: "activated" });
      // The old cache is still there for the open tab, which goes on sending and receiving.
      expect(await cacheKeys(alice)).toContain(`webchat-${version}`);
      await alice.getByRole("textbox", { name: /message/i }).fill("still here after the update");
      await alice.keyboard.press("Enter");
      await openConversation(bob, "Alice");
      await bob.locator(".message-text", { hasText: "still here after the update" }).waitFor();
      await bob.getByRole("textbox", { name: /message/i }).fill("and an answer");
      await bob.keyboard.press("Enter");
      await alice.locator(".message-text", { hasText: "and an answer" }).waitFor();
      // A lazily loaded part of the screen still loads.
      await openSettings(alice, /Notifications/);
      await alice.getByRole("heading", { name: "Notifications" }).waitFor();
      // Once the only tab of the old worker is gone, the new one takes over and drops the old cache.
      const context = alice.context();
      await alice.close();
      // Waited for in the workers themselves, before any new tab: a page opened while Chromium
      // still counts the closed one as the old worker's client is the old worker's again, and the
      // new one then waits for that tab too (seen beside a loaded CPU).
      const workerCaches = async () => {
        for (const worker of context.serviceWorkers()) {
          // A worker that stopped meanwhile cannot be asked; the next one, or the next try, can.
          const names = await worker.evaluate(() => caches.keys()).catch(() => null);
          if (names) return names.join();
        }
        return "";
      };
      await until(async () => (await workerCaches()) === "webchat-next-build-1", "the new worker's cache alone", 30_000);
      const next = await context.newPage();
      await next.goto("/");
      expect((await next.evaluate(() => caches.keys())).join()).toBe("webchat-next-build-1");
      await next.locator(".chat-app .tab-bar").waitFor();
    } finally {
      writeFileSync(file, original);
    }
  }, 90_000);
});

describe("notifications", () => {
  test("Settings turns them on for the device; then a message to a closed tab reaches its push service, who wrote but not what", async () => {
    const device = await browserSubscription(push.url("/push/carol"));
    const carol = await suite.open("carol", {
      prepare: async (context) => {
        await context.addInitScript((json) => {
          // Headless Chromium has no push service: this device's subscription is the test's, so
          // the server posts to the local one.
          let subscribed = false;
          const subscription = { endpoint: json.endpoint, expirationTime: null, options: { applicationServerKey: null as ArrayBuffer | null, userVisibleOnly: true }, toJSON: () => json, unsubscribe: async () => ((subscribed = false), true) };
          PushManager.prototype.subscribe = async function (options) {
            subscribed = true;
            subscription.options.applicationServerKey = (options?.applicationServerKey as Uint8Array).slice().buffer;
            return subscription as unknown as PushSubscription;
          };
          PushManager.prototype.getSubscription = async () => (subscribed ? (subscription as unknown as PushSubscription) : null);
        }, device.json);
      },
      context: { viewport: { width: 1280, height: 800 }, permissions: ["notifications"] },
    });
    await openSettings(carol, /Notifications/);
    const on = carol.getByRole("checkbox", { name: "Notifications on this device" });
    const previews = carol.getByRole("checkbox", { name: "Show message previews in notifications" });
    await expect(previews.isDisabled()).resolves.toBe(true);
    await on.click();
    await carol.getByText("Notifications are on for this device").waitFor();
    await expect(previews.isChecked()).resolves.toBe(false);
    await screenshot(carol, "pwa-notification-settings");
    // Carol leaves; Bob writes.
    await carol.close();
    const bob = await suite.open("bob");
    await startChat(bob, "Carol");
    await bob.getByRole("textbox", { name: /message/i }).fill("are you there?");
    await bob.keyboard.press("Enter");
    await until(() => push.requests.some((r) => r.path === "/push/carol"), "the push to Carol's device", 15_000);
    const sent = push.requests.find((r) => r.path === "/push/carol")!;
    const payload = (await decryptPush(device, sent.body)) as { title: string; body: string; url: string };
    expect(payload).toMatchObject({ type: "message", title: "Bob", body: "Sent you a message" });
    expect(payload.url).toBe(`/?chat=${accounts.get("bob")!.user.id}`);
  }, 90_000);

  /**
   * Delivers `data` to the page's service worker as its push service would (CDP). The worker is
   * found as the one that controls this page: other pages of earlier tests have workers of the same
   * origin and scope, and a push delivered to one of those shows nothing here.
   */
  async function pushDelivery(page: Page): Promise<(data: unknown) => Promise<unknown>> {
    const cdp = await page.context().newCDPSession(page);
    const { targetInfo } = (await cdp.send("Target.getTargetInfo")) as { targetInfo: { targetId: string } };
    // Listening before enabling: the versions already known arrive while `enable` is answered.
    const registered = new Promise<string>((resolve) => {
      cdp.on("ServiceWorker.workerVersionUpdated", ({ versions }: { versions: { registrationId: string; controlledClients?: string[] }[] }) => {
        const mine = versions.find((v) => v.controlledClients?.includes(targetInfo.targetId));
        if (mine) resolve(mine.registrationId);
      });
    });
    await cdp.send("ServiceWorker.enable");
    const registrationId = await registered;
    return (data) => cdp.send("ServiceWorker.deliverPushMessage", { origin: suite.server.url, registrationId, data: JSON.stringify(data) });
  }

  /** Notifications are read through the page and the worker: a calmer poll than until's 5 ms (a tight one once kept a push from showing). */
  const POLL_MS = 200;
  const notificationsOf = (page: Page) =>
    page.evaluate(async () => (await (await navigator.serviceWorker.ready).getNotifications()).map((n) => ({ title: n.title, body: n.body, tag: n.tag })));

  test("the worker shows a push as a notification, and a call's end closes its ringing one", async () => {
    const alice = await suite.open("alice", { context: { viewport: { width: 1280, height: 800 }, permissions: ["notifications"] } });
    await controlled(alice);
    const deliver = await pushDelivery(alice);
    const shown = () => notificationsOf(alice);
    await deliver({ type: "call", tag: "call-7", chatId: 7, title: "Bob", body: "Incoming video call", url: "/?chat=7" });
    // A promise is truthy to waitForFunction, so the notifications are read until they change.
    await until(async () => (await shown()).length === 1, "the call's notification shown", 30_000, POLL_MS);
    expect(await shown()).toEqual([{ title: "Bob", body: "Incoming video call", tag: "call-7" }]);
    await deliver({ type: "call_ended", tag: "call-7" });
    await until(async () => (await shown()).length === 0, "the call's notification closed", 30_000, POLL_MS);
  }, 60_000);

  // No browser lets a test click a system notification, so the worker's own click handler is run
  // by a notificationclick event dispatched in the worker; the path without an open chat screen
  // is the notification's link, loaded in a new tab as clients.openWindow would.
  test("clicking a message's notification opens that chat: the open chat screen switches to it, and its link opens it", async () => {
    const alice = accounts.get("alice")!;
    const bob = await suite.open("bob", { context: { viewport: { width: 1280, height: 800 }, permissions: ["notifications"] } });
    await controlled(bob);
    const deliver = await pushDelivery(bob);
    const url = `/?chat=${alice.user.id}`;
    const message = { type: "message", tag: `chat-${alice.user.id}`, chatId: alice.user.id, title: "Alice", body: "Sent you a message", url };
    // In a whole browser run a push delivered over CDP was once never dispatched (shown 0 times in
    // 30 s, never alone). A push service delivers again when it gets no acknowledgement; so does
    // this test, every 5 s: the tag makes a second delivery replace the first, not add one.
    let deliveredAt = 0;
    await until(
      async () => {
        if (Date.now() - deliveredAt >= 5_000) {
          deliveredAt = Date.now();
          await deliver(message);
        }
        return (await notificationsOf(bob)).length === 1;
      },
      "the message's notification shown",
      30_000,
      POLL_MS,
    );
    expect(await bob.locator(".chat-header-name").count()).toBe(0);

    const worker = bob.context().serviceWorkers().find((w) => w.url() === `${suite.server.url}/sw.js`);
    expect(worker).toBeDefined();
    await worker!.evaluate(async () => {
      const scope = self as unknown as { registration: ServiceWorkerRegistration; dispatchEvent(event: Event): boolean };
      const [notification] = await scope.registration.getNotifications();
      const Click = (self as unknown as { NotificationEvent: new (type: string, init: { notification: Notification }) => Event }).NotificationEvent;
      scope.dispatchEvent(new Click("notificationclick", { notification: notification! }));
    });
    await bob.locator(".chat-header-name", { hasText: "Alice" }).waitFor(WAIT);
    await until(async () => (await notificationsOf(bob)).length === 0, "the clicked notification closed", 30_000, POLL_MS);

    const tab = await bob.context().newPage();
    await tab.goto(`${suite.server.url}${url}`);
    await tab.locator(".chat-header-name", { hasText: "Alice" }).waitFor(WAIT);
    await screenshot(tab, "pwa-notification-opens-chat");
  }, 90_000);
});
