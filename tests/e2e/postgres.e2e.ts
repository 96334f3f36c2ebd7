// The whole product on PostgreSQL (issue 22), in real Chromium against the real server started
// with DATABASE_URL naming a database made for this file (dropped after it): one walk as people
// take it. Alice and Bob sign up through the landing page's register form; Alice finds Bob and
// writes, Bob reads and answers (ticks turn to read); Alice sends a photo and Bob sees it; Alice
// calls Bob, he accepts and both remote videos play; both press 'Start Video Chat' in Video
// Roulette and see each other. The server must say it stores in PostgreSQL, each step finds its
// rows there (read from outside the server), so a server that silently used SQLite fails, and the
// server's log holds no error at the end. The steps run in order, each on where the one before
// left the two browsers. Screenshots go to tests/e2e/screenshots/.
import { afterAll, describe, expect, test } from "bun:test";
import type { Page } from "playwright-core";
import sharp from "sharp";
import { freshDatabase, type TestDatabase } from "../support/postgres.ts";
import { until } from "../support/until.ts";
import { fillRegisterForm, listLoaded, type RegisterFormEntries } from "./support/accounts.ts";
import { DESKTOP } from "./support/browser.ts";
import { callOverlay, imagesLoaded, openConversation, openVideoTab, partnerCountry, rouletteSection, sendMessage, startChat, videoPlays, waitForRouletteStatus, waitForTick } from "./support/screens.ts";
import { screenshot } from "./support/screenshots.ts";
import { browserSuite } from "./support/suite.ts";

// Generous: two browsers with fake cameras, a server and PostgreSQL share a loaded 2-core machine.
const WAIT = { timeout: 20_000 };

let database: TestDatabase | undefined;
const suite = browserSuite({
  // Made when the suite starts the server (it awaits this first); dropped below.
  env: async () => {
    database = await freshDatabase();
    return { DATABASE_URL: database.url };
  },
  open: WAIT,
});
// Registered after the suite's own afterAll, so it runs after the server has stopped.
afterAll(() => database?.drop());

/** Rows the server stored in its PostgreSQL database, read from outside the server. */
const stored = <T>(statement: string) => {
  if (!database) throw new Error("no database: the server has not started");
  return database.rows<T>(statement);
};

/** How many rows `statement` (a SELECT of one count) finds. */
const counted = async (statement: string) => (await stored<{ n: number }>(statement))[0]!.n;

interface Visitor extends RegisterFormEntries {
  name: string;
  /** What the register form's country picker is searched for. */
  country: string;
}

const ALICE: Visitor = { username: "alice", name: "Alice", gender: "female", age: 29, country: "Germany" };
const BOB: Visitor = { username: "bob", name: "Bob", gender: "male", age: 34, country: "France" };

/**
 * A first visit to the landing page with the fake camera allowed: the cookie banner answered, the
 * register form filled and sent, as a visitor signs up. Ends on the chat screen, signed in.
 */
async function signUp(who: Visitor): Promise<Page> {
  const page = await suite.firstVisit({ ...DESKTOP, permissions: ["camera", "microphone"] });
  page.setDefaultTimeout(WAIT.timeout);
  await page.getByRole("button", { name: "Reject non-essential" }).click();
  await page.click("label[for=tab-register]");
  // Detection on loopback finds no country: the picker waits for a choice.
  await page.waitForSelector("#reg-country-button:has-text('Select country')");
  await fillRegisterForm(page, who);
  await page.click("#reg-country-button");
  await page.fill(".picker-search", who.country);
  await page.keyboard.press("Enter");
  await page.locator(".panel-register button[type=submit]").click();
  await page.locator(".chat-app .tab-bar").waitFor();
  await listLoaded(page);
  return page;
}


const FIRST = "Hi Bob! Are you around?";
const ANSWER = "Hello Alice, I am here.";

let people: { alice: Page; bob: Page } | undefined;

/** Both browsers, signed up: a later step says so, rather than fail on a missing page, when the sign-up did not finish. */
function signedUp(): { alice: Page; bob: Page } {
  if (!people) throw new Error("Alice and Bob never reached the chat screen: the sign-up step failed");
  return people;
}

describe("the product on PostgreSQL", () => {
  test("the server stores in PostgreSQL, and Alice and Bob sign up through the register form", async () => {
    // The start-up line names the engine: a server that fell back to SQLite says storage=sqlite.
    expect(suite.server.output()).toMatch(/Web Chat listening\b.*\bstorage=postgres\b/);
    const alice = await signUp(ALICE);
    people = { alice, bob: await signUp(BOB) };
    await screenshot(alice, "postgres-signed-up");
    expect(await stored<{ username: string }>("SELECT username FROM users ORDER BY id")).toEqual([{ username: "alice" }, { username: "bob" }]);
  });

  test("Alice finds Bob and writes; Bob reads and answers; the ticks turn to read", async () => {
    const { alice, bob } = signedUp();
    await startChat(alice, BOB.name);
    await sendMessage(alice, BOB.name, FIRST);
    await waitForTick(alice, "delivered", WAIT.timeout);
    await openConversation(bob, ALICE.name);
    await bob.locator(".message-text", { hasText: FIRST }).waitFor();
    await waitForTick(alice, "read", WAIT.timeout);
    // Bob answers: they are no longer strangers, so Alice's photo reaches him unblurred.
    await sendMessage(bob, ALICE.name, ANSWER);
    await alice.locator(".message-text", { hasText: ANSWER }).waitFor();
    await screenshot(alice, "postgres-chat");
    await until(async () => (await counted("SELECT CAST(count(*) AS integer) AS n FROM messages WHERE content = 'Hi Bob! Are you around?' AND read_at IS NOT NULL")) === 1, "Alice's message stored as read in PostgreSQL", WAIT.timeout);
  });

  test("Alice sends a photo and Bob sees it", async () => {
    const { alice, bob } = signedUp();
    const photo = await sharp({ create: { width: 640, height: 480, channels: 3, background: "#f97316" } }).png().toBuffer();
    await alice.locator(".chat-window input[type=file]").setInputFiles({ name: "sunset.png", mimeType: "image/png", buffer: photo });
    const seen = bob.locator(".image-grid.grid-one img");
    await seen.waitFor();
    // Loaded from the server, not only announced: the picture has its pixels.
    await bob.waitForFunction(() => (document.querySelector<HTMLImageElement>(".image-grid.grid-one img")?.naturalWidth ?? 0) > 0, null, WAIT);
    // The photo stays covered until Bob's page has run its nudity check on it (slow under load).
    await bob.waitForFunction(() => document.querySelector(".blur-cover") === null, null, { timeout: 60_000 });
    await imagesLoaded(bob);
    await screenshot(bob, "postgres-photo");
    expect(await counted("SELECT CAST(count(*) AS integer) AS n FROM messages WHERE message_type = 'image' AND file_path IS NOT NULL")).toBe(1);
  });

  test("Alice calls Bob, Bob accepts, and both remote videos play", async () => {
    const { alice, bob } = signedUp();
    await alice.getByRole("button", { name: `Video call ${BOB.name}` }).click();
    await callOverlay(bob).getByRole("button", { name: "Accept" }).click();
    const seenByAlice = await videoPlays(alice, `video[aria-label="${BOB.name}'s video"]`, WAIT.timeout);
    const seenByBob = await videoPlays(bob, `video[aria-label="${ALICE.name}'s video"]`, WAIT.timeout);
    expect(seenByAlice.width).toBeGreaterThan(0);
    expect(seenByBob.width).toBeGreaterThan(0);
    await screenshot(alice, "postgres-call");
    // The answered call is remembered (for reports) in PostgreSQL.
    await until(async () => (await counted("SELECT CAST(count(*) AS integer) AS n FROM call_meetings")) === 1, "the answered call stored in PostgreSQL", WAIT.timeout);
    await callOverlay(alice).getByRole("button", { name: "End call" }).click();
    await callOverlay(alice).waitFor({ state: "detached" });
    await callOverlay(bob).waitFor({ state: "detached" });
  });

  test("both press 'Start Video Chat' in Video Roulette and see each other's video", async () => {
    const { alice, bob } = signedUp();
    await openVideoTab(alice, WAIT.timeout);
    await openVideoTab(bob, WAIT.timeout);
    await rouletteSection(alice).getByRole("button", { name: "Start Video Chat" }).click();
    await rouletteSection(alice).getByText("Looking for someone to chat with...").waitFor();
    await rouletteSection(bob).getByRole("button", { name: "Start Video Chat" }).click();
    expect((await videoPlays(alice, `video[aria-label="Partner's video"]`, WAIT.timeout)).width).toBeGreaterThan(0);
    expect((await videoPlays(bob, `video[aria-label="Partner's video"]`, WAIT.timeout)).width).toBeGreaterThan(0);
    await waitForRouletteStatus(alice, "connected", WAIT.timeout);
    await waitForRouletteStatus(bob, "connected", WAIT.timeout);
    // Strangers to each other here: each sees the other's country only.
    expect(await partnerCountry(alice)).toContain(BOB.country);
    expect(await partnerCountry(bob)).toContain(ALICE.country);
    await screenshot(bob, "postgres-roulette");
    // Pairings are saved every second, so that one can still be reported after a restart.
    await until(async () => (await counted("SELECT CAST(count(*) AS integer) AS n FROM roulette_sessions")) === 1, "the pairing stored in PostgreSQL", WAIT.timeout);
  });

  test("the server logged no error along the way", () => {
    // What the browsers cannot see (a background job failing on PostgreSQL, a request that failed
    // and was retried) still shows in the server's log.
    expect(suite.server.output().split("\n").filter((line) => /\bERROR\b/.test(line))).toEqual([]);
  });
});
