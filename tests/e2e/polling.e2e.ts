// The realtime fallback in real Chromium (spec §7 "websocket preferred, polling fallback"): Alice's
// browser cannot open a WebSocket to /ws (the constructor throws, as a policy or an extension
// makes it), so her page talks to the server by long-polling; Bob's browser uses a WebSocket.
// Chat, delivery and read ticks, typing, presence and an incoming call's ringing work both ways,
// and when WebSockets work again her page moves over to one. Every test makes its own people.
import { describe, expect, test } from "bun:test";
import type { Page } from "playwright-core";
import { person, type Person } from "./support/people.ts";
import { sendMessage, startChat, waitForTick } from "./support/screens.ts";
import { screenshot } from "./support/screenshots.ts";
import { browserSuite } from "./support/suite.ts";

/** Generous: two browsers and a server share two loaded cores. */
const TIMEOUT = 60_000;
const WAIT = { timeout: TIMEOUT };
/** Two browsers signing in and meeting: minutes on a loaded machine. */
const TWO_BROWSERS = 180_000;

const suite = browserSuite({
  env: { PRESENCE_GRACE_SECONDS: "1" },
  open: { camera: true, dismissDialogs: true, logConsoleErrors: true, listLoaded: true, timeout: TIMEOUT, defaultTimeout: TIMEOUT },
  isolated: true,
  // A closing page ends its long-polling session itself (pagehide, poll-transport.ts), so the
  // server is usually idle at once. The close is one keepalive request from a page going away: when
  // it is lost (once, behind a /ws upgrade the network held open), the server's idle sweep ends the
  // session, up to a held poll (25 s) and the idle time (45 s) later. The wait ends when idle.
  idleWithinMs: 100_000,
});

type Tracked = { __blockWs: boolean; __wsTries: number; __wsOpened: number };

/** Makes `new WebSocket(".../ws?...")` throw while `__blockWs` is set; counts the tries. /peerjs is left alone. */
function blockRealtimeWebSocket() {
  const w = window as unknown as { WebSocket: typeof WebSocket } & Tracked;
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

/** When (on the test's clock) the page's first /ws upgrade reached the network, and its first /ws/poll/open left. */
interface Fallback {
  upgraded: Promise<number>;
  pollOpened: Promise<number>;
}

async function open(username: string, block: Block): Promise<{ page: Page; polls: string[]; fallback: Fallback }> {
  let polls: string[] = [];
  const upgraded = Promise.withResolvers<number>();
  // Set in `prepare`, before the page opens.
  let pollOpened = new Promise<number>(() => {});
  const page = await suite.open(username, {
    initScript: block === "throws" ? blockRealtimeWebSocket : undefined,
    prepare: async (context) => {
      pollOpened = context
        .waitForEvent("request", { predicate: (r) => new URL(r.url()).pathname === "/ws/poll/open", timeout: 2 * TIMEOUT })
        .then(() => performance.now());
      pollOpened.catch(() => {});
      // Playwright answers the upgrade itself and closes it: the page sees a socket that never reaches the server.
      if (block === "closed") await context.routeWebSocket(/\/ws\?/, (ws) => void ws.close());
      // "silent": Playwright holds the socket open and never answers (a proxy that swallows it).
      if (block === "silent") await context.routeWebSocket(/\/ws\?/, () => upgraded.resolve(performance.now()));
    },
    ready: async (p) => {
      polls = pollRequests(p);
    },
  });
  return { page, polls, fallback: { upgraded: upgraded.promise, pollOpened } };
}

/** Waits until the open chat's header says its person is online (or not). */
async function headerSays(page: Page, online: boolean): Promise<void> {
  await page.waitForFunction((want) => (document.querySelector(".chat-header .status-text")?.textContent?.trim() === "Online") === want, online, WAIT);
}

/** Whether the page has fetched `path` (its own record, which holds requests made before the test listened). */
const fetched = (page: Page, path: string) =>
  page.waitForFunction((p) => performance.getEntriesByType("resource").some((e) => new URL(e.name).pathname === p), path, WAIT);

const ringing = (page: Page) => page.getByRole("dialog", { name: /^Video call with / });

const people = async () => ({
  alice: await person(suite, "alice", "Alice", { age: 29 }),
  bob: await person(suite, "bob", "Bob", { gender: "male", age: 34, country_code: "FR", country_name: "France" }),
});

interface Chatting {
  alice: Page;
  bob: Page;
  alicePolls: string[];
  who: { alice: Person; bob: Person };
}

/**
 * Bob on a WebSocket, then Alice whose WebSocket constructor throws: each has the other's chat
 * open, Alice's page polls, and each header says the other is online.
 */
async function chattingOverPolling(): Promise<Chatting> {
  const who = await people();
  const { page: bob } = await open(who.bob.username, "none");
  const { page: alice, polls: alicePolls } = await open(who.alice.username, "throws");
  await startChat(alice, who.bob.name);
  await startChat(bob, who.alice.name);
  await alice.waitForFunction(() => (window as unknown as Tracked).__wsTries > 0, undefined, WAIT);
  await fetched(alice, "/ws/poll");
  await headerSays(bob, true);
  await headerSays(alice, true);
  return { alice, bob, alicePolls, who };
}

describe("a browser whose WebSocket is blocked, with one whose is not", () => {
  test("the blocked browser connects by long-polling and the other sees it online", async () => {
    const { alice } = await chattingOverPolling();
    expect(await alice.evaluate(() => (window as unknown as Tracked).__wsOpened)).toBe(0);
    // Opened before the test could listen to requests: the page's own record of what it fetched.
    const paths = await alice.evaluate(() => performance.getEntriesByType("resource").map((e) => new URL(e.name).pathname));
    expect(paths).toContain("/ws/poll/open");
    // No "reconnecting" banner: falling back is not an outage.
    expect(await alice.getByText(/Reconnecting|Connection error/).count()).toBe(0);
    await screenshot(alice, "polling-connected");
  }, TWO_BROWSERS);

  test("a message from the polling browser arrives, and its tick goes delivered then read", async () => {
    const { alice, bob, alicePolls, who } = await chattingOverPolling();
    await sendMessage(alice, who.bob.name, "Sent over long-polling");
    await bob.locator(".message-text", { hasText: "Sent over long-polling" }).waitFor(WAIT);
    await waitForTick(alice, "read", TIMEOUT);
    expect(alicePolls).toContain("POST /ws/poll/send");
  }, TWO_BROWSERS);

  test("typing and a reply reach the polling browser, and its read tick reaches the sender", async () => {
    const { alice, bob, who } = await chattingOverPolling();
    const box = bob.getByRole("textbox", { name: `Message ${who.alice.name}` });
    await box.pressSequentially("Got it", { delay: 30 });
    await alice.locator(".typing-bubble").waitFor(WAIT);
    await screenshot(alice, "polling-typing");
    await box.press("Enter");
    await alice.locator(".message-text", { hasText: "Got it" }).waitFor(WAIT);
    await alice.locator(".typing-bubble").waitFor({ state: "detached", ...WAIT });
    await waitForTick(bob, "read", TIMEOUT);
  }, TWO_BROWSERS);

  test("typing in the polling browser shows on the other side", async () => {
    const { alice, bob, who } = await chattingOverPolling();
    await alice.getByRole("textbox", { name: `Message ${who.bob.name}` }).pressSequentially("Typing over HTTP", { delay: 30 });
    await bob.locator(".typing-bubble").waitFor(WAIT);
  }, TWO_BROWSERS);

  test("an incoming call rings in the polling browser, and declining it reaches the caller", async () => {
    const { alice, bob, who } = await chattingOverPolling();
    await bob.getByRole("button", { name: `Video call ${who.alice.name}` }).click();
    await ringing(alice).getByText("is calling...").waitFor(WAIT);
    expect(await ringing(alice).getByRole("heading").textContent()).toBe(who.bob.name);
    await screenshot(alice, "polling-incoming-call");
    await ringing(alice).getByRole("button", { name: "Decline" }).click();
    await bob.getByText(`${who.alice.name} declined the call`).waitFor(WAIT);
  }, TWO_BROWSERS);

  test("a call from the polling browser rings in the other one", async () => {
    const { alice, bob, who } = await chattingOverPolling();
    await alice.getByRole("button", { name: `Video call ${who.bob.name}` }).click();
    await ringing(bob).getByText("is calling...").waitFor(WAIT);
    await ringing(bob).getByRole("button", { name: "Decline" }).click();
    await alice.getByText(`${who.bob.name} declined the call`).waitFor(WAIT);
  }, TWO_BROWSERS);

  test("when WebSockets work again the page moves to one in the background, and the chat goes on", async () => {
    const { alice, bob, alicePolls, who } = await chattingOverPolling();
    // The last poll brings the server's word that the WebSocket holds the session now (x-poll-end 4000).
    const handedOver = alice.waitForResponse((r) => new URL(r.url()).pathname === "/ws/poll" && r.headers()["x-poll-end"] === "4000", { timeout: 90_000 });
    await alice.evaluate(() => ((window as unknown as Tracked).__blockWs = false));
    // The client tries again every 30 s while polling.
    await alice.waitForFunction(() => (window as unknown as Tracked).__wsOpened > 0, undefined, { timeout: 90_000 });
    await handedOver;
    const pollsBefore = alicePolls.filter((r) => r === "GET /ws/poll").length;
    await sendMessage(bob, who.alice.name, "Now over a WebSocket");
    await alice.locator(".message-text", { hasText: "Now over a WebSocket" }).waitFor(WAIT);
    await sendMessage(alice, who.bob.name, "Me too");
    await bob.locator(".message-text", { hasText: "Me too" }).waitFor(WAIT);
    // Each message shows once on each side.
    expect(await alice.locator(".message-text", { hasText: "Now over a WebSocket" }).count()).toBe(1);
    expect(await bob.locator(".message-text", { hasText: "Me too" }).count()).toBe(1);
    expect(alicePolls.filter((r) => r === "GET /ws/poll").length).toBe(pollsBefore);
    await headerSays(bob, true);
  }, TWO_BROWSERS + 90_000);

  test("a browser whose /ws upgrade the network answers and closes at once falls back as well", async () => {
    const who = await people();
    const { page: bob } = await open(who.bob.username, "none");
    const { page: alice, polls } = await open(who.alice.username, "closed");
    await startChat(alice, who.bob.name);
    await sendMessage(alice, who.bob.name, "Alice over long-polling");
    await startChat(bob, who.alice.name);
    await bob.locator(".message-text", { hasText: "Alice over long-polling" }).waitFor(WAIT);
    await sendMessage(bob, who.alice.name, "Hello Alice");
    await alice.locator(".message-text", { hasText: "Hello Alice" }).waitFor(WAIT);
    await waitForTick(alice, "read", TIMEOUT);
    expect(polls).toContain("POST /ws/poll/send");
    await screenshot(alice, "polling-routed-websocket");
  }, TWO_BROWSERS);

  test("a browser whose /ws upgrade is held open by the network and never answered falls back within seconds", async () => {
    const who = await people();
    await open(who.bob.username, "none");
    const { page: alice, polls, fallback } = await open(who.alice.username, "silent");
    // The socket "opens" but never answers the ping sent at open: after 5 s the page polls instead.
    // Measured from the upgrade reaching the network to the first poll leaving the page.
    const [upgradedAt, pollOpenedAt] = await Promise.all([fallback.upgraded, fallback.pollOpened]);
    expect(pollOpenedAt).toBeGreaterThan(upgradedAt);
    expect(pollOpenedAt - upgradedAt).toBeLessThan(12_000);
    await startChat(alice, who.bob.name);
    await sendMessage(alice, who.bob.name, "Alice over long-polling");
    await waitForTick(alice, "delivered", TIMEOUT);
    expect(polls).toContain("POST /ws/poll/send");
  }, TWO_BROWSERS);

  test("when the polling browser leaves, the other sees it offline", async () => {
    const { alice, bob } = await chattingOverPolling();
    await alice.context().close();
    await headerSays(bob, false);
  }, TWO_BROWSERS);
});
