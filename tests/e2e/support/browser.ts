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

export function launchBrowser(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
}
