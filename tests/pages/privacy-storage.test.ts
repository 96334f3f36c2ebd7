// Issue 10: the Privacy Policy names what the browser really keeps. The lists come from the code
// that writes them (islands/lib/storage.ts, the cookie names, the emoji picker's own key), so a
// new key that the page does not name fails here.
import { afterAll, describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { CONSENT_COOKIE, FLASH_COOKIE } from "../../islands/enhance/cookies.ts";
import { KEYS } from "../../islands/lib/storage.ts";
import { SESSION_COOKIE } from "../../src/http/request.ts";
import { DEVICE_COOKIE } from "../../src/auth/device.ts";
import { makeTestApp } from "../support/app.ts";

const t = makeTestApp();
afterAll(() => t.close());

/** The localStorage keys the bundled emoji-picker-react reads and writes. */
function emojiPickerKeys(): string[] {
  const code = readFileSync(require.resolve("emoji-picker-react"), "utf8");
  const names = new Set([...code.matchAll(/localStorage\.(?:get|set)Item\((\w+)/g)].map((m) => m[1]!));
  return [...names].map((name) => new RegExp(`\\b${name}="([^"]+)"`).exec(code)?.[1] ?? `unresolved ${name}`);
}

describe("the Privacy Policy on browser storage", () => {
  test("names every local storage key the chat writes, the emoji picker's and every cookie", async () => {
    const html = (await t.call("GET", "/privacy")).text;
    const named = [...html.matchAll(/<code>([^<]+)<\/code>/g)].map((m) => m[1]);
    const picker = emojiPickerKeys();
    expect(picker.length).toBeGreaterThan(0);
    for (const key of [...Object.values(KEYS), ...picker, SESSION_COOKIE, DEVICE_COOKIE, CONSENT_COOKIE, FLASH_COOKIE]) {
      expect({ key, named: named.includes(key) }).toEqual({ key, named: true });
    }
  });

  test("no longer claims a theme colour or the session token is stored", async () => {
    for (const path of ["/privacy", "/cookies"]) {
      const html = (await t.call("GET", path)).text;
      expect({ path, theme: /theme colou?r/i.test(html) }).toEqual({ path, theme: false });
      expect({ path, token: /keeps your session token|<code>token<\/code>/.test(html) }).toEqual({ path, token: false });
    }
  });
});

test("the cookie banner does not count the necessary cookies as one", async () => {
  const html = (await t.call("GET", "/")).text;
  expect(html).toContain("Cookies on");
  expect(html).not.toMatch(/one necessary cookie/i);
});
