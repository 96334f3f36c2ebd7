// Strangers stay strangers, in real Chromium with fake cameras against the real server
// (ICE_SERVERS=[]): two people in Video Roulette exchange text; "Keep in touch" pressed by one
// reveals nothing to the other, pressed by both opens a chat with the other's real name; a
// reported roulette partner leaves a stored report with a real JPEG still, and a blocked one is
// gone at once; an incoming call does not start the callee's camera before Accept, and Report in
// a call stores a still too. Screenshots go to tests/e2e/screenshots/.
import { describe, expect, test } from "bun:test";
import type { Database } from "bun:sqlite";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import sharp from "sharp";
import type { Page } from "playwright-core";
import { registerAccount } from "./support/accounts.ts";
import { openVideoTab, pageSettled, startChat, videoPlays, waitForRouletteStatus } from "./support/screens.ts";
import { screenshot } from "./support/screenshots.ts";
import { readServerDb } from "./support/data.ts";
import { browserSuite } from "./support/suite.ts";

const WAIT = { timeout: 15_000 };

const suite = browserSuite({
  setup: async (server) => {
    const register = (username: string, name: string, gender: string, [code, country]: [string, string]) =>
      registerAccount(server, username, name, { gender, age: 29, country_code: code, country_name: country });
    await register("gina", "Gina", "female", ["ES", "Spain"]);
    await register("hank", "Hank", "male", ["CA", "Canada"]);
    await register("ivy", "Ivy", "female", ["NL", "Netherlands"]);
    await register("jack", "Jack", "male", ["SE", "Sweden"]);
    await register("kate", "Kate", "female", ["PT", "Portugal"]);
    await register("leo", "Leo", "male", ["IE", "Ireland"]);
  },
  open: { camera: true, dismissDialogs: true, ...WAIT },
});

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

const roulette = (page: Page) => page.locator("section.roulette");
const button = (page: Page, name: string) => roulette(page).getByRole("button", { name, exact: true });
const chatBox = (page: Page) => roulette(page).getByRole("textbox", { name: "Message to the stranger" });
const overlay = (page: Page) => page.getByRole("dialog", { name: /^Video call with / });

const waitForStatus = (page: Page, wanted: string) => waitForRouletteStatus(page, wanted, WAIT.timeout);

/** Both press Start on the Video Chat tab and wait until each sees the other's video. */
async function pair(a: Page, b: Page) {
  for (const page of [a, b]) {
    if ((await roulette(page).count()) === 0) await openVideoTab(page, WAIT.timeout);
    await button(page, "Start Video Chat").click();
  }
  for (const page of [a, b]) {
    await waitForStatus(page, "connected");
    await videoPlays(page, `video[aria-label="Partner's video"]`, WAIT.timeout);
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

/** The reports as the server stored them, straight from its SQLite file. */
function storedReports(): StoredReport[] {
  return readServerDb(suite.server, (db) =>
    db
      .query<StoredReport, []>(
        `SELECT r1.username AS reporter, r2.username AS reported, context, reason, roulette_id, evidence_path
         FROM reports JOIN users r1 ON r1.id = reporter_id JOIN users r2 ON r2.id = reported_id ORDER BY reports.id`,
      )
      .all(),
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
  roulette(page).locator(".roulette-line").evaluateAll((items) => items.map((i) => `${i.classList.contains("is-mine") ? "mine" : "theirs"}:${i.textContent?.replace(/^(You|Stranger): /, "")}`));

describe("Video Roulette among strangers", () => {
  let gina: Page;
  let hank: Page;

  test("two people in roulette exchange text messages under the videos", async () => {
    gina = await suite.open("gina");
    hank = await suite.open("hank");
    await pair(gina, hank);
    expect(await roulette(gina).locator(".roulette-partner strong").textContent()).toBe("Stranger");
    expect(await roulette(gina).textContent()).not.toContain("Hank");

    await chatBox(gina).fill("Hi! Greetings from Spain");
    await chatBox(gina).press("Enter");
    await roulette(hank).locator(".roulette-line.is-theirs").waitFor(WAIT);
    await chatBox(hank).fill("Hello from Canada");
    await chatBox(hank).press("Enter");
    await roulette(gina).locator(".roulette-line.is-theirs").waitFor(WAIT);

    expect(await lines(gina)).toEqual(["mine:Hi! Greetings from Spain", "theirs:Hello from Canada"]);
    expect(await lines(hank)).toEqual(["theirs:Hi! Greetings from Spain", "mine:Hello from Canada"]);
    expect(await chatBox(gina).inputValue()).toBe("");
    await screenshot(gina, "safety-roulette-text-chat");
  });

  test("Keep in touch pressed by one reveals nothing to the other; pressed by both opens a chat with the real name", async () => {
    await button(gina, "Keep in touch").click();
    await button(gina, "Waiting for the stranger to choose too").waitFor(WAIT);
    // Hank's screen gives nothing away. A line Gina writes after pressing reaches Hank through
    // the server after anything her press made it send him, so once he has it, he has seen all.
    await chatBox(gina).fill("Still there?");
    await chatBox(gina).press("Enter");
    await roulette(hank).locator(".roulette-line.is-theirs", { hasText: "Still there?" }).waitFor(WAIT);
    await pageSettled(hank);
    expect(await button(hank, "Keep in touch").getAttribute("aria-pressed")).toBe("false");
    expect(await hank.locator("body").textContent()).not.toContain("Gina");
    expect(await hank.getByText("Waiting for the stranger").count()).toBe(0);

    await button(hank, "Keep in touch").click();
    await gina.getByText("You can now chat with Hank").waitFor(WAIT);
    await hank.getByText("You can now chat with Gina").waitFor(WAIT);
    await gina.locator(".chat-header-name", { hasText: "Hank" }).waitFor(WAIT);
    await hank.locator(".chat-header-name", { hasText: "Gina" }).waitFor(WAIT);
  });

  test("reporting a roulette partner ends the session and stores the report with a JPEG still", async () => {
    await pair(gina, hank);
    await roulette(gina).getByRole("button", { name: "Report" }).click();
    const dialog = gina.getByRole("dialog", { name: "Report Stranger" });
    await dialog.waitFor(WAIT);
    // The pair ended at once: Hank is looking for someone else.
    await waitForStatus(hank, "searching");
    await dialog.getByLabel("Sexual content or nudity").check();
    await dialog.getByRole("button", { name: "Send report" }).click();
    await gina.getByText("Thanks. Our moderators will review your report.").first().waitFor(WAIT);
    await gina.getByRole("dialog", { name: "Block Stranger?" }).getByRole("button", { name: "Not now" }).click();

    const rows = storedReports();
    expect(rows).toHaveLength(1);
    const [row] = rows;
    expect(row).toMatchObject({ reporter: "gina", reported: "hank", context: "roulette", reason: "sexual_content" });
    expect(row?.roulette_id).toBeTruthy();
    await expectJpegStill(row?.evidence_path ?? null);
    // Closing the dialog resumed Gina's search; both leave, so the next pairs are with others.
    await waitForStatus(gina, "searching");
    for (const page of [gina, hank]) await button(page, "Stop").click();
  });

  test("Block on the stranger's video ends the pair at once and stores the block", async () => {
    const kate = await suite.open("kate");
    const leo = await suite.open("leo");
    await pair(kate, leo);
    await roulette(kate).getByRole("button", { name: "Block" }).click();
    await kate.getByText("Blocked. You won't be paired with this person again.").waitFor(WAIT);
    await waitForStatus(kate, "searching");
    await waitForStatus(leo, "searching");
    // A stranger block lives apart from named blocks (issue 18): its own table, none named.
    const blocksIn = (db: Database, table: string) =>
      db
        .query<{ blocker: string; blocked: string }, []>(
          `SELECT u1.username AS blocker, u2.username AS blocked FROM ${table} JOIN users u1 ON u1.id = blocker_id JOIN users u2 ON u2.id = blocked_id`,
        )
        .all();
    const [strangerBlocks, namedBlocks] = readServerDb(suite.server, (db) => [blocksIn(db, "roulette_blocks"), blocksIn(db, "blocks")]);
    expect(strangerBlocks).toEqual([{ blocker: "kate", blocked: "leo" }]);
    expect(namedBlocks).toEqual([]);
  });
});

describe("consent before the camera", () => {
  test("an incoming call does not start the callee's camera before Accept", async () => {
    const ivy = await suite.open("ivy");
    const jack = await suite.open("jack", { initScript: countCameraRequests });
    await startChat(ivy, "Jack");
    await ivy.getByRole("button", { name: "Video call Jack" }).click();

    // The ringing screen is drawn, with its effects run: a camera it asked for would be counted.
    await overlay(jack).getByText("is calling...").waitFor(WAIT);
    await pageSettled(jack);
    const requests = () => jack.evaluate(() => (window as unknown as { cameraRequests: number }).cameraRequests);
    expect(await requests()).toBe(0);
    expect(await overlay(jack).locator("video").count()).toBe(0);
    await screenshot(jack, "safety-incoming-call");

    await overlay(jack).getByRole("button", { name: "Accept" }).click();
    await jack.waitForFunction(() => (document.querySelector<HTMLVideoElement>(`video[aria-label="Ivy's video"]`)?.videoWidth ?? 0) > 0, null, WAIT);
    await ivy.waitForFunction(() => (document.querySelector<HTMLVideoElement>(`video[aria-label="Jack's video"]`)?.videoWidth ?? 0) > 0, null, WAIT);
    expect(await requests()).toBe(1);

    // Report in the call: the still is taken at once and the dialog opens over the call.
    await overlay(ivy).getByRole("button", { name: "Report" }).click();
    const dialog = ivy.getByRole("dialog", { name: "Report Jack" });
    await dialog.getByLabel("Harassment or hate").check();
    await dialog.getByLabel("Details (optional)").fill("Shouted insults at me");
    await screenshot(ivy, "safety-call-report");
    await dialog.getByRole("button", { name: "Send report" }).click();
    await ivy.getByRole("dialog", { name: "Block Jack?" }).getByRole("button", { name: "Not now" }).click();
    const report = storedReports().find((r) => r.context === "call");
    expect(report).toMatchObject({ reporter: "ivy", reported: "jack", reason: "harassment" });
    await expectJpegStill(report?.evidence_path ?? null);

    await overlay(jack).getByRole("button", { name: "End call" }).click();
    await overlay(ivy).waitFor({ state: "detached", ...WAIT });
  });
});
