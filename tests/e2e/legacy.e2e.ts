// A browser that cannot run the module build gets the classic build (README "Older browsers").
// Chromium stands in for Firefox 60-66, where `<script type="module">` runs but `import()` does not
// parse: every module-build page script is answered with a file that does not parse, so nothing of
// the module build runs, and islands/legacy/boot.ts must load the classic files instead. (Firefox 59
// skips module scripts altogether: the same "did not run" for the loader.) Built-ins Firefox 59
// lacks are taken away before the page's scripts run: chat, emoji picker, a call, and roulette,
// where the classifier cannot load and the stranger stays blurred. A last test takes away what
// Chrome 72 lacks, on the module build.
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { Page } from "playwright-core";
import type { Manifest } from "../../src/pages/assets/manifest.ts";
import { PASSWORD, registerAccount } from "./support/accounts.ts";
import { DESKTOP } from "./support/browser.ts";
import { browserSuite } from "./support/suite.ts";

let manifest: Manifest;
const suite = browserSuite({
  setup: async (server) => {
    manifest = JSON.parse(readFileSync(join(import.meta.dir, "..", "..", "public", "build", "manifest.json"), "utf8")) as Manifest;
    await registerAccount(server, "oldalice", "Alice", { age: 29 });
    await registerAccount(server, "oldbob", "Bob", { gender: "male", age: 34 });
  },
});

/**
 * Takes away what Firefox 59 lacks of what this code, React or a library might call (each with
 * the version that brought it): the classic build must run without them.
 */
function firefox59BuiltIns(): void {
  const drop = (target: object | undefined, name: string) => {
    if (target) Reflect.deleteProperty(target, name);
  };
  drop(Object, "fromEntries"); // 63
  drop(Object, "hasOwn"); // 92
  drop(Array.prototype, "flat"); // 62
  drop(Array.prototype, "flatMap"); // 62
  drop(Array.prototype, "at"); // 90
  drop(String.prototype, "matchAll"); // 67
  drop(String.prototype, "replaceAll"); // 77
  drop(Promise, "allSettled"); // 71
  drop(Element.prototype, "replaceChildren"); // 78
  drop(Element.prototype, "checkVisibility"); // 106
  drop(window, "queueMicrotask"); // 69
  drop(window, "ResizeObserver"); // 69
  drop(window, "structuredClone"); // 94
  drop(window, "reportError"); // 93
  drop(window, "VideoFrame"); // 130
  drop(window, "OffscreenCanvas"); // 105
  drop(window.crypto, "randomUUID"); // 95
  drop(window.crypto && Object.getPrototypeOf(window.crypto), "randomUUID");
  drop(window, "globalThis"); // 65: last, the lines above do not use it
}

/** The same for Chrome 72, which runs the module build. */
function chrome72BuiltIns(): void {
  const drop = (target: object | undefined, name: string) => {
    if (target) Reflect.deleteProperty(target, name);
  };
  drop(Object, "fromEntries"); // 73
  drop(Object, "hasOwn"); // 93
  drop(Array.prototype, "at"); // 92
  drop(String.prototype, "replaceAll"); // 85
  drop(Promise, "allSettled"); // 76
  drop(Element.prototype, "replaceChildren"); // 86
  drop(Element.prototype, "checkVisibility"); // 105
  drop(window, "structuredClone"); // 98
  drop(window, "reportError"); // 95
  drop(window, "VideoFrame"); // 94
  drop(window.crypto && Object.getPrototypeOf(window.crypto), "randomUUID"); // 92
}

type Browsers = "firefox59" | "chrome72";

/**
 * A page without the built-ins the browser it stands in for lacks; for Firefox 59 its module-build
 * scripts also do not parse. `fetched` collects the /build/ paths it asked for.
 */
async function oldBrowserPage(username?: string, like: Browsers = "firefox59"): Promise<{ page: Page; fetched: string[]; errors: string[] }> {
  const context = await suite.newContext({ ...DESKTOP, permissions: ["camera", "microphone"] });
  await context.addInitScript(like === "firefox59" ? firefox59BuiltIns : chrome72BuiltIns);
  await context.addCookies([{ name: "consent", value: "necessary", url: suite.server.url }]);
  const broken = new Set(like === "firefox59" ? Object.values(manifest.scripts).map((s) => s.file) : []);
  await context.route(
    (url) => broken.has(url.pathname),
    (route) => route.fulfill({ status: 200, contentType: "text/javascript", body: "import(" }),
  );
  const page = await context.newPage();
  const fetched: string[] = [];
  const errors: string[] = [];
  page.on("request", (request) => {
    const path = new URL(request.url()).pathname;
    if (path.startsWith("/build/")) fetched.push(path);
  });
  page.on("pageerror", (error) => errors.push(error.message));
  if (username) {
    const login = await page.request.post("/api/auth/login", { data: { username, password: PASSWORD }, headers: { origin: suite.server.url } });
    expect(login.status()).toBe(200);
  }
  await page.goto("/");
  return { page, fetched, errors };
}

describe("a browser without the module build (Firefox 59-66)", () => {
  test("the landing page loads the classic auth script without Firefox 59's missing built-ins: the country picker is enhanced", async () => {
    const { page, fetched } = await oldBrowserPage();
    await page.locator(".picker-button").first().waitFor({ state: "attached", timeout: 15_000 });
    expect(fetched).toContain(manifest.legacy!.scripts.auth!);
    expect(fetched).not.toContain(manifest.legacy!.scripts.client!);
  });

  test("the chat screen runs on the classic build without Firefox 59's missing built-ins: a message goes from Alice to Bob, the emoji picker opens", async () => {
    const alice = await oldBrowserPage("oldalice");
    const bob = await oldBrowserPage("oldbob");
    for (const { page, fetched } of [alice, bob]) {
      await page.locator(".chat-app .tab-bar").waitFor({ timeout: 20_000 });
      expect(fetched).toContain(manifest.legacy!.scripts.client!);
      // (Chromium still fetches the module chunks the page preloads; Firefox before 115 has no
      // modulepreload, so the browsers this stands in for do not.)
    }
    await alice.page.locator(".sidebar-panel").getByRole("button", { name: /Bob/ }).click();
    await alice.page.getByRole("button", { name: "Start Chat" }).click();
    await alice.page.getByRole("textbox", { name: "Message Bob" }).fill("Hello from an old browser");
    await alice.page.keyboard.press("Enter");
    await bob.page.locator('[data-tab="chats"]').click();
    await bob.page.locator(".sidebar-panel .row", { hasText: "Alice" }).click();
    await bob.page.locator(".message-text", { hasText: "Hello from an old browser" }).waitFor({ timeout: 15_000 });
    await alice.page.getByRole("button", { name: "Emoji" }).click();
    await alice.page.locator(".EmojiPickerReact button.epr-emoji").first().waitFor({ timeout: 15_000 });
    // The only page errors are the unparsable module files themselves.
    for (const { errors } of [alice, bob]) expect(errors.filter((e) => !/Unexpected end of input|SyntaxError/.test(e))).toEqual([]);
  });

  test("a video call between two such browsers rings, is accepted and plays both remote videos", async () => {
    const alice = await oldBrowserPage("oldalice");
    const bob = await oldBrowserPage("oldbob");
    for (const { page } of [alice, bob]) page.on("dialog", (dialog) => void dialog.dismiss());
    await alice.page.locator(".sidebar-panel").getByRole("button", { name: /Bob/ }).first().click();
    await alice.page.getByRole("button", { name: "Start Chat" }).click();
    await alice.page.getByRole("button", { name: "Video call Bob" }).click();
    const overlay = (page: Page) => page.getByRole("dialog", { name: /^Video call with / });
    await overlay(bob.page).getByRole("button", { name: "Accept" }).click({ timeout: 20_000 });
    for (const [{ page }, name] of [[alice, "Bob"], [bob, "Alice"]] as const) {
      const selector = `video[aria-label="${name}'s video"]`;
      await page.waitForFunction((s) => (document.querySelector<HTMLVideoElement>(s)?.videoWidth ?? 0) > 0, selector, { timeout: 20_000 });
      const before = await page.$eval(selector, (v: HTMLVideoElement) => v.currentTime);
      await page.waitForFunction(([s, t]) => (document.querySelector<HTMLVideoElement>(s as string)?.currentTime ?? 0) > (t as number) + 0.3, [selector, before] as const, { timeout: 20_000 });
    }
    await overlay(alice.page).getByRole("button", { name: "End call" }).click();
    await overlay(bob.page).waitFor({ state: "detached", timeout: 20_000 });
  });

  test("Video Roulette pairs two such browsers; with no module worker the stranger stays blurred until 'Show anyway'", async () => {
    const alice = (await oldBrowserPage("oldalice")).page;
    const bob = (await oldBrowserPage("oldbob")).page;
    const roulette = (page: Page) => page.locator("section.roulette");
    const blur = (page: Page) => roulette(page).getByRole("group", { name: "Blurred video" });
    for (const page of [alice, bob]) {
      await page.locator('[data-tab="video"]').click();
      await roulette(page).getByRole("button", { name: "Start Video Chat" }).click({ timeout: 20_000 });
    }
    await alice.waitForFunction(() => document.querySelector("section.roulette")?.getAttribute("data-status") === "connected", null, { timeout: 20_000 });
    await blur(alice).getByText("This browser can't check the video").waitFor({ timeout: 20_000 });
    await blur(alice).getByRole("button", { name: "Show anyway", exact: true }).click();
    await blur(alice).waitFor({ state: "detached", timeout: 10_000 });
    const selector = `video[aria-label="Partner's video"]`;
    await alice.waitForFunction((s: string) => (document.querySelector<HTMLVideoElement>(s)?.videoWidth ?? 0) > 0, selector, { timeout: 20_000 });
    await roulette(alice).getByRole("button", { name: "Stop" }).click();
  });
});

describe("Chrome 72 (the module build)", () => {
  test("without the built-ins Chrome 72 lacks, the chat screen runs on the module build: a message goes through, the emoji picker opens", async () => {
    const alice = await oldBrowserPage("oldalice", "chrome72");
    const bob = await oldBrowserPage("oldbob", "chrome72");
    for (const { page, fetched } of [alice, bob]) {
      await page.locator(".chat-app .tab-bar").waitFor({ timeout: 20_000 });
      expect(fetched).toContain(manifest.scripts.client!.file);
    }
    await alice.page.locator(".sidebar-panel").getByRole("button", { name: /Bob/ }).click();
    await alice.page.getByRole("button", { name: "Start Chat" }).click();
    await alice.page.getByRole("textbox", { name: "Message Bob" }).fill("Hello from Chrome 72");
    await alice.page.keyboard.press("Enter");
    await bob.page.locator('[data-tab="chats"]').click();
    await bob.page.locator(".sidebar-panel .row", { hasText: "Alice" }).click();
    await bob.page.locator(".message-text", { hasText: "Hello from Chrome 72" }).waitFor({ timeout: 15_000 });
    await alice.page.getByRole("button", { name: "Emoji" }).click();
    await alice.page.locator(".EmojiPickerReact button.epr-emoji").first().waitFor({ timeout: 15_000 });
    // The module build ran, so the loader fetched nothing of the classic one.
    for (const { fetched, errors } of [alice, bob]) {
      expect(fetched.filter((p) => p.includes("-legacy-") && !p.includes("legacy-boot-"))).toEqual([]);
      expect(errors).toEqual([]);
    }
  });
});
