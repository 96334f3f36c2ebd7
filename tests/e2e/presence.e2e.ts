// One person's presence reads the same everywhere on the chat screen (issue 19): the open chat's
// header, their profile and their row in the sidebar, when they come online after the page loaded
// (also while this tab's connection was down, so it learns it from the chat list, not an event)
// and when they leave again (after the server's grace), in both directions and at both widths.
import { describe, expect, test } from "bun:test";
import type { BrowserContextOptions, Page } from "playwright-core";
import { registerAccount } from "./support/accounts.ts";
import { DESKTOP, MOBILE } from "./support/browser.ts";
import { startChat } from "./support/screens.ts";
import { screenshot } from "./support/screenshots.ts";
import { browserSuite } from "./support/suite.ts";

/** Presence news must reach the page within this long (the server's grace is 1 s here). */
const PRESENCE_TIMEOUT_MS = 15_000;

/**
 * Keeps every WebSocket the page opens in `__sockets`, and while `__cut` is set points new ones at
 * a closed port and fails the long-polling fallback's requests: a network outage the test can
 * start and end.
 */
function cuttableSockets() {
  const w = window as unknown as { WebSocket: typeof WebSocket; __sockets: WebSocket[]; __cut: boolean; fetch: (input: RequestInfo | URL, init?: RequestInit) => Promise<Response> };
  const Native = w.WebSocket;
  const nativeFetch = w.fetch.bind(window);
  w.fetch = (input, init) => {
    const url = new URL(input instanceof Request ? input.url : String(input), location.href);
    return w.__cut && url.pathname.startsWith("/ws/poll") ? Promise.reject(new TypeError("Failed to fetch")) : nativeFetch(input, init);
  };
  w.__sockets = [];
  w.__cut = false;
  w.WebSocket = class extends Native {
    constructor(url: string | URL, protocols?: string | string[]) {
      super(w.__cut ? "ws://127.0.0.1:9/" : url, protocols);
      w.__sockets.push(this);
    }
  };
}

/** Closes the page's browser, as a person closing it. */
const leave = (page: Page) => page.context().close();

/** What the page says about `name` in each place that shows it: null where it is not shown. */
interface Shown {
  header: string | null;
  row: string | null;
  profile: string | null;
}

function shownFor(page: Page, name: string): Promise<Shown> {
  return page.evaluate((who) => {
    const text = (el: Element | null | undefined) => el?.textContent?.trim() ?? null;
    const header = document.querySelector(".chat-header");
    const headerShows = header && text(header.querySelector(".chat-header-name")) === who;
    const row = [...document.querySelectorAll(".sidebar-panel .list .row")].find((r) => text(r.querySelector(".row-name")) === who);
    // A people row says "Online" or "Seen ..."; a chat row shows only its avatar's dot.
    const rowSays = (r: Element) => {
      const status = text(r.querySelector(".row-status"));
      if (status !== null) return status;
      return r.querySelector(".avatar .presence-dot.is-online") ? "Online" : "dot offline";
    };
    const profile = document.querySelector(".profile-view");
    const profileShows = profile && text(profile.querySelector("#profile-name")) === who;
    return {
      header: headerShows ? text(header.querySelector(".status-text")) : null,
      row: row ? rowSays(row) : null,
      profile: profileShows ? text(profile.querySelector(".presence-line")) : null,
    };
  }, name);
}

/** Waits until the header (or profile) and the sidebar row both show `name` as `online`; fails with what they showed. */
async function waitAgree(page: Page, name: string, online: boolean, where: "header" | "profile"): Promise<void> {
  const deadline = Date.now() + PRESENCE_TIMEOUT_MS;
  let last: Shown = { header: null, row: null, profile: null };
  while (Date.now() < deadline) {
    last = await shownFor(page, name);
    const main = last[where];
    if (main !== null && last.row !== null && (main === "Online") === online && (last.row === "Online") === online) return;
    await page.waitForTimeout(100);
  }
  throw new Error(`${name} should show ${online ? "online" : "offline"} in the ${where} and the row; saw ${JSON.stringify(last)}`);
}

/** Samples the page every animation frame until the returned function is called; it answers every moment (two frames running) the row and the header disagreed. */
async function watchDisagreement(page: Page, name: string): Promise<() => Promise<string[]>> {
  await page.evaluate((who) => {
    const seen: string[] = [];
    const text = (el: Element | null | undefined) => el?.textContent?.trim() ?? null;
    const tick = () => {
      const header = document.querySelector(".chat-header");
      const row = [...document.querySelectorAll(".sidebar-panel .list .row")].find((r) => text(r.querySelector(".row-name")) === who);
      if (header && row && text(header.querySelector(".chat-header-name")) === who) {
        const h = text(header.querySelector(".status-text")) === "Online";
        const r = (text(row.querySelector(".row-status")) ?? (row.querySelector(".avatar .presence-dot.is-online") ? "Online" : "")) === "Online";
        // A frame may fall between two renders; two frames in a row in disagreement is what a person sees.
        const now = h === r ? "" : `header ${h ? "Online" : "Offline"}, row ${r ? "Online" : "not online"}`;
        if (now && (window as unknown as { __lastDisagree?: string }).__lastDisagree === now) seen.push(now);
        (window as unknown as { __lastDisagree?: string }).__lastDisagree = now;
      }
      if ((window as unknown as { __stopWatch?: boolean }).__stopWatch) return;
      requestAnimationFrame(tick);
    };
    (window as unknown as { __disagreements: string[] }).__disagreements = seen;
    requestAnimationFrame(tick);
  }, name);
  return () =>
    page.evaluate(() => {
      (window as unknown as { __stopWatch?: boolean }).__stopWatch = true;
      return (window as unknown as { __disagreements: string[] }).__disagreements;
    });
}

let bobId = 0;
/** A third account's session, to ask the server about Bob. */
let probeToken = "";

const suite = browserSuite({
  // A short grace keeps the "leaves" half quick; the rule is the same at the default 5 s.
  env: { PRESENCE_GRACE_SECONDS: "1" },
  setup: async (server) => {
    await registerAccount(server, "alice", "Alice");
    bobId = (await registerAccount(server, "bob", "Bob", { gender: "male", age: 34 })).user.id;
    probeToken = (await registerAccount(server, "probe", "Probe")).token;
  },
  open: { initScript: cuttableSockets, logConsoleErrors: true, listLoaded: true },
});

/** Bob's presence as the server tells anyone who asks. */
async function bobOnline(): Promise<boolean> {
  const answer = await fetch(`${suite.server.url}/api/users/${bobId}`, { headers: { authorization: `Bearer ${probeToken}` } });
  return ((await answer.json()) as { user: { is_online: boolean } }).user.is_online;
}

const openChatWithBob = (alice: Page) => startChat(alice, "Bob");

describe("presence at 1280 px", () => {
  let alice: Page;

  test("a contact who signs in after the chat was opened shows Online in the header, the profile and the sidebar row alike", async () => {
    alice = await suite.open("alice");
    await openChatWithBob(alice);
    expect((await shownFor(alice, "Bob")).header).toBe("Offline");
    const disagreements = await watchDisagreement(alice, "Bob");

    const bob = await suite.open("bob");
    await waitAgree(alice, "Bob", true, "header");
    expect(await disagreements()).toEqual([]);
    await screenshot(alice, "presence-online-header");
    await alice.locator(".chat-header-contact").click();
    await alice.locator(".profile-view .status-pill").getByText("Online").waitFor({ timeout: 2000 });
    await waitAgree(alice, "Bob", true, "profile");

    // And the other way: Bob opens the chat with Alice, who was online before his page loaded.
    await bob.locator(".sidebar-panel").getByRole("button", { name: /Alice/ }).click();
    await bob.getByRole("button", { name: "Start Chat" }).click();
    await waitAgree(bob, "Alice", true, "header");

    // A message makes them a conversation: each is in the other's chat list from now on.
    await alice.getByRole("button", { name: "Start Chat" }).click();
    await alice.getByRole("textbox", { name: "Message Bob" }).fill("Hi Bob");
    await alice.keyboard.press("Enter");
    await alice.locator(".message-row.is-own").first().waitFor();
    await leave(bob);
  }, 60_000);

  test("when the contact leaves, the header, the profile and the sidebar row all say so after the grace", async () => {
    await waitAgree(alice, "Bob", false, "header");
    await screenshot(alice, "presence-offline-header");
    await alice.locator(".chat-header-contact").click();
    await alice.locator(".profile-view .presence-line").getByText("Last seen recently").waitFor({ timeout: 2000 });
    await waitAgree(alice, "Bob", false, "profile");
    await alice.getByRole("button", { name: "Start Chat" }).click();
  }, 60_000);

  test("a contact who signs in while my connection is down shows Online in the header as in the chat list once it is back", async () => {
    await alice.locator('[data-tab="chats"]').click();
    await alice.locator(".sidebar-panel .list .row").filter({ hasText: "Bob" }).click();
    await alice.locator(".chat-header").waitFor();
    expect((await shownFor(alice, "Bob")).header).toBe("Offline");

    await alice.evaluate(() => {
      const w = window as unknown as { __sockets: WebSocket[]; __cut: boolean };
      w.__cut = true;
      for (const socket of w.__sockets) socket.close();
    });
    const bob = await suite.open("bob");
    try {
      const until = Date.now() + PRESENCE_TIMEOUT_MS;
      while (!(await bobOnline()) && Date.now() < until) await Bun.sleep(100);
      expect(await bobOnline()).toBe(true);
      await alice.evaluate(() => {
        (window as unknown as { __cut: boolean }).__cut = false;
      });
      // Back online, the chat list is loaded again and says Bob is online: so must the header.
      await waitAgree(alice, "Bob", true, "header");
      await screenshot(alice, "presence-online-after-outage");
    } finally {
      await leave(bob);
    }
    await waitAgree(alice, "Bob", false, "header");
    await leave(alice);
  }, 60_000);
});

describe("presence at 375 px", () => {
  test("on a phone the header and then the list say Online when the contact signs in, and offline when they leave", async () => {
    const alice = await suite.open("alice", { context: MOBILE });
    await openChatWithBob(alice);
    await waitAgree(alice, "Bob", false, "header");
    const bob = await suite.open("bob", { context: MOBILE });
    // The list is behind the chat on a phone, but its rows are still on the page.
    await waitAgree(alice, "Bob", true, "header");
    await screenshot(alice, "presence-online-header");
    await alice.locator(".chat-header-contact").click();
    await waitAgree(alice, "Bob", true, "profile");
    await leave(bob);
    await waitAgree(alice, "Bob", false, "profile");
    await screenshot(alice, "presence-offline-profile");
    await leave(alice);
  }, 60_000);
});
