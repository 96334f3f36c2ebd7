// One person's presence reads the same everywhere on the chat screen (issue 19): the open chat's
// header, their profile and their row in the sidebar, when they come online after the page loaded
// (also while this tab's connection was down, so it learns it from the chat list, not an event)
// and when they leave again (after the server's grace), in both directions and at both widths.
// Every test makes its own people.
import { describe, expect, test } from "bun:test";
import type { Page } from "playwright-core";
import { MOBILE } from "./support/browser.ts";
import { person, signIn, type Person } from "./support/people.ts";
import { sendMessage, startChat } from "./support/screens.ts";
import { screenshot } from "./support/screenshots.ts";
import { browserSuite } from "./support/suite.ts";
import { until } from "../support/until.ts";
import { apiAs } from "./support/accounts.ts";

/** Generous: presence news crosses a loaded machine; the server's grace is 1 s here. */
const PRESENCE_TIMEOUT_MS = 60_000;
const WAIT = { timeout: PRESENCE_TIMEOUT_MS };
/** Two browsers, each coming and going: minutes on a loaded 2-core machine. */
const TWO_BROWSERS = 180_000;

/** What the page says about a person in each place that shows them: null where they are not shown. */
interface Shown {
  header: string | null;
  row: string | null;
  profile: string | null;
}

type PresencePage = { WebSocket: typeof WebSocket; __sockets: WebSocket[]; __cut: boolean; __shown: (who: string) => Shown };

/**
 * Runs before the page's scripts. Keeps every WebSocket the page opens in `__sockets`, and while
 * `__cut` is set points new ones at a closed port and fails the long-polling fallback's requests:
 * a network outage the test can start and end. `__shown(name)` reads what the page says about
 * `name` in the header, the sidebar row and the profile.
 */
function presencePage() {
  const w = window as unknown as PresencePage & { fetch: (input: RequestInfo | URL, init?: RequestInit) => Promise<Response> };
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
  w.__shown = (who) => {
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
  };
}

const suite = browserSuite({
  // A short grace keeps the "leaves" half quick; the rule is the same at the default 5 s.
  env: { PRESENCE_GRACE_SECONDS: "1" },
  open: { initScript: presencePage, logConsoleErrors: true, listLoaded: true, timeout: PRESENCE_TIMEOUT_MS, defaultTimeout: PRESENCE_TIMEOUT_MS },
  isolated: true,
  // A closing page ends its long-polling session itself (pagehide, poll-transport.ts), so the
  // server is usually idle at once. The close is one keepalive request from a page going away: when
  // it is lost (once, behind a /ws upgrade the network held open), the server's idle sweep ends the
  // session, up to a held poll (25 s) and the idle time (45 s) later. The wait ends when idle.
  idleWithinMs: 100_000,
});

const people = async () => ({
  alice: await person(suite, "alice", "Alice"),
  bob: await person(suite, "bob", "Bob", { gender: "male", age: 34 }),
});

/** Closes the page's browser, as a person closing it. */
const leave = (page: Page) => page.context().close();

const shownFor = (page: Page, name: string): Promise<Shown> => page.evaluate((who) => (window as unknown as PresencePage).__shown(who), name);

/** Waits until the header (or profile) and the sidebar row both show `name` as `online`; fails with what they showed. */
async function waitAgree(page: Page, name: string, online: boolean, where: "header" | "profile"): Promise<void> {
  try {
    await page.waitForFunction(
      ([who, want, place]) => {
        const shown = (window as unknown as PresencePage).__shown(who);
        const main = shown[place];
        return main !== null && shown.row !== null && (main === "Online") === want && (shown.row === "Online") === want;
      },
      [name, online, where] as const,
      WAIT,
    );
  } catch (error) {
    const last = await shownFor(page, name).catch(() => null);
    throw new Error(`${name} should show ${online ? "online" : "offline"} in the ${where} and the row; saw ${JSON.stringify(last)} (${error})`);
  }
}

/** Samples the page every animation frame until the returned function is called; it answers every moment (two frames running) the row and the header disagreed. */
async function watchDisagreement(page: Page, name: string): Promise<() => Promise<string[]>> {
  await page.evaluate((who) => {
    const w = window as unknown as PresencePage & { __lastDisagree?: string; __stopWatch?: boolean; __disagreements: string[] };
    const seen: string[] = [];
    const tick = () => {
      const shown = w.__shown(who);
      if (shown.header !== null && shown.row !== null) {
        const h = shown.header === "Online";
        const r = shown.row === "Online";
        // A frame may fall between two renders; two frames in a row in disagreement is what a person sees.
        const now = h === r ? "" : `header ${h ? "Online" : "Offline"}, row ${r ? "Online" : "not online"}`;
        if (now && w.__lastDisagree === now) seen.push(now);
        w.__lastDisagree = now;
      }
      if (w.__stopWatch) return;
      requestAnimationFrame(tick);
    };
    w.__disagreements = seen;
    requestAnimationFrame(tick);
  }, name);
  return () =>
    page.evaluate(() => {
      const w = window as unknown as { __stopWatch?: boolean; __disagreements: string[] };
      w.__stopWatch = true;
      return w.__disagreements;
    });
}

/** Bob's presence as the server tells anyone who asks (here a third account's session). */
async function onlineForOthers(bob: Person): Promise<() => Promise<boolean>> {
  const probe = await signIn(suite.server, (await person(suite, "probe", "Probe")).username);
  const bobId = (await signIn(suite.server, bob.username)).user.id;
  return async () => {
    const answer = await apiAs(suite.server, probe.token, `/api/users/${bobId}`);
    return ((await answer.json()) as { user: { is_online: boolean } }).user.is_online;
  };
}

/** Alice writes to Bob once: each is in the other's chat list from then on. */
async function aliceWritesToBob(alice: Page, bob: Person): Promise<void> {
  await startChat(alice, bob.name);
  await sendMessage(alice, bob.name, `Hi ${bob.name}`);
  await alice.locator(".message-row.is-own").first().waitFor();
}

describe("presence at 1280 px", () => {
  test("a contact who signs in after the chat was opened shows Online in the header, the profile and the sidebar row alike", async () => {
    const who = await people();
    const alice = await suite.open(who.alice.username);
    await startChat(alice, who.bob.name);
    expect((await shownFor(alice, who.bob.name)).header).toBe("Offline");
    const disagreements = await watchDisagreement(alice, who.bob.name);

    const bob = await suite.open(who.bob.username);
    await waitAgree(alice, who.bob.name, true, "header");
    expect(await disagreements()).toEqual([]);
    await screenshot(alice, "presence-online-header");
    await alice.locator(".chat-header-contact").click();
    await alice.locator(".profile-view .status-pill").getByText("Online").waitFor();
    await waitAgree(alice, who.bob.name, true, "profile");

    // And the other way: Bob opens the chat with Alice, who was online before his page loaded.
    await startChat(bob, who.alice.name);
    await waitAgree(bob, who.alice.name, true, "header");
  }, TWO_BROWSERS);

  test("when the contact leaves, the header, the profile and the sidebar row all say so after the grace", async () => {
    const who = await people();
    const alice = await suite.open(who.alice.username);
    await aliceWritesToBob(alice, who.bob);
    const bob = await suite.open(who.bob.username);
    await waitAgree(alice, who.bob.name, true, "header");
    await leave(bob);

    await waitAgree(alice, who.bob.name, false, "header");
    await screenshot(alice, "presence-offline-header");
    await alice.locator(".chat-header-contact").click();
    await alice.locator(".profile-view .presence-line").getByText("Last seen recently").waitFor();
    await waitAgree(alice, who.bob.name, false, "profile");
  }, TWO_BROWSERS);

  test("a contact who signs in while my connection is down shows Online in the header as in the chat list once it is back", async () => {
    const who = await people();
    const bobOnline = await onlineForOthers(who.bob);
    const alice = await suite.open(who.alice.username);
    await aliceWritesToBob(alice, who.bob);
    await alice.locator('[data-tab="chats"]').click();
    await alice.locator(".sidebar-panel .list .row").filter({ hasText: who.bob.name }).click();
    await alice.locator(".chat-header").waitFor();
    expect((await shownFor(alice, who.bob.name)).header).toBe("Offline");

    await alice.evaluate(() => {
      const w = window as unknown as PresencePage;
      w.__cut = true;
      for (const socket of w.__sockets) socket.close();
    });
    const bob = await suite.open(who.bob.username);
    await until(bobOnline, `the server telling others ${who.bob.name} is online`, PRESENCE_TIMEOUT_MS);
    await alice.evaluate(() => {
      (window as unknown as PresencePage).__cut = false;
    });
    // Back online, the chat list is loaded again and says Bob is online: so must the header.
    await waitAgree(alice, who.bob.name, true, "header");
    await screenshot(alice, "presence-online-after-outage");
    await leave(bob);
    await waitAgree(alice, who.bob.name, false, "header");
  }, TWO_BROWSERS);
});

describe("presence at 375 px", () => {
  test("on a phone the header and then the list say Online when the contact signs in, and offline when they leave", async () => {
    const who = await people();
    const alice = await suite.open(who.alice.username, { context: MOBILE });
    await startChat(alice, who.bob.name);
    await waitAgree(alice, who.bob.name, false, "header");
    const bob = await suite.open(who.bob.username, { context: MOBILE });
    // The list is behind the chat on a phone, but its rows are still on the page.
    await waitAgree(alice, who.bob.name, true, "header");
    await screenshot(alice, "presence-online-header");
    await alice.locator(".chat-header-contact").click();
    await waitAgree(alice, who.bob.name, true, "profile");
    await leave(bob);
    await waitAgree(alice, who.bob.name, false, "profile");
    await screenshot(alice, "presence-offline-profile");
  }, TWO_BROWSERS);
});
