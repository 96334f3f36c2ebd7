// Strangers stay strangers, in real Chromium with fake cameras against the real server
// (ICE_SERVERS=[]): two people in Video Roulette exchange text; "Keep in touch" pressed by one
// reveals nothing to the other, pressed by both opens a chat with the other's real name; a
// reported roulette partner leaves a stored report with a real JPEG still, and a blocked one is
// gone at once; an incoming call does not start the callee's camera before Accept, and Report in
// a call stores a still too. Every test makes its own people. Screenshots go to tests/e2e/screenshots/.
import { describe, expect, test } from "bun:test";
import type { Database } from "bun:sqlite";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import sharp from "sharp";
import type { Page } from "playwright-core";
import { person, type Person } from "./support/people.ts";
import { callOverlay, openVideoTab, pageSettled, rouletteButton, rouletteSection, startChat, videoPlays, waitForRouletteStatus } from "./support/screens.ts";
import { screenshot } from "./support/screenshots.ts";
import { readServerDb } from "./support/data.ts";
import { browserSuite } from "./support/suite.ts";

/** Generous: two browsers with cameras share two loaded cores. */
const TIMEOUT = 120_000;
const WAIT = { timeout: TIMEOUT };
/** Two browsers with cameras, paired and talking: minutes on a loaded 2-core machine. */
const TWO_CAMERAS = 420_000;

const suite = browserSuite({ open: { camera: true, dismissDialogs: true, timeout: TIMEOUT, defaultTimeout: TIMEOUT }, isolated: true });

const PEOPLE = {
  gina: ["Gina", "female", "ES", "Spain"],
  hank: ["Hank", "male", "CA", "Canada"],
  ivy: ["Ivy", "female", "NL", "Netherlands"],
  jack: ["Jack", "male", "SE", "Sweden"],
  kate: ["Kate", "female", "PT", "Portugal"],
  leo: ["Leo", "male", "IE", "Ireland"],
} as const;

/** A new account like `who`, for this test only. */
function someone(who: keyof typeof PEOPLE): Promise<Person> {
  const [name, gender, code, country] = PEOPLE[who];
  return person(suite, who, name, { gender, age: 29, country_code: code, country_name: country });
}

/** Counts getUserMedia calls in the page, from before any of its scripts run. */
function countCameraRequests() {
  const devices = navigator.mediaDevices;
  const real = devices.getUserMedia.bind(devices);
  Object.assign(window, { cameraRequests: 0 });
  devices.getUserMedia = (constraints) => {
    const counted = window as unknown as { cameraRequests: number };
    counted.cameraRequests += 1;
    return real(constraints);
  };
}

const chatBox = (page: Page) => rouletteSection(page).getByRole("textbox", { name: "Message to the stranger" });


/** Both press Start on the Video Chat tab and wait until each sees the other's video. */
async function pair(a: Page, b: Page) {
  for (const page of [a, b]) {
    if ((await rouletteSection(page).count()) === 0) await openVideoTab(page, TIMEOUT);
    await rouletteButton(page, "Start Video Chat", true).click();
  }
  for (const page of [a, b]) {
    await waitForRouletteStatus(page, "connected", TIMEOUT);
    await videoPlays(page, `video[aria-label="Partner's video"]`, TIMEOUT);
  }
}

interface StoredReport {
  reporter: string;
  reported: string;
  context: string;
  reason: string;
  roulette_id: string | null;
  evidence_path: string | null;
}

/** The reports `reporter` filed, as the server stored them, straight from its SQLite file. */
function storedReports(reporter: Person): StoredReport[] {
  return readServerDb(suite.server, (db) =>
    db
      .query<StoredReport, [string]>(
        `SELECT r1.username AS reporter, r2.username AS reported, context, reason, roulette_id, evidence_path
         FROM reports JOIN users r1 ON r1.id = reporter_id JOIN users r2 ON r2.id = reported_id WHERE r1.username = ? ORDER BY reports.id`,
      )
      .all(reporter.username),
  );
}

/** The still is a real JPEG of the fake camera's frame, at most 640 px on its longest side. */
async function expectJpegStill(path: string | null) {
  const still = readFileSync(join(suite.server.dataDir, path ?? "missing"));
  const meta = await sharp(still).metadata();
  expect(meta.format).toBe("jpeg");
  expect(meta.width ?? 0).toBeGreaterThan(0);
  expect(Math.max(meta.width ?? 0, meta.height ?? 0)).toBeLessThanOrEqual(640);
  const { channels } = await sharp(still).stats();
  // A frame, not a blank canvas: the still has some contrast.
  expect(channels.some((c) => c.max - c.min > 20)).toBe(true);
}

const lines = (page: Page) =>
  rouletteSection(page).locator(".roulette-line").evaluateAll((items) => items.map((i) => `${i.classList.contains("is-mine") ? "mine" : "theirs"}:${i.textContent?.replace(/^(You|Stranger): /, "")}`));

describe("Video Roulette among strangers", () => {
  /** Gina and Hank, each in their own browser, paired in Video Roulette. */
  async function ginaAndHankPaired() {
    const who = { gina: await someone("gina"), hank: await someone("hank") };
    const gina = await suite.open(who.gina.username);
    const hank = await suite.open(who.hank.username);
    await pair(gina, hank);
    return { who, gina, hank };
  }

  test("two people in roulette exchange text messages under the videos", async () => {
    const { who, gina, hank } = await ginaAndHankPaired();
    expect(await rouletteSection(gina).locator(".roulette-partner strong").textContent()).toBe("Stranger");
    expect(await rouletteSection(gina).textContent()).not.toContain(who.hank.name);

    await chatBox(gina).fill("Hi! Greetings from Spain");
    await chatBox(gina).press("Enter");
    await rouletteSection(hank).locator(".roulette-line.is-theirs").waitFor(WAIT);
    await chatBox(hank).fill("Hello from Canada");
    await chatBox(hank).press("Enter");
    await rouletteSection(gina).locator(".roulette-line.is-theirs").waitFor(WAIT);

    expect(await lines(gina)).toEqual(["mine:Hi! Greetings from Spain", "theirs:Hello from Canada"]);
    expect(await lines(hank)).toEqual(["theirs:Hi! Greetings from Spain", "mine:Hello from Canada"]);
    expect(await chatBox(gina).inputValue()).toBe("");
    await screenshot(gina, "safety-roulette-text-chat");
  }, TWO_CAMERAS);

  test("Keep in touch pressed by one reveals nothing to the other; pressed by both opens a chat with the real name", async () => {
    const { who, gina, hank } = await ginaAndHankPaired();
    await rouletteButton(gina, "Keep in touch", true).click();
    await rouletteButton(gina, "Waiting for the stranger to choose too", true).waitFor(WAIT);
    // Hank's screen gives nothing away. A line Gina writes after pressing reaches Hank through
    // the server after anything her press made it send him, so once he has it, he has seen all.
    await chatBox(gina).fill("Still there?");
    await chatBox(gina).press("Enter");
    await rouletteSection(hank).locator(".roulette-line.is-theirs", { hasText: "Still there?" }).waitFor(WAIT);
    await pageSettled(hank);
    expect(await rouletteButton(hank, "Keep in touch", true).getAttribute("aria-pressed")).toBe("false");
    expect(await hank.locator("body").textContent()).not.toContain(who.gina.name);
    expect(await hank.getByText("Waiting for the stranger").count()).toBe(0);

    await rouletteButton(hank, "Keep in touch", true).click();
    await gina.getByText(`You can now chat with ${who.hank.name}`).waitFor(WAIT);
    await hank.getByText(`You can now chat with ${who.gina.name}`).waitFor(WAIT);
    await gina.locator(".chat-header-name", { hasText: who.hank.name }).waitFor(WAIT);
    await hank.locator(".chat-header-name", { hasText: who.gina.name }).waitFor(WAIT);
  }, TWO_CAMERAS);

  test("reporting a roulette partner ends the session and stores the report with a JPEG still", async () => {
    const { who, gina, hank } = await ginaAndHankPaired();
    await rouletteSection(gina).getByRole("button", { name: "Report" }).click();
    const dialog = gina.getByRole("dialog", { name: "Report Stranger" });
    await dialog.waitFor(WAIT);
    // The pair ended at once: Hank is looking for someone else.
    await waitForRouletteStatus(hank, "searching", TIMEOUT);
    await dialog.getByLabel("Sexual content or nudity").check();
    await dialog.getByRole("button", { name: "Send report" }).click();
    await gina.getByText("Thanks. Our moderators will review your report.").first().waitFor(WAIT);
    await gina.getByRole("dialog", { name: "Block Stranger?" }).getByRole("button", { name: "Not now" }).click();

    const rows = storedReports(who.gina);
    expect(rows).toHaveLength(1);
    const [row] = rows;
    expect(row).toMatchObject({ reporter: who.gina.username, reported: who.hank.username, context: "roulette", reason: "sexual_content" });
    expect(row?.roulette_id).toBeTruthy();
    await expectJpegStill(row?.evidence_path ?? null);
    // Closing the dialog resumed Gina's search.
    await waitForRouletteStatus(gina, "searching", TIMEOUT);
  }, TWO_CAMERAS);

  test("Block on the stranger's video ends the pair at once and stores the block", async () => {
    const who = { kate: await someone("kate"), leo: await someone("leo") };
    const kate = await suite.open(who.kate.username);
    const leo = await suite.open(who.leo.username);
    await pair(kate, leo);
    await rouletteSection(kate).getByRole("button", { name: "Block" }).click();
    await kate.getByText("Blocked. You won't be paired with this person again.").waitFor(WAIT);
    await waitForRouletteStatus(kate, "searching", TIMEOUT);
    await waitForRouletteStatus(leo, "searching", TIMEOUT);
    // A stranger block lives apart from named blocks (issue 18): its own table, none named.
    const blocksIn = (db: Database, table: string) =>
      db
        .query<{ blocker: string; blocked: string }, [string, string]>(
          `SELECT u1.username AS blocker, u2.username AS blocked FROM ${table} JOIN users u1 ON u1.id = blocker_id JOIN users u2 ON u2.id = blocked_id
           WHERE u1.username IN (?1, ?2) OR u2.username IN (?1, ?2)`,
        )
        .all(who.kate.username, who.leo.username);
    const [strangerBlocks, namedBlocks] = readServerDb(suite.server, (db) => [blocksIn(db, "roulette_blocks"), blocksIn(db, "blocks")]);
    expect(strangerBlocks).toEqual([{ blocker: who.kate.username, blocked: who.leo.username }]);
    expect(namedBlocks).toEqual([]);
  }, TWO_CAMERAS);
});

describe("consent before the camera", () => {
  test("an incoming call does not start the callee's camera before Accept", async () => {
    const who = { ivy: await someone("ivy"), jack: await someone("jack") };
    const ivy = await suite.open(who.ivy.username);
    const jack = await suite.open(who.jack.username, { initScript: countCameraRequests });
    await startChat(ivy, who.jack.name);
    await ivy.getByRole("button", { name: `Video call ${who.jack.name}` }).click();

    // The ringing screen is drawn, with its effects run: a camera it asked for would be counted.
    await callOverlay(jack).getByText("is calling...").waitFor(WAIT);
    await pageSettled(jack);
    const requests = () => jack.evaluate(() => (window as unknown as { cameraRequests: number }).cameraRequests);
    expect(await requests()).toBe(0);
    expect(await callOverlay(jack).locator("video").count()).toBe(0);
    await screenshot(jack, "safety-incoming-call");

    await callOverlay(jack).getByRole("button", { name: "Accept" }).click();
    await jack.waitForFunction((s) => (document.querySelector<HTMLVideoElement>(s)?.videoWidth ?? 0) > 0, `video[aria-label="${who.ivy.name}'s video"]`, WAIT);
    await ivy.waitForFunction((s) => (document.querySelector<HTMLVideoElement>(s)?.videoWidth ?? 0) > 0, `video[aria-label="${who.jack.name}'s video"]`, WAIT);
    expect(await requests()).toBe(1);

    // Report in the call: the still is taken at once and the dialog opens over the call.
    await callOverlay(ivy).getByRole("button", { name: "Report" }).click();
    const dialog = ivy.getByRole("dialog", { name: `Report ${who.jack.name}` });
    await dialog.getByLabel("Harassment or hate").check();
    await dialog.getByLabel("Details (optional)").fill("Shouted insults at me");
    await screenshot(ivy, "safety-call-report");
    await dialog.getByRole("button", { name: "Send report" }).click();
    await ivy.getByRole("dialog", { name: `Block ${who.jack.name}?` }).getByRole("button", { name: "Not now" }).click();
    const report = storedReports(who.ivy).find((r) => r.context === "call");
    expect(report).toMatchObject({ reporter: who.ivy.username, reported: who.jack.username, reason: "harassment" });
    await expectJpegStill(report?.evidence_path ?? null);

    await callOverlay(jack).getByRole("button", { name: "End call" }).click();
    await callOverlay(ivy).waitFor({ state: "detached", ...WAIT });
  }, TWO_CAMERAS);
});
