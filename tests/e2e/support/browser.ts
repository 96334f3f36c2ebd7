// Launches Debian's Chromium through playwright-core (never `playwright install`), with the flags
// that make fake camera/microphone and loopback WebRTC work headless (STACK-NOTES "Browser tests").
//
//   const browser = await launchBrowser();
//   const context = await browser.newContext({ ...DESKTOP });           // or MOBILE, javaScriptEnabled: false
//   const media = await browser.newContext({ permissions: ["camera", "microphone"] });
//   ...
//   await browser.close();
import { chromium, type Browser } from "playwright-core";

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

export const CHROMIUM_ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--use-fake-device-for-media-stream",
  "--use-fake-ui-for-media-stream",
  "--allow-loopback-in-peer-connection",
];

/** The two widths every browser test covers. */
export const DESKTOP = { viewport: { width: 1280, height: 800 } };
export const MOBILE = { viewport: { width: 375, height: 740 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2 };

export async function launchBrowser(): Promise<Browser> {
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
  ignoreEventsOfForgottenSockets(browser);
  return browser;
}

interface ClientConnection {
  dispatch(message: { guid?: string }): void;
  _objects: Map<string, unknown>;
  ignoresForgottenSockets?: true;
}

/**
 * playwright-core 1.65.1 sometimes goes on sending a page's WebSocket frames (`frameSent`,
 * `frameReceived`) after its client has let that socket's object go; its client then throws
 * `Cannot find object to "frameSent": ws@...` for every later frame of it, and bun counts each
 * throw against whatever test runs then (pwa.e2e.ts, twice in about eight whole runs under stress,
 * three tests each time). Nothing here listens to those events, so the frames of a socket the
 * client no longer knows are dropped before its dispatcher sees them; everything else passes.
 */
function ignoreEventsOfForgottenSockets(browser: Browser): void {
  const connection = (browser as unknown as { _connection: ClientConnection })._connection;
  if (connection.ignoresForgottenSockets) return;
  connection.ignoresForgottenSockets = true;
  const dispatch = connection.dispatch.bind(connection);
  connection.dispatch = (message) => {
    if (message.guid?.startsWith("ws@") && !connection._objects.has(message.guid)) return;
    dispatch(message);
  };
}
