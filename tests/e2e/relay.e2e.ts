// IP privacy through a real TURN relay (issue 20): Debian's coturn on a free loopback port, the
// server minting credentials for it (TURN_URLS, TURN_SECRET, so the policy is relay), and two
// Chromium contexts. A roulette pairing and a one-to-one call connect, both videos play, the
// selected candidate pair is relay on both sides (getStats), every candidate either browser
// gathered is relay, and the screens say "Relayed". Controls: without a relay the screens say
// "Direct" and roulette warns before the first Start; with a credential coturn refuses, roulette
// gives up with the spec's text. Each case has its own server (one coturn for the file), and
// every test makes its own people. RELAY_MEASURE=1 adds the timings written in README.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Page } from "playwright-core";
import { openSignedIn, registerAccount, type OpenOptions } from "./support/accounts.ts";
import { MOBILE } from "./support/browser.ts";
import { person } from "./support/people.ts";
import { openVideoTab, rouletteSection, startChat, videoPlays } from "./support/screens.ts";
import { screenshot } from "./support/screenshots.ts";
import { startServerForBrowsers, type RunningServer } from "./support/server.ts";
import { browserSuite, type BrowserSuite } from "./support/suite.ts";
import { startCoturn, type RunningCoturn } from "../support/coturn.ts";

/** Generous: two browsers with cameras and a relay share two loaded cores. */
const TIMEOUT = 120_000;
const WAIT = { timeout: TIMEOUT };
/** Two browsers with cameras, paired through the relay: minutes on a loaded 2-core machine. */
const TWO_CAMERAS = 420_000;
const RELAYED = "Relayed: your IP address is hidden";
const DIRECT = "Direct: your partner's browser can see your IP address";

let coturn: RunningCoturn;

beforeAll(async () => {
  coturn = await startCoturn();
}, 60_000);

afterAll(async () => {
  await coturn?.stop();
});

/** Keeps every RTCPeerConnection the page makes and every candidate it gathers, for the checks. */
function recordConnections() {
  const Native = window.RTCPeerConnection;
  const seen = { connections: [] as RTCPeerConnection[], gathered: [] as string[], errors: [] as number[] };
  Object.assign(window, { __rtc: seen });
  class Recorded extends Native {
    constructor(config?: RTCConfiguration) {
      super(config);
      seen.connections.push(this);
      this.addEventListener("icecandidate", (e) => {
        if (e.candidate?.candidate) seen.gathered.push(e.candidate.candidate);
      });
      this.addEventListener("icecandidateerror", (e) => seen.errors.push((e as RTCPeerConnectionIceErrorEvent).errorCode));
    }
  }
  window.RTCPeerConnection = Recorded;
}

interface Wire {
  /** Candidate types of the connected connection's selected pair, from its own getStats(). */
  local: string | null;
  remote: string | null;
  /** The type of every candidate this page gathered. */
  gathered: string[];
  policy: string | null;
}

/** What the page's connected RTCPeerConnection says about itself. */
const wire = (page: Page): Promise<Wire> =>
  page.evaluate(async () => {
    const seen = (window as unknown as { __rtc: { connections: RTCPeerConnection[]; gathered: string[] } }).__rtc;
    const pc = [...seen.connections].reverse().find((c) => c.connectionState === "connected");
    const gathered = seen.gathered.map((c) => /\styp\s(\S+)/.exec(c)?.[1] ?? "?");
    if (!pc) return { local: null, remote: null, gathered, policy: null };
    const stats = [...(await pc.getStats()).values()] as Record<string, string>[];
    const byId = new Map(stats.map((s) => [s.id, s]));
    const transport = stats.find((s) => s.type === "transport" && s.selectedCandidatePairId);
    const pair = transport ? byId.get(transport.selectedCandidatePairId!) : undefined;
    return {
      local: (pair && byId.get(pair.localCandidateId!)?.candidateType) ?? null,
      remote: (pair && byId.get(pair.remoteCandidateId!)?.candidateType) ?? null,
      gathered,
      policy: pc.getConfiguration().iceTransportPolicy ?? null,
    };
  });

/** Every page: the fake camera and microphone, and its connections recorded. */
const MEDIA: OpenOptions = { camera: true, initScript: recordConnections, dismissDialogs: true, timeout: TIMEOUT, defaultTimeout: TIMEOUT };

/** A video element shows frames and its time advances. */
const plays = (page: Page, label: string) => videoPlays(page, `video[aria-label="${label}"]`, TIMEOUT);

const startButton = (page: Page) => rouletteSection(page).getByRole("button", { name: "Start Video Chat" });

/** A new account signed in to `suite`'s server, on the Video Chat tab. */
async function openRoulette(suite: BrowserSuite, base: string, name: string, profile: Record<string, unknown> = {}): Promise<Page> {
  const page = await suite.open((await person(suite, base, name, profile)).username);
  await openVideoTab(page, TIMEOUT);
  return page;
}

/** Both press Start (a first, b once a waits); resolves when both partner videos play. */
async function pairInBrowsers(a: Page, b: Page): Promise<number> {
  await startButton(a).click();
  await rouletteSection(a).getByText("Looking for someone to chat with...").waitFor(WAIT);
  const started = performance.now();
  await startButton(b).click();
  await Promise.all([plays(a, "Partner's video"), plays(b, "Partner's video")]);
  return performance.now() - started;
}

async function stopBoth(a: Page, b: Page): Promise<void> {
  for (const page of [a, b]) {
    const stop = rouletteSection(page).getByRole("button", { name: "Stop" });
    if (await stop.isVisible()) await stop.click();
    await startButton(page).waitFor(WAIT);
  }
}

const connectionLabel = (page: Page, scope: string) => page.locator(`${scope} .connection-kind`);

function expectRelayedOnly(seen: Wire): void {
  expect(seen.policy).toBe("relay");
  expect({ local: seen.local, remote: seen.remote }).toEqual({ local: "relay", remote: "relay" });
  expect(seen.gathered.length).toBeGreaterThan(0);
  expect(seen.gathered.filter((type) => type !== "relay")).toEqual([]);
}

/** The server minting credentials for the test's coturn: every ICE candidate is a relay. */
const relayEnv = () => ({ TURN_URLS: coturn.urls, TURN_SECRET: coturn.secret, SIGNUP_RATE_LIMIT: "1000" });

describe("with a TURN relay", () => {
  const suite = browserSuite({ env: relayEnv, open: MEDIA, isolated: true });

  test("a roulette pairing connects through the relay only, and both screens say Relayed", async () => {
    const rita = await openRoulette(suite, "rita", "Rita", { country_code: "FR", country_name: "France" });
    const sam = await openRoulette(suite, "sam", "Sam", { gender: "male" });
    // A relay hides the address: no warning before Start.
    expect(await rouletteSection(rita).locator(".roulette-ip-notice").count()).toBe(0);
    await pairInBrowsers(rita, sam);
    for (const page of [rita, sam]) {
      await connectionLabel(page, "section.roulette").getByText(RELAYED).waitFor(WAIT);
      expectRelayedOnly(await wire(page));
    }
    expect(await connectionLabel(rita, "section.roulette").getAttribute("role")).toBe("status");
    await screenshot(rita, "relay-roulette-relayed");
  }, TWO_CAMERAS);

  test("a one-to-one call connects through the relay only, and both call screens say Relayed", async () => {
    // Others hear of roulette players' presence only later (issue 18): two people who have not
    // played call each other.
    const tessWho = await person(suite, "tess", "Tess");
    const umaWho = await person(suite, "uma", "Uma");
    const tess = await suite.open(tessWho.username);
    // Uma is on a phone: the label must fit there too.
    const uma = await suite.open(umaWho.username, { context: MOBILE });
    await startChat(tess, umaWho.name);
    await tess.getByRole("button", { name: `Video call ${umaWho.name}` }).click();
    const overlay = (page: Page) => page.getByRole("dialog", { name: /^Video call with / });
    await overlay(uma).getByText("is calling...").waitFor(WAIT);
    await overlay(uma).getByRole("button", { name: "Accept" }).click();
    await Promise.all([plays(tess, `${umaWho.name}'s video`), plays(uma, `${tessWho.name}'s video`)]);
    for (const page of [tess, uma]) {
      await overlay(page).locator(".connection-kind").getByText(RELAYED).waitFor(WAIT);
      expect(await overlay(page).locator(".connection-kind").isVisible()).toBe(true);
      expectRelayedOnly(await wire(page));
    }
    await screenshot(tess, "relay-call-relayed");
    await screenshot(uma, "relay-call-relayed");
    await overlay(tess).getByRole("button", { name: "End call" }).click();
    await overlay(uma).waitFor({ state: "detached", ...WAIT });
  }, TWO_CAMERAS);
});

describe("without a relay (control)", () => {
  const suite = browserSuite({ env: { SIGNUP_RATE_LIMIT: "1000" }, open: MEDIA, isolated: true });

  test("roulette warns once before the first Start, and the pairing says Direct", async () => {
    const rita = await openRoulette(suite, "rita", "Rita", { country_code: "FR", country_name: "France" });
    const sam = await openRoulette(suite, "sam", "Sam", { gender: "male" });
    const notice = rouletteSection(rita).locator(".roulette-ip-notice");
    await notice.waitFor(WAIT);
    expect(await notice.textContent()).toContain("can see your IP address");
    await screenshot(rita, "relay-roulette-ip-notice");
    await pairInBrowsers(rita, sam);
    expect(await notice.count()).toBe(0);
    for (const page of [rita, sam]) {
      await connectionLabel(page, "section.roulette").getByText(DIRECT).waitFor(WAIT);
      const seen = await wire(page);
      expect(seen.policy).toBe("all");
      expect(seen.local).toBe("host");
    }
    await screenshot(rita, "relay-roulette-direct");
    await stopBoth(rita, sam);
    // Once: not again after the first Start.
    await rita.reload();
    await rita.locator('[data-tab="video"]').click();
    await startButton(rita).waitFor(WAIT);
    expect(await rouletteSection(rita).locator(".roulette-ip-notice").count()).toBe(0);
  }, TWO_CAMERAS);
});

describe("with a credential the relay refuses", () => {
  const suite = browserSuite({
    env: () => ({ TURN_URLS: coturn.urls, TURN_SECRET: "not-the-relay-secret-not-the-relay-secret", SIGNUP_RATE_LIMIT: "1000" }),
    open: MEDIA,
    isolated: true,
  });

  test("roulette gives up with 'Connection setup failed. Please try again.' and the page saw the 401", async () => {
    const rita = await openRoulette(suite, "rita", "Rita");
    const sam = await openRoulette(suite, "sam", "Sam");
    await startButton(rita).click();
    await rouletteSection(rita).getByText("Looking for someone to chat with...").waitFor(WAIT);
    await startButton(sam).click();
    // Whichever side's limit passes first gives up with the text; its partner is told the
    // stranger left and searches again.
    const failed = await Promise.any([rita, sam].map((page) => rouletteSection(page).getByRole("alert").waitFor(WAIT).then(() => page)));
    expect(await rouletteSection(failed).getByRole("alert").textContent()).toBe("Connection setup failed. Please try again.");
    for (const page of [rita, sam]) {
      const seen = await page.evaluate(() => (window as unknown as { __rtc: { gathered: string[]; errors: number[] } }).__rtc);
      expect(seen.gathered).toEqual([]);
      expect(seen.errors).toContain(401);
    }
    await screenshot(failed, "relay-roulette-refused");
  }, TWO_CAMERAS);
});

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

/** /proc figures for coturn: resident memory and CPU seconds so far. */
function coturnUsage(pid: number): { rssKb: number; cpuSeconds: number } {
  const status = require("node:fs").readFileSync(`/proc/${pid}/status`, "utf8") as string;
  const stat = (require("node:fs").readFileSync(`/proc/${pid}/stat`, "utf8") as string).split(") ")[1]!.split(" ");
  const ticks = Number(stat[11]) + Number(stat[12]);
  return { rssKb: Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0), cpuSeconds: ticks / 100 };
}

/** For the measurement: a new account on `server` (the suite's or another), on its Video Chat tab in the suite's browser. */
async function openRouletteOn(suite: BrowserSuite, server: RunningServer, username: string): Promise<Page> {
  await registerAccount(server, username, username);
  const page = await openSignedIn(suite.browser, server, username, MEDIA);
  await openVideoTab(page, TIMEOUT);
  return page;
}

describe.if(process.env.RELAY_MEASURE === "1")("measured (RELAY_MEASURE=1)", () => {
  const suite = browserSuite({ env: relayEnv, open: MEDIA, isolated: true });

  test("Start to both videos playing, relayed and direct, median of 7; coturn's memory and CPU for one call", async () => {
    const results: Record<string, number[]> = {};
    const direct = await startServerForBrowsers({ SIGNUP_RATE_LIMIT: "1000" });
    try {
      for (const name of ["relayed", "direct"] as const) {
        const server = name === "direct" ? direct : suite.server;
        const a = await openRouletteOn(suite, server, "rita");
        const b = await openRouletteOn(suite, server, "sam");
        results[name] = [];
        for (let run = 0; run < 7; run++) {
          results[name].push(await pairInBrowsers(a, b));
          if (name === "relayed" && run === 0) {
            const before = coturnUsage(coturn.pid);
            await Bun.sleep(10_000); // a measurement over 10 s of one call, not a wait for an event
            const after = coturnUsage(coturn.pid);
            console.log(`coturn during one two-way call: RSS ${after.rssKb} KB, CPU ${(((after.cpuSeconds - before.cpuSeconds) / 10) * 100).toFixed(1)}% of a core over 10 s`);
          }
          await stopBoth(a, b);
        }
        await a.context().close();
        await b.context().close();
      }
    } finally {
      await direct.stop();
    }
    for (const [name, values] of Object.entries(results)) {
      console.log(`${name}: median ${median(values).toFixed(0)} ms (runs: ${values.map((v) => v.toFixed(0)).join(", ")})`);
    }
  }, 300_000);
});
