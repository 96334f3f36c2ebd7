// One-to-one video calls in real Chromium with a fake camera and microphone, two users in two
// browser contexts against the real server (PeerJS signalling at /peerjs, ICE_SERVERS=[]):
// a call from the chat header is accepted and both remote videos play; mute and camera toggles
// change the tracks; ending closes both sides and releases the camera; a declined call and a call
// to someone offline end cleanly; a call placed while the callee's page reloads rings once it is back. Screenshots of every call screen go to tests/e2e/screenshots/.
import { describe, expect, test } from "bun:test";
import type { Page } from "playwright-core";
import { registerAccount } from "./support/accounts.ts";
import { MOBILE } from "./support/browser.ts";
import { animationsDone, boxesOf, callOverlay, inside, overlap, startChat, videoPlays } from "./support/screens.ts";
import { screenshot } from "./support/screenshots.ts";
import { serverGauge } from "./support/server.ts";
import { browserSuite } from "./support/suite.ts";

const WAIT = { timeout: 15_000 };

const suite = browserSuite({
  setup: async (server) => {
    await registerAccount(server, "alice", "Alice");
    await registerAccount(server, "bob", "Bob");
    await registerAccount(server, "carol", "Carol");
  },
  open: { camera: true, dismissDialogs: true, ...WAIT },
  closeAfterEach: true,
  // Someone whose last tab closed stays online for this long (5 s by default): long enough here
  // for a call placed after a tab closed to reach the server on a loaded machine.
  env: { PRESENCE_GRACE_SECONDS: "30" },
});

/** Opens the chat with `name` from the All Users list, up to its call button. */
async function openChat(page: Page, name: string) {
  await startChat(page, name);
  await page.getByRole("button", { name: `Video call ${name}` }).waitFor(WAIT);
}

/** The remote video shows frames and its time advances. */
const remoteVideoPlays = (page: Page, name: string) => videoPlays(page, `video[aria-label="${name}'s video"]`, WAIT.timeout);

/** Keeps the local stream reachable after the overlay is gone, to check that it was stopped. */
const keepLocalStream = (page: Page) =>
  page.evaluate(() => {
    const video = document.querySelector<HTMLVideoElement>('video[aria-label="Your camera"]');
    Object.assign(window, { keptStream: video?.srcObject ?? null });
  });

const keptTrackStates = (page: Page) =>
  page.evaluate(() => {
    const kept = (window as { keptStream?: MediaStream | null }).keptStream;
    return kept ? kept.getTracks().map((t) => `${t.kind}:${t.readyState}`) : null;
  });

const localTracks = (page: Page) =>
  page.$eval('video[aria-label="Your camera"]', (v: HTMLVideoElement) => {
    const stream = v.srcObject as MediaStream;
    return { audio: stream.getAudioTracks()[0]?.enabled, video: stream.getVideoTracks()[0]?.enabled };
  });

interface RecordedSockets {
  WebSocket: typeof WebSocket;
  realtime: WebSocket[];
  framesIn: string[];
}

/** Keeps the page's realtime sockets and what they receive (an init script). */
function recordFramesIn() {
  const w = window as unknown as RecordedSockets;
  const Native = w.WebSocket;
  w.realtime = [];
  w.framesIn = [];
  w.WebSocket = class extends Native {
    constructor(url: string | URL, protocols?: string | string[]) {
      super(url, protocols);
      if (new URL(url, location.href).pathname === "/ws") w.realtime.push(this);
      this.addEventListener("message", (event) => void w.framesIn.push(String(event.data)));
    }
  };
}

/**
 * Every frame the page sent so far has been handled: a ping on its realtime socket, answered by a
 * pong after them (the one-process server handles a call without waiting on I/O).
 */
async function handledSoFar(page: Page): Promise<void> {
  await page.evaluate(async (timeoutMs) => {
    const w = window as unknown as RecordedSockets;
    const socket = w.realtime.at(-1);
    if (!socket) throw new Error("no realtime socket recorded");
    const before = w.framesIn.length;
    socket.send(JSON.stringify({ event: "ping", data: {} }));
    const deadline = Date.now() + timeoutMs;
    while (!w.framesIn.slice(before).some((frame) => frame.includes('"event":"pong"'))) {
      if (Date.now() > deadline) throw new Error("no pong");
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }, WAIT.timeout);
}

/** Alice and Bob signed in, Alice on Bob's chat. */
async function aliceAndBob(): Promise<{ alice: Page; bob: Page }> {
  const alice = await suite.open("alice");
  const bob = await suite.open("bob");
  await openChat(alice, "Bob");
  return { alice, bob };
}

/** Alice calls Bob, Bob accepts, and both remote videos play. */
async function inCall(): Promise<{ alice: Page; bob: Page }> {
  const { alice, bob } = await aliceAndBob();
  await alice.getByRole("button", { name: "Video call Bob" }).click();
  await callOverlay(bob).getByRole("button", { name: "Accept" }).click(WAIT);
  await remoteVideoPlays(alice, "Bob");
  await remoteVideoPlays(bob, "Alice");
  return { alice, bob };
}

describe("video calls", () => {
  test("a call from the chat header rings on both sides and, accepted, plays both remote videos", async () => {
    const { alice, bob } = await aliceAndBob();
    await alice.getByRole("button", { name: "Video call Bob" }).click();
    await callOverlay(alice).getByRole("heading", { name: "Calling Bob" }).waitFor(WAIT);
    expect(await callOverlay(alice).textContent()).toContain("Waiting for answer");
    await callOverlay(bob).getByText("is calling...").waitFor(WAIT);
    expect(await callOverlay(bob).locator(".call-avatar").textContent()).toBe("A");
    expect(await callOverlay(bob).getByRole("heading").textContent()).toBe("Alice");
    await screenshot(alice, "call-outgoing");
    await screenshot(bob, "call-incoming");

    await callOverlay(bob).getByRole("button", { name: "Accept" }).click();
    const seenByAlice = await remoteVideoPlays(alice, "Bob");
    const seenByBob = await remoteVideoPlays(bob, "Alice");
    expect(seenByAlice.width).toBeGreaterThan(0);
    expect(seenByBob.width).toBeGreaterThan(0);
    expect(seenByAlice.paused || seenByBob.paused).toBe(false);
    const preview = await alice.locator('video[aria-label="Your camera"]').boundingBox();
    expect([Math.round(preview?.width ?? 0), Math.round(preview?.height ?? 0)]).toEqual([150, 100]);
    await screenshot(alice, "call-connected");
    await screenshot(bob, "call-connected-receiver");
  });

  test("mute and camera toggles flip the local tracks", async () => {
    const { alice } = await inCall();
    expect(await localTracks(alice)).toEqual({ audio: true, video: true });
    await callOverlay(alice).getByRole("button", { name: "Mute microphone" }).click();
    expect(await localTracks(alice)).toEqual({ audio: false, video: true });
    await callOverlay(alice).getByRole("button", { name: "Turn camera off" }).click();
    expect(await localTracks(alice)).toEqual({ audio: false, video: false });
    await screenshot(alice, "call-muted-camera-off");
    await callOverlay(alice).getByRole("button", { name: "Unmute microphone" }).click();
    await callOverlay(alice).getByRole("button", { name: "Turn camera on" }).click();
    expect(await localTracks(alice)).toEqual({ audio: true, video: true });
  });

  test("Escape does not end the call", async () => {
    const { alice, bob } = await inCall();
    await alice.keyboard.press("Escape");
    // Input is handled in order: once the click after it has muted the microphone, the Escape
    // has been handled too, and an end it caused would already have left for Bob.
    await callOverlay(alice).getByRole("button", { name: "Mute microphone" }).click();
    await callOverlay(alice).getByRole("button", { name: "Unmute microphone" }).waitFor(WAIT);
    expect(await callOverlay(alice).isVisible()).toBe(true);
    // Bob's side: the video from Alice keeps playing, and the call screen stays.
    await remoteVideoPlays(bob, "Alice");
    expect(await callOverlay(bob).isVisible()).toBe(true);
  });

  test("ending closes both sides and releases both cameras", async () => {
    const { alice, bob } = await inCall();
    await keepLocalStream(alice);
    await keepLocalStream(bob);
    await callOverlay(alice).getByRole("button", { name: "End call" }).click();
    await callOverlay(alice).waitFor({ state: "detached", ...WAIT });
    await callOverlay(bob).waitFor({ state: "detached", ...WAIT });
    await bob.getByText("Alice ended the call").waitFor(WAIT);
    expect(await keptTrackStates(alice)).toEqual(["audio:ended", "video:ended"]);
    expect(await keptTrackStates(bob)).toEqual(["audio:ended", "video:ended"]);
  });

  test("a declined call ends on both sides with a message for the caller", async () => {
    const { alice, bob } = await aliceAndBob();
    await alice.getByRole("button", { name: "Video call Bob" }).click();
    await callOverlay(bob).getByRole("button", { name: "Decline" }).waitFor(WAIT);
    await callOverlay(alice).getByText("Waiting for answer").waitFor(WAIT);
    await keepLocalStream(alice);
    await callOverlay(bob).getByRole("button", { name: "Decline" }).click();
    await callOverlay(bob).waitFor({ state: "detached", ...WAIT });
    await alice.getByText("Bob declined the call").waitFor(WAIT);
    await callOverlay(alice).waitFor({ state: "detached", ...WAIT });
    // The toast slides in: photograph it once it has settled.
    await animationsDone(alice, "[data-rht-toaster]");
    await screenshot(alice, "call-declined");
    expect(await keptTrackStates(alice)).toEqual(["audio:ended", "video:ended"]);
  });

  test("a call placed while the callee's page reloads rings once the page is back, and connects", async () => {
    const dana = await suite.open(await suite.account("dana", "Dana"), { initScript: recordFramesIn });
    const eli = await suite.open(await suite.account("eli", "Eli"));
    await openChat(dana, "Eli");
    // Eli's page goes (a reload, a lost connection) and the server has let go of it: only Dana's socket is left.
    const eliBrowser = eli.context();
    await eli.close();
    const deadline = Date.now() + WAIT.timeout;
    while ((await serverGauge(suite.server, "webchat_sockets_open")) !== 1) {
      if (Date.now() > deadline) throw new Error("Eli's closed tab is still open on the server");
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    await dana.getByRole("button", { name: "Video call Eli" }).click();
    await callOverlay(dana).getByRole("heading", { name: "Calling Eli" }).waitFor(WAIT);
    // The server has placed the call while no tab of Eli's is open; then the page is back.
    await handledSoFar(dana);
    const back = await eliBrowser.newPage();
    back.setDefaultTimeout(WAIT.timeout);
    await back.goto("/");
    await callOverlay(back).getByText("is calling...").waitFor(WAIT);
    expect(await callOverlay(back).getByRole("heading").textContent()).toBe("Dana");
    await callOverlay(back).getByRole("button", { name: "Accept" }).click();
    await remoteVideoPlays(dana, "Eli");
    await remoteVideoPlays(back, "Dana");
  });

  test("a call to someone offline ends with a message", async () => {
    const alice = await suite.open("alice");
    await openChat(alice, "Carol");
    // A slow camera, so that the camera-loading screen stays long enough to be photographed.
    await alice.evaluate(() => {
      const devices = navigator.mediaDevices;
      const real = devices.getUserMedia.bind(devices);
      devices.getUserMedia = async (constraints) => {
        await new Promise((resolve) => setTimeout(resolve, 1500));
        return real(constraints);
      };
    });
    await alice.getByRole("button", { name: "Video call Carol" }).click();
    await callOverlay(alice).getByText("Setting up camera...").waitFor(WAIT);
    await screenshot(alice, "call-setting-up-camera");
    await alice.getByText("Carol is offline").waitFor(WAIT);
    await callOverlay(alice).waitFor({ state: "detached", ...WAIT });
    await animationsDone(alice, "[data-rht-toaster]");
    await screenshot(alice, "call-offline");
  });

  test("the call screens fit a phone", async () => {
    const phone = await suite.open("carol", { context: MOBILE });
    const bob = await suite.open("bob");
    await openChat(phone, "Bob");
    const viewport = { x: 0, y: 0, ...phone.viewportSize()! };
    /** Every control of the call screen lies within the phone's screen, and none covers another. */
    const expectFits = async (state: string) => {
      const controls = await boxesOf(phone, '[role="dialog"][aria-label^="Video call with "] button');
      expect(controls.length, state).toBeGreaterThan(0);
      expect({ state, outside: controls.filter((c) => !inside(c, viewport)).map((c) => c.name) }).toEqual({ state, outside: [] });
      const covering = controls.flatMap((a, i) => controls.slice(i + 1).filter((b) => overlap(a, b)).map((b) => `${a.name} / ${b.name}`));
      expect({ state, covering }).toEqual({ state, covering: [] });
      const dialog = (await boxesOf(phone, '[role="dialog"][aria-label^="Video call with "]'))[0]!;
      expect(inside(dialog, viewport), `${state}: the call screen is within the phone's screen`).toBe(true);
      expect(await phone.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth), `${state}: no sideways scrolling`).toBe(true);
    };
    await phone.getByRole("button", { name: "Video call Bob" }).click();
    await callOverlay(bob).getByRole("button", { name: "Accept" }).waitFor(WAIT);
    await callOverlay(phone).getByRole("heading", { name: "Calling Bob" }).waitFor(WAIT);
    await expectFits("calling");
    await screenshot(phone, "call-outgoing");
    await callOverlay(bob).getByRole("button", { name: "Accept" }).click();
    await remoteVideoPlays(phone, "Bob");
    await expectFits("connected");
    const remote = (await boxesOf(phone, 'video[aria-label="Bob\'s video"]'))[0]!;
    expect(inside(remote, viewport), "Bob's video is within the phone's screen").toBe(true);
    const preview = (await boxesOf(phone, 'video[aria-label="Your camera"]'))[0]!;
    expect(inside(preview, viewport), "the camera preview is within the phone's screen").toBe(true);
    await screenshot(phone, "call-connected");
    await callOverlay(phone).getByRole("button", { name: "End call" }).click();
    await callOverlay(bob).waitFor({ state: "detached", ...WAIT });
  });
});
