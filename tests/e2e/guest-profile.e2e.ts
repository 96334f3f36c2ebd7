// A guest has no country (issue 19): Edit Profile offers the detected one first in the picker, or,
// where detection fails (as it does for a loopback address), United States marked "Suggested",
// without choosing it. At 1280 and 375 px.
import { describe, expect, test } from "bun:test";
import { DESKTOP, MOBILE } from "./support/browser.ts";
import { listLoaded } from "./support/accounts.ts";
import { screenshot } from "./support/screenshots.ts";
import { browserSuite } from "./support/suite.ts";

const suite = browserSuite({ closeAfterEach: true });

for (const [label, size] of [
  ["1280 px", DESKTOP],
  ["375 px", MOBILE],
] as const) {
  describe(`a guest's profile at ${label}`, () => {
    test("Edit Profile offers United States first as a suggestion when the country cannot be detected, and sets none", async () => {
      const context = await suite.newContext(size);
      await context.addCookies([{ name: "consent", value: "necessary", url: suite.server.url }]);
      const page = await context.newPage();
      try {
        await page.goto("/");
        await page.click("label[for=tab-guest]");
        await page.locator(".panel-guest label:has(input[value=male])").click();
        await page.check("#guest-adult");
        await page.click(".panel-guest button[type=submit]");
        await page.locator(".chat-app .tab-bar").waitFor();
        // The tab bar is rendered on the server: a click before hydration would be lost.
        await listLoaded(page);
        await page.locator('[data-tab="settings"]').click();
        await page.getByRole("button", { name: /Profile Settings/ }).click();
        await page.getByRole("button", { name: "Edit Profile" }).click();
        const picker = page.locator(".profile-form .country-picker .select-like");
        expect(await picker.textContent()).toBe("Select country");
        await picker.click();
        const first = page.locator(".country-popover li").first();
        await first.getByText("Suggested").waitFor({ timeout: 5000 });
        expect((await first.textContent())?.replace(/\s+/g, " ").trim()).toEndWith("United States Suggested");
        await screenshot(page, "guest-profile-country-suggested");
        expect(await picker.textContent()).toBe("Select country");
      } finally {
        await context.close();
      }
    }, 60_000);
  });
}
