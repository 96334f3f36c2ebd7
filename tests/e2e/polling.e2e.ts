// The realtime fallback in real Chromium (spec §7 "websocket preferred, polling fallback"): Alice's
// browser cannot open a WebSocket to /ws (the constructor throws, as a policy or an extension
// makes it), so her page talks to the server by long-polling; Bob's browser uses a WebSocket.
// Chat, delivery and read ticks, typing, presence and an incoming call's ringing work both ways,
// and when WebSockets work again her page moves over to one.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { openSignedIn, registerAccount } from "./support/accounts.ts";
import { DESKTOP, launchBrowser } from "./support/browser.ts";
import { screenshot } from "./support/screenshots.ts";
import { startServer, type RunningServer } from "./support/server.ts";

let server: RunningServer;
let browser: Browser;
const contexts: BrowserContext[] = [];
const WAIT = { timeout: 15_000 };

/** Makes `new WebSocket(".../ws?...")` throw while `__blockWs` is set; counts the tries. /peerjs is left alone. */
function blockRealtimeWebSocket() {
  const w = window as unknown as { WebSocket: typeof WebSocket; __blockWs: boolean; __wsTries: number; __wsOpened: number };
  const Native = w.WebSocket;
  w.__blockWs = true;
  w.__wsTries = 0;
  w.__wsOpened = 0;
  w.WebSocket = class extends Native {
    constructor(url: string | URL, protocols?: string | string[]) {
      const realtime = new URL(String(url), location.href).pathname === "/ws";
      if (realtime) w.__wsTries++;
      if (realtime && w.__blockWs) throw new DOMException("WebSockets are blocked here", "SecurityError");
      super(url, protocols);
      if (realtime) this.addEventListener("open", () => w.__wsOpened++);
    }
  };
}

/** Every request the page makes to the polling endpoints, as "METHOD path". */
function pollRequests(page: Page): string[] {
  const seen: string[] = [];
  page.on("request", (request) => {
    const url = new URL(request.url());
    if (url.pathname.startsWith("/ws/poll")) seen.push(`${request.method()} ${url.pathname}`);
  });
  return seen;
}

/** How the WebSocket to /ws is kept from working: not at all, the constructor throws, or the network closes it at once. */
type Block = "none" | "throws" | "closed" | "silent";

async function open(username: string, block: Block): Promise<{ page: Page; polls: string[] }> {
  let polls: string[] = [];
  const page = await openSignedIn(browser, server, username, {
    context: { ...DESKTOP, permissions: ["camera", "microphone"] },
    initScript: block === "throws" ? blockRealtimeWebSocket : undefined,
    // Playwright answers the upgrade itself and closes it: the page sees a socket that never reaches the server.
    // "silent": Playwright holds the socket open and never answers (a proxy that swallows it).
    prepare:
      block === "closed"
        ? (context) => context.routeWebSocket(/\/ws\?/, (ws) => void ws.close())
        : block === "silent"
          ? (context) => context.routeWebSocket(/\/ws\?/, () => {})
          : undefined,
    dismissDialogs: true,
    logConsoleErrors: true,
    ...WAIT,
    ready: async (p) => {
      polls = pollRequests(p);
      await p.locator(".sidebar-panel .skeleton-row").first().waitFor({ state: "detached" });
    },
  });
  contexts.push(page.context());
  return { page, polls };
}

async function openChat(page: Page, name: string) {
  await page.locator(".sidebar-panel").getByRole("button", { name: new RegExp(name) }).first().click();
  await page.getByRole("button", { name: "Start Chat" }).click();
  await page.getByRole("textbox", { name: `Message ${name}` }).waitFor(WAIT);
}

async function waitForTick(page: Page, status: string) {
  await page.waitForFunction((s) => [...document.querySelectorAll(".message-row.is-own .ticks")].at(-1)?.getAttribute("data-status") === s, status, WAIT);
}

/** Waits until the open chat's header says `name` is online (or not); fails with what it said. */
async function headerSays(page: Page, online: boolean): Promise<void> {
  await page.waitForFunction((want) => (document.querySelector(".chat-header .status-text")?.textContent?.trim() === "Online") === want, online, WAIT);
}

beforeAll(async () => {
  server = await startServer({ PRESENCE_GRACE_SECONDS: "1" });
  browser = await launchBrowser();
  await registerAccount(server, "alice", "Alice", { age: 29 });
  await registerAccount(server, "carol", "Carol", { age: 41, country_code: "IT", country_name: "Italy" });
  await registerAccount(server, "dave", "Dave", { gender: "male", age: 38 });
  await registerAccount(server, "bob", "Bob", { gender: "male", age: 34, country_code: "FR", country_name: "France" });
});

afterAll(async () => {
  for (const context of contexts) await context.close().catch(() => {});
  await browser?.close();
  await server?.stop();
});

describe("a browser whose WebSocket is blocked, with one whose is not", () => {
  let alice: Page;
  let bob: Page;
  let alicePolls: string[];

  test("the blocked browser connects by long-polling and the other sees it online", async () => {
    ({ page: bob } = await open("bob", "none"));
    ({ page: alice, polls: alicePolls } = await open("alice", "throws"));
    await openChat(alice, "Bob");
    await openChat(bob, "Alice");
    await alice.waitForFunction(() => (window as unknown as { __wsTries: number }).__wsTries > 0, undefined, WAIT);
    expect(await alice.evaluate(() => (window as unknown as { __wsOpened: number }).__wsOpened)).toBe(0);
    // Opened before the test could listen to requests: the page's own record of what it fetched.
    const fetched = await alice.evaluate(() => performance.getEntriesByType("resource").map((e) => new URL(e.name).pathname));
    expect(fetched).toContain("/ws/poll/open");
    await alice.waitForFunction(() => performance.getEntriesByType("resource").some((e) => new URL(e.name).pathname === "/ws/poll"), undefined, WAIT);
    await headerSays(bob, true);
    await headerSays(alice, true);
    // No "reconnecting" banner: falling back is not an outage.
    expect(await alice.getByText(/Reconnecting|Connection error/).count()).toBe(0);
    await screenshot(alice, "polling-connected");
  });

  test("a message from the polling browser arrives, and its tick goes delivered then read", async () => {
    await alice.getByRole("textbox", { name: "Message Bob" }).fill("Sent over long-polling");
    await alice.keyboard.press("Enter");
    await bob.locator(".message-text", { hasText: "Sent over long-polling" }).waitFor(WAIT);
    await waitForTick(alice, "read");
    expect(alicePolls).toContain("POST /ws/poll/send");
  });

  test("typing and a reply reach the polling browser, and its read tick reaches the sender", async () => {
    const box = bob.getByRole("textbox", { name: "Message Alice" });
    await box.pressSequentially("Got it", { delay: 30 });
    await alice.locator(".typing-bubble").waitFor(WAIT);
    await screenshot(alice, "polling-typing");
    await box.press("Enter");
    await alice.locator(".message-text", { hasText: "Got it" }).waitFor(WAIT);
    await alice.locator(".typing-bubble").waitFor({ state: "detached", ...WAIT });
    await waitForTick(bob, "read");
  });

  test("typing in the polling browser shows on the other side", async () => {
    await alice.getByRole("textbox", { name: "Message Bob" }).pressSequentially("Typing over HTTP", { delay: 30 });
    await bob.locator(".typing-bubble").waitFor(WAIT);
    await alice.getByRole("textbox", { name: "Message Bob" }).fill("");
  });

  test("an incoming call rings in the polling browser, and declining it reaches the caller", async () => {
    const overlay = (page: Page) => page.getByRole("dialog", { name: /^Video call with / });
    await bob.getByRole("button", { name: "Video call Alice" }).click();
    await overlay(alice).getByText("is calling...").waitFor(WAIT);
    expect(await overlay(alice).getByRole("heading").textContent()).toBe("Bob");
    await screenshot(alice, "polling-incoming-call");
    await overlay(alice).getByRole("button", { name: "Decline" }).click();
    await bob.getByText("Alice declined the call").waitFor(WAIT);
  });

  test("a call from the polling browser rings in the other one", async () => {
    const overlay = (page: Page) => page.getByRole("dialog", { name: /^Video call with / });
    await alice.getByRole("button", { name: "Video call Bob" }).click();
    await overlay(bob).getByText("is calling...").waitFor(WAIT);
    await overlay(bob).getByRole("button", { name: "Decline" }).click();
    await alice.getByText("Bob declined the call").waitFor(WAIT);
  });

  test("when WebSockets work again the page moves to one in the background, and the chat goes on", async () => {
    await alice.evaluate(() => ((window as unknown as { __blockWs: boolean }).__blockWs = false));
    // The client tries again every 30 s while polling.
    await alice.waitForFunction(() => (window as unknown as { __wsOpened: number }).__wsOpened > 0, undefined, { timeout: 45_000 });
    const pollsBefore = alicePolls.filter((r) => r === "GET /ws/poll").length;
    await bob.getByRole("textbox", { name: "Message Alice" }).fill("Now over a WebSocket");
    await bob.keyboard.press("Enter");
    await alice.locator(".message-text", { hasText: "Now over a WebSocket" }).waitFor(WAIT);
    await alice.getByRole("textbox", { name: "Message Bob" }).fill("Me too");
    await alice.keyboard.press("Enter");
    await bob.locator(".message-text", { hasText: "Me too" }).waitFor(WAIT);
    // Each message shows once on each side.
    expect(await alice.locator(".message-text", { hasText: "Now over a WebSocket" }).count()).toBe(1);
    expect(await bob.locator(".message-text", { hasText: "Me too" }).count()).toBe(1);
    expect(alicePolls.filter((r) => r === "GET /ws/poll").length).toBe(pollsBefore);
    await headerSays(bob, true);
  }, 60_000);

  test("a browser whose /ws upgrade the network answers and closes at once falls back as well", async () => {
    const { page: carol, polls } = await open("carol", "closed");
    await openChat(carol, "Bob");
    await carol.getByRole("textbox", { name: "Message Bob" }).fill("Carol over long-polling");
    await carol.keyboard.press("Enter");
    await bob.locator(".sidebar-panel .row", { hasText: "Carol" }).first().click();
    await bob.getByRole("button", { name: "Start Chat" }).click().catch(() => {});
    await bob.locator(".message-text", { hasText: "Carol over long-polling" }).waitFor(WAIT);
    await bob.getByRole("textbox", { name: "Message Carol" }).fill("Hello Carol");
    await bob.keyboard.press("Enter");
    await carol.locator(".message-text", { hasText: "Hello Carol" }).waitFor(WAIT);
    await waitForTick(carol, "read");
    expect(polls).toContain("POST /ws/poll/send");
    await screenshot(carol, "polling-routed-websocket");
    await bob.locator(".sidebar-panel .row", { hasText: "Alice" }).first().click();
    await bob.getByRole("button", { name: "Start Chat" }).click().catch(() => {});
    await bob.getByRole("textbox", { name: "Message Alice" }).waitFor(WAIT);
  }, 60_000);

  test("a browser whose /ws upgrade is held open by the network and never answered falls back within seconds", async () => {
    const started = Date.now();
    const { page: dave, polls } = await open("dave", "silent");
    // The socket "opens" but never answers the ping sent at open: after 5 s the page polls instead.
    await dave.waitForFunction(() => performance.getEntriesByType("resource").some((e) => new URL(e.name).pathname === "/ws/poll/open"), undefined, WAIT);
    expect(Date.now() - started).toBeLessThan(12_000);
    await openChat(dave, "Bob");
    await dave.getByRole("textbox", { name: "Message Bob" }).fill("Dave over long-polling");
    await dave.keyboard.press("Enter");
    await waitForTick(dave, "delivered");
    expect(polls).toContain("POST /ws/poll/send");
  }, 60_000);

  test("when the polling browser leaves, the other sees it offline", async () => {
    await alice.context().close();
    contexts.splice(contexts.indexOf(alice.context()), 1);
    await headerSays(bob, false);
  });
});
