// The landing page as a visitor meets it, in real Chromium at desktop and 375 px width: with
// JavaScript off (plain tabs and form posts) and on (live validation, country picker, busy
// buttons, the agreement modal, the cookie banner, the optional interests and languages), plus the
// 404 and legal pages.
import { describe, expect, test } from "bun:test";
import type { BrowserContextOptions, Page } from "playwright-core";
import { fillRegisterForm, listLoaded, PASSWORD, registerAccount } from "./support/accounts.ts";
import { DESKTOP, MOBILE } from "./support/browser.ts";
import { imagesLoaded, openSettings } from "./support/screens.ts";
import { expectAccessible } from "./support/axe.ts";
import { screenshot } from "./support/screenshots.ts";
import { browserSuite } from "./support/suite.ts";

const suite = browserSuite({ closeAfterEach: true });

let counter = 0;
const unique = (prefix: string) => `${prefix}_${process.pid % 1000}_${++counter}`;

/** A fresh page; `consented` pre-sets the cookie choice so the banner stays out of the way. */
async function freshPage(options: BrowserContextOptions, { consented = true } = {}): Promise<Page> {
  const context = await suite.newContext({ ...options, baseURL: undefined });
  if (consented) await context.addCookies([{ name: "consent", value: "necessary", url: suite.server.url }]);
  const page = await context.newPage();
  page.on("pageerror", (error) => console.error(`page error: ${error.message}`));
  return page;
}

async function apiRegister() {
  const username = unique("e2e");
  await registerAccount(suite.server, username, "E2E User", { gender: "male", age: 28, country_code: "PL" });
  return { username, password: PASSWORD };
}

const ADULT_ERROR = "Please confirm that you are 18 or older and accept the Terms";

const onChatScreen = async (page: Page) => {
  await page.waitForURL(`${suite.server.url}/`);
  await page.waitForSelector('[data-island="ChatApp"]', { state: "attached" });
  // With JavaScript off the island stays hidden and the page says the chat needs JavaScript.
  await page.locator(".chat-app .tab-bar, #noscript-title").first().waitFor();
};

for (const [label, size] of [["desktop", DESKTOP], ["mobile", MOBILE]] as const) {
  describe(`landing with JavaScript off (${label})`, () => {
    const noJs = { ...size, javaScriptEnabled: false };

    test("the tabs switch with CSS alone and the register form signs a new user in", async () => {
      const page = await freshPage(noJs);
      await page.goto(suite.server.url + "/");
      expect(await page.isVisible("#login-username")).toBe(true);
      await screenshot(page, "nojs-landing");
      await page.click("label[for=tab-register]");
      expect(await page.isVisible("#reg-username")).toBe(true);
      expect(await page.isVisible("#login-username")).toBe(false);
      await fillRegisterForm(page, { username: unique("nojs") });
      await page.selectOption("#reg-country", "DE");
      await page.click(".panel-register button[type=submit]");
      await onChatScreen(page);
      await screenshot(page, "nojs-chat");
    });

    test("a validation error comes back with the entered values and the register tab open", async () => {
      const page = await freshPage(noJs);
      await page.goto(suite.server.url + "/");
      await page.click("label[for=tab-register]");
      const username = unique("bad");
      await fillRegisterForm(page, { username, confirm: "different horse" });
      await page.selectOption("#reg-country", "FR");
      await page.click(".panel-register button[type=submit]");
      await page.waitForSelector("text=Passwords do not match");
      expect(await page.isVisible("#reg-username")).toBe(true);
      expect(await page.inputValue("#reg-username")).toBe(username);
      expect(await page.inputValue("#reg-password")).toBe("");
      expect(await page.inputValue("#reg-country")).toBe("FR");
      expect(await page.isChecked("#reg-adult")).toBe(true);
      await screenshot(page, "nojs-register-error");
    });

    test("the login form and the guest form sign in", async () => {
      const user = await apiRegister();
      const page = await freshPage(noJs);
      await page.goto(suite.server.url + "/");
      await page.fill("#login-username", user.username);
      await page.fill("#login-password", user.password);
      await page.click(".panel-login button[type=submit]");
      await onChatScreen(page);

      const guest = await freshPage(noJs);
      await guest.goto(suite.server.url + "/");
      await guest.click("label[for=tab-guest]");
      await guest.click(".panel-guest label:has-text('Female')");
      await guest.check("#guest-adult");
      await guest.click(".panel-guest button[type=submit]");
      await onChatScreen(guest);
    });

    test("guest entry requires the 18+ box: without it the error shows under the box on the landing page, with it the guest is in", async () => {
      const page = await freshPage(noJs);
      await page.goto(suite.server.url + "/");
      await page.click("label[for=tab-guest]");
      expect(await page.textContent("label[for=guest-adult]")).toBe("I am 18 or older and I accept the Terms");
      await page.click(".panel-guest label:has-text('Female')");
      await page.click(".panel-guest button[type=submit]");
      await page.waitForSelector(`#guest-adult-error:has-text('${ADULT_ERROR}')`);
      expect(new URL(page.url()).pathname).toBe("/auth/guest");
      expect(await page.isVisible('[data-island="ChatApp"]')).toBe(false);
      expect(await page.isVisible("#guest-adult")).toBe(true);
      expect(await page.getAttribute("#guest-adult", "aria-invalid")).toBe("true");
      expect(await page.isChecked(".panel-guest input[value=female]")).toBe(true);
      expect((await page.context().cookies()).some((c) => c.name === "sid")).toBe(false);
      await page.locator("#guest-adult-error").scrollIntoViewIfNeeded();
      await screenshot(page, "landing-guest-adult-required");
      await page.check("#guest-adult");
      await page.click(".panel-guest button[type=submit]");
      await onChatScreen(page);
    });

    test("the User Agreement opens and closes as a plain overlay", async () => {
      const page = await freshPage(noJs);
      await page.goto(suite.server.url + "/");
      await page.click(".panel-login [data-open-agreement]");
      expect(await page.isVisible("#agreement .modal-box")).toBe(true);
      await screenshot(page, "nojs-agreement");
      await page.click("#agreement .modal-close");
      expect(await page.isVisible("#agreement .modal-box")).toBe(false);
    });
  });

  describe(`landing with JavaScript on (${label})`, () => {
    test("Sign Up stays disabled while the passwords differ, and the country picker searches and picks", async () => {
      const page = await freshPage(size);
      await page.goto(suite.server.url + "/");
      await page.click("label[for=tab-register]");
      // Detection on loopback finds nothing: the picker is left empty for a manual choice.
      await page.waitForSelector("#reg-country-button:has-text('Select country')");
      const signUp = page.locator(".panel-register button[type=submit]");
      await fillRegisterForm(page, { username: unique("live"), confirm: PASSWORD.slice(0, -1) });
      expect(await page.textContent("#reg-confirm-error")).toBe("Passwords do not match");
      expect(await signUp.isDisabled()).toBe(true);
      await page.fill("#reg-confirm", PASSWORD);
      expect(await page.textContent("#reg-confirm-error")).toBe("");
      expect(await signUp.isDisabled()).toBe(true);

      await page.click("#reg-country-button");
      expect(await page.getAttribute(".picker-search", "placeholder")).toBe("Search countries...");
      await page.fill(".picker-search", "zzzz");
      expect(await page.isVisible("text=No countries found")).toBe(true);
      await page.fill(".picker-search", "germ");
      expect(await page.locator(".picker-option:visible").allTextContents()).toEqual(["🇩🇪Germany"]);
      await screenshot(page, "js-country-picker");
      await page.keyboard.press("Enter");
      expect(await page.textContent("#reg-country-button")).toContain("Germany");
      expect(await page.isVisible(".picker-button .detected-badge")).toBe(false);
      expect(await signUp.isEnabled()).toBe(true);
      await screenshot(page, "js-register-ready");
      await signUp.click();
      await onChatScreen(page);
      // The token stays in the chat island's memory (issue 9); the user id is stored.
      expect(await page.evaluate(() => [localStorage.getItem("token"), localStorage.getItem("userId") !== null])).toEqual([null, true]);
    });

    test("unticking the 18+ box shows why at once and holds Sign Up until it is ticked again", async () => {
      const page = await freshPage(size);
      await page.goto(suite.server.url + "/");
      await page.click("label[for=tab-register]");
      const signUp = page.locator(".panel-register button[type=submit]");
      await page.waitForSelector("#reg-country-button:has-text('Select country')");
      await fillRegisterForm(page, { username: unique("box") });
      await page.click("#reg-country-button");
      await page.fill(".picker-search", "poland");
      await page.keyboard.press("Enter");
      expect(await signUp.isEnabled()).toBe(true);
      expect(await page.textContent("#reg-adult-error")).toBe("");
      await page.uncheck("#reg-adult");
      expect(await page.textContent("#reg-adult-error")).toBe(ADULT_ERROR);
      expect(await page.getAttribute("#reg-adult", "aria-invalid")).toBe("true");
      expect(await signUp.isDisabled()).toBe(true);
      await screenshot(page, "js-register-adult-required");
      await page.check("#reg-adult");
      expect(await page.textContent("#reg-adult-error")).toBe("");
      expect(await page.getAttribute("#reg-adult", "aria-invalid")).toBeNull();
      expect(await signUp.isEnabled()).toBe(true);
    });

    test("a wrong password shows the server's message and re-enables the button", async () => {
      const user = await apiRegister();
      const page = await freshPage(size);
      await page.goto(suite.server.url + "/");
      const login = page.locator(".panel-login button[type=submit]");
      expect(await login.isDisabled()).toBe(true);
      await page.fill("#login-username", user.username);
      await page.fill("#login-password", "not the password");
      await login.click();
      await page.waitForSelector(".panel-login .form-error:has-text('Invalid username or password')");
      expect(await login.isEnabled()).toBe(true);
      await screenshot(page, "js-login-error");
    });

    test("Enter Chat waits for a gender and the 18+ box, and reads 'Creating Account...' while it works", async () => {
      const page = await freshPage(size);
      let release: () => void = () => {};
      const held = new Promise<void>((resolve) => (release = resolve));
      await page.route("**/api/guest/create", async (route) => {
        await held;
        await route.continue();
      });
      await page.goto(suite.server.url + "/");
      await page.click("label[for=tab-guest]");
      const enter = page.locator(".panel-guest button[type=submit]");
      expect(await enter.isDisabled()).toBe(true);
      await page.click(".panel-guest label:has-text('Male')");
      expect(await enter.isDisabled()).toBe(true);
      await page.check("#guest-adult");
      expect(await enter.isEnabled()).toBe(true);
      await enter.click();
      await page.waitForSelector(".panel-guest button:has-text('Creating Account...')");
      expect(await enter.isDisabled()).toBe(true);
      await screenshot(page, "js-guest-busy");
      release();
      await onChatScreen(page);
      await listLoaded(page);
      await imagesLoaded(page);
      await screenshot(page, "js-guest-chat");
    });

    test("the User Agreement modal closes on Escape and on the overlay, returning focus", async () => {
      const page = await freshPage(size);
      await page.goto(suite.server.url + "/");
      const link = page.locator(".panel-login [data-open-agreement]");
      await link.click();
      expect(await page.isVisible("#agreement .modal-box")).toBe(true);
      await screenshot(page, "js-agreement");
      await page.keyboard.press("Tab");
      expect(await page.evaluate(() => document.getElementById("agreement")?.contains(document.activeElement))).toBe(true);
      await page.keyboard.press("Escape");
      expect(await page.isVisible("#agreement .modal-box")).toBe(false);
      expect(await link.evaluate((el) => el === document.activeElement)).toBe(true);
      await link.click();
      await page.mouse.click(5, 5);
      expect(await page.isVisible("#agreement .modal-box")).toBe(false);
    });

    test("the cookie banner records Reject, Customize and Accept all", async () => {
      const choices: [string, string][] = [
        ["reject", "necessary"],
        ["custom", "necessary.analytics"],
        ["accept", "necessary.analytics.advertising"],
      ];
      for (const [choice, value] of choices) {
        const page = await freshPage(size, { consented: false });
        await page.goto(suite.server.url + "/privacy");
        expect(await page.isVisible("[data-consent-banner]")).toBe(true);
        if (choice === "reject") await screenshot(page, "js-consent-banner");
        if (choice === "custom") {
          await page.click(".consent summary");
          await page.check(".consent input[name=analytics]");
          await screenshot(page, "js-consent-customize");
          await page.click(".consent button[value=custom]");
        } else {
          await page.click(`.consent button[value=${choice}]`);
        }
        expect(await page.isVisible("[data-consent-banner]")).toBe(false);
        const cookie = (await page.context().cookies()).find((c) => c.name === "consent");
        expect(cookie?.value).toBe(value);
        await page.reload();
        expect(await page.isVisible("[data-consent-banner]")).toBe(false);
      }
    });

    test("an unknown address shows the 404 page and the legal pages render", async () => {
      const page = await freshPage(size);
      const response = await page.goto(suite.server.url + "/no-such-page");
      expect(response?.status()).toBe(404);
      expect(await page.textContent("h1")).toBe("Page not found");
      await screenshot(page, "404");
      await page.click("text=Go to the home page");
      await page.waitForSelector("#auth");
      const titles: [string, string][] = [
        ["/privacy", "Privacy Policy"],
        ["/terms", "Terms of User Agreement"],
        ["/cookies", "Cookies Policy"],
        ["/compliance", "18 U.S.C. 2257 Compliance Notice"],
      ];
      for (const [path, title] of titles) {
        await page.goto(suite.server.url + path);
        expect(await page.textContent("h1")).toBe(title);
        expect(await page.getAttribute('meta[name="theme-color"]', "content")).toBe("#ffffff");
        await screenshot(page, `legal${path.replace("/", "-")}`, { fullPage: label === "desktop" && path === "/privacy" });
      }
    });
  });
}


describe("the register form's optional interests and languages", () => {
  test("opened with the keyboard, filled, and shown on the new account's profile", async () => {
    const page = await freshPage(DESKTOP);
    await page.goto(suite.server.url + "/");
    await page.click("label[for=tab-register]");
    await page.waitForSelector("#reg-country-button:has-text('Select country')");
    await fillRegisterForm(page, { username: unique("tags") });
    await page.click("#reg-country-button");
    await page.fill(".picker-search", "germ");
    await page.keyboard.press("Enter");
    // Folded away at first; Enter on its summary opens it.
    const more = page.locator("details.register-more");
    expect(await more.getAttribute("open")).toBeNull();
    await more.locator("summary").focus();
    await page.keyboard.press("Enter");
    await page.getByRole("textbox", { name: "Interests" }).fill("Hiking, jazz,");
    await page.getByRole("listbox", { name: "Languages I speak" }).selectOption(["de", "fr"]);
    await expectAccessible(page, "the register form with interests and languages");
    await page.getByRole("listbox", { name: "Languages I speak" }).scrollIntoViewIfNeeded();
    await screenshot(page, "js-register-interests");
    await page.click(".panel-register button[type=submit]");
    await onChatScreen(page);
    await openSettings(page, /^Profile Settings/);
    const rows = page.locator(".settings-main dl");
    await rows.getByText("hiking, jazz").waitFor();
    expect(await rows.textContent()).toContain("French, German");
  });
});
