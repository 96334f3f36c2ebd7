// Interests and spoken languages in real Chromium (issue 24): a person adds interests with the
// keyboard (and a suggestion) and a language in Edit Profile, sees them on their profile and on
// another person's; then two people meet in Video Roulette, one searching with "Looking for
// someone who likes ...", both shown what they share. axe checks the new controls. Screenshots go
// to tests/e2e/screenshots/ (interests-*).
import { describe, expect, test } from "bun:test";
import type { Page } from "playwright-core";
import { type Account, apiAs, registerAccount } from "./support/accounts.ts";
import { expectAccessible } from "./support/axe.ts";
import { DESKTOP, MOBILE } from "./support/browser.ts";
import { openSettings, openVideoTab, waitForRouletteStatus } from "./support/screens.ts";
import { screenshot } from "./support/screenshots.ts";
import { browserSuite } from "./support/suite.ts";

const WAIT = { timeout: 15_000 };
const accounts = new Map<string, Account>();

const suite = browserSuite({
  // A wait for a shared interest short enough that the fallback shows within a test.
  env: { ROULETTE_INTEREST_WAIT_SECONDS: "1", ROULETTE_WAITING_PER_ADDRESS: "100" },
  setup: async (server) => {
    accounts.set("gia", await registerAccount(server, "gia", "Gia", { gender: "female", country_code: "IT", country_name: "Italy" }));
    accounts.set("hal", await registerAccount(server, "hal", "Hal", { gender: "male", country_code: "BR", country_name: "Brazil" }));
    // Five other people list "photography": from then on it is suggested (never fewer than five).
    for (let i = 0; i < 5; i++) {
      const { token } = await registerAccount(server, `shutter${i}`, `Shutter ${i}`);
      const r = await apiAs(server, token, "/api/users/profile", { method: "PUT", body: JSON.stringify({ name: `Shutter ${i}`, interests: ["photography", "jazz"] }) });
      if (!r.ok) throw new Error(`profile: ${r.status}`);
    }
  },
  setupTimeout: 120_000,
  open: { camera: true, dismissDialogs: true, ...WAIT },
});

const tagsIn = (page: Page, scope: string) => page.locator(`${scope} .tag > span`).allTextContents();

describe("interests and languages", () => {
  let gia: Page;
  let hal: Page;

  test("Edit Profile: interests typed with the keyboard and a suggestion, a spoken language, saved and shown", async () => {
    gia = await suite.open("gia", { context: DESKTOP });
    await openSettings(gia, /^Profile Settings/);
    await gia.getByRole("button", { name: "Edit Profile" }).click();
    const field = gia.getByRole("combobox", { name: "Interests" });
    await field.click();
    await field.pressSequentially("Chess");
    await field.press("Enter");
    await field.pressSequentially("hiking,");
    expect(await tagsIn(gia, ".profile-form .tag-input")).toEqual(["chess", "hiking"]);
    // A suggestion: used by five people.
    await field.pressSequentially("pho");
    const option = gia.getByRole("option", { name: "photography" });
    await option.waitFor(WAIT);
    expect(await field.getAttribute("aria-expanded")).toBe("true");
    await screenshot(gia, "interests-suggestion");
    await field.press("ArrowDown");
    await field.press("Enter");
    expect(await tagsIn(gia, ".profile-form .tag-input")).toEqual(["chess", "hiking", "photography"]);
    // Backspace in the empty field takes the last one back; its remove button works too.
    await field.press("Backspace");
    expect(await tagsIn(gia, ".profile-form .tag-input")).toEqual(["chess", "hiking"]);
    await field.pressSequentially("tea");
    await field.press("Enter");
    await gia.getByRole("button", { name: "Remove tea" }).click();
    expect(await tagsIn(gia, ".profile-form .tag-input")).toEqual(["chess", "hiking"]);

    await gia.getByRole("combobox", { name: "Add a language" }).selectOption("it");
    await gia.getByRole("button", { name: "Add", exact: true }).click();
    await gia.getByRole("combobox", { name: "Add a language" }).selectOption("en");
    await gia.getByRole("button", { name: "Add", exact: true }).click();
    expect(await tagsIn(gia, ".profile-form .language-picker")).toEqual(["Italian", "English"]);
    await expectAccessible(gia, "Edit Profile with interests and languages");
    await screenshot(gia, "interests-edit-profile");

    await gia.getByRole("button", { name: "Save Changes" }).click();
    await gia.getByText("Profile updated successfully!").waitFor(WAIT);
    const rows = gia.locator(".settings-main dl");
    await rows.getByText("chess, hiking").waitFor(WAIT);
    expect(await rows.textContent()).toContain("Italian, English");
    await screenshot(gia, "interests-profile-saved");
  });

  test("another person sees them on the profile", async () => {
    hal = await suite.open("hal", { context: MOBILE });
    const me = await apiAs(suite.server, accounts.get("hal")!.token, `/api/users/${accounts.get("gia")!.user.id}`);
    const { user } = (await me.json()) as { user: { interests: string[]; languages: string[] } };
    expect(user).toMatchObject({ interests: ["chess", "hiking"], languages: ["it", "en"] });
    await hal.locator('[data-tab="users"]').click();
    await hal.locator(".sidebar-panel").getByRole("button", { name: /Gia/ }).click();
    const profile = hal.locator("section.profile-view");
    await profile.getByText("chess, hiking").waitFor(WAIT);
    expect(await profile.textContent()).toContain("Italian, English");
    await profile.getByText("Italian, English").scrollIntoViewIfNeeded();
    await screenshot(hal, "interests-on-profile");
  });

  test("Video Roulette: this session's interests on the Start screen, 'Looking for someone who likes ...', the shared ones shown to both", async () => {
    // Hal's interests are set for this session only, on the Start screen.
    await openVideoTab(gia, WAIT.timeout);
    hal = await suite.open("hal", { context: DESKTOP });
    await openVideoTab(hal, WAIT.timeout);
    const giaRoulette = gia.locator("section.roulette");
    const halRoulette = hal.locator("section.roulette");
    // Gia's start from her profile's.
    expect(await tagsIn(gia, "section.roulette .tag-input")).toEqual(["chess", "hiking"]);
    expect(await giaRoulette.getByRole("combobox", { name: "Language" }).isVisible()).toBe(true);
    const only = giaRoulette.getByRole("checkbox", { name: "Only people who share my interests" });
    expect(await only.isEnabled()).toBe(true);
    await only.check();
    await expectAccessible(gia, "Video Roulette Start screen with interests");
    await screenshot(gia, "interests-roulette-start");

    await giaRoulette.getByRole("button", { name: "Start Video Chat" }).click();
    await giaRoulette.getByText("Looking for someone who likes chess, hiking...").waitFor(WAIT);
    await screenshot(gia, "interests-roulette-searching");

    const halField = halRoulette.getByRole("combobox", { name: "Interests for this session" });
    await halField.click();
    await halField.pressSequentially("Hiking");
    await halField.press("Enter");
    await halRoulette.getByRole("button", { name: "Start Video Chat" }).click();
    await waitForRouletteStatus(gia, "connected", WAIT.timeout);
    await waitForRouletteStatus(hal, "connected", WAIT.timeout);
    await giaRoulette.locator(".roulette-partner").getByText("You both like hiking").waitFor(WAIT);
    await halRoulette.locator(".roulette-partner").getByText("You both like hiking").waitFor(WAIT);
    expect(await halRoulette.locator(".roulette-partner").textContent()).toContain("Speaks Italian, English");
    // Gia's other interest never reaches Hal.
    expect(await halRoulette.locator(".roulette-partner").textContent()).not.toContain("chess");
    await screenshot(gia, "interests-roulette-shared");
    await screenshot(hal, "interests-roulette-shared-other-side");
    await giaRoulette.getByRole("button", { name: "Stop" }).click();
    await halRoulette.getByRole("button", { name: "Stop" }).click();
  });
});
