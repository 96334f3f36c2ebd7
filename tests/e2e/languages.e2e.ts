// Interface languages in real Chromium: the footer's switcher (a plain form) turns the landing
// page Spanish, then Arabic, right to left and mirrored; Settings → Language saves the account's
// language and the chat screen comes back in it, mirrored in Arabic; the Video Chat tab in Arabic;
// a message's menu, reaction, reply and delete confirmation in Arabic; a profile, the Find Users
// panel and the emoji picker (its categories, and a search by a Spanish emoji name) in Spanish;
// Video Roulette and a call between two people with fake cameras in Spanish and in Arabic, checked
// with axe.
// Screenshots go to tests/e2e/screenshots/ (languages-*).
import { describe, expect, test } from "bun:test";
import type { Page } from "playwright-core";
import { registerAccount } from "./support/accounts.ts";
import { DESKTOP, MOBILE } from "./support/browser.ts";
import { expectAccessible } from "./support/axe.ts";
import { boxesOf, openSettings, openVideoTab, pageSettled, startChat, videoPlays, waitForRouletteStatus } from "./support/screens.ts";
import { screenshot } from "./support/screenshots.ts";
import { readServerDb } from "./support/data.ts";
import { browserSuite } from "./support/suite.ts";
import { translator } from "../../src/i18n/catalogue.ts";

const WAIT = { timeout: 15_000 };
const suite = browserSuite({
  setup: async (server) => {
    await registerAccount(server, "lena", "Lena");
    await registerAccount(server, "omar", "Omar", { gender: "male" });
    await registerAccount(server, "pablo", "Pablo", { gender: "male" });
  },
  open: { listLoaded: true, defaultTimeout: WAIT.timeout },
});

const html = (page: Page) => page.evaluate(() => ({ lang: document.documentElement.lang, dir: document.documentElement.dir }));
const left = async (page: Page, selector: string) => (await boxesOf(page, selector))[0]?.x ?? Number.NaN;

async function chooseInFooter(page: Page, language: string) {
  await page.locator("#footer-lang").selectOption({ label: language });
  await Promise.all([page.waitForURL("**/"), page.locator(".lang-form button[type=submit]").click()]);
  await page.locator(".site-footer").waitFor();
}

describe("the footer's language switcher", () => {
  test("turns the landing page Spanish, then Arabic, right to left and mirrored", async () => {
    const page = await (await suite.newContext(DESKTOP)).newPage();
    await page.goto("/");
    expect(await html(page)).toEqual({ lang: "en", dir: "ltr" });
    const ltrHero = await left(page, ".hero-text");
    const ltrCard = await left(page, ".auth-card");
    expect(ltrHero).toBeLessThan(ltrCard);

    await chooseInFooter(page, "Español");
    expect(await html(page)).toEqual({ lang: "es", dir: "ltr" });
    await page.locator("h1", { hasText: "Videochat aleatorio y mensajes privados con gente de todo el mundo" }).waitFor(WAIT);
    await page.getByRole("button", { name: "Rechazar las no esenciales" }).click();
    await screenshot(page, "languages-landing-es");

    // The landing script speaks the page's language too: the country picker and a refused login.
    await page.locator("label[for=tab-login]").click();
    await page.locator("#login-username").fill("nobody_at_all");
    await page.locator("#login-password").fill("wrong password");
    await page.locator(".panel-login button[type=submit]").click();
    await page.locator(".panel-login [data-form-error]", { hasText: "Nombre de usuario o contraseña incorrectos" }).waitFor(WAIT);

    await chooseInFooter(page, "العربية");
    expect(await html(page)).toEqual({ lang: "ar", dir: "rtl" });
    await page.locator("h1", { hasText: "دردشة فيديو عشوائية ورسائل خاصة مع أشخاص من حول العالم" }).waitFor(WAIT);
    // Mirrored: the sign-in card is now left of the text, the logo at the right end of the header.
    expect(await left(page, ".auth-card")).toBeLessThan(await left(page, ".hero-text"));
    const header = (await boxesOf(page, ".header-inner"))[0]!;
    const logo = (await boxesOf(page, ".logo"))[0]!;
    expect(logo.x + logo.width).toBeGreaterThan(header.x + header.width - 40);
    await screenshot(page, "languages-landing-ar");
    await page.locator("label[for=tab-register]").click();
    await screenshot(page, "languages-register-ar");
  });

  test("works on a phone, and the choice survives a reload", async () => {
    const page = await (await suite.newContext(MOBILE)).newPage();
    await page.goto("/");
    await chooseInFooter(page, "Русский");
    await page.reload();
    expect(await html(page)).toEqual({ lang: "ru", dir: "ltr" });
    await page.locator("h1", { hasText: "Случайный видеочат и личные сообщения с людьми со всего мира" }).waitFor(WAIT);
    await screenshot(page, "languages-landing-ru");
  });
});

describe("Settings → Language", () => {
  test("saves the account's language; the chat screen comes back in it, mirrored in Arabic", async () => {
    const page = await suite.open("omar");
    expect(await html(page)).toEqual({ lang: "en", dir: "ltr" });
    const sidebarLtr = await left(page, ".sidebar");
    await openSettings(page, /Language/);
    await Promise.all([page.waitForEvent("load"), page.getByRole("radio", { name: "العربية" }).click()]);
    await page.locator(".chat-app .tab-bar").waitFor();
    expect(await html(page)).toEqual({ lang: "ar", dir: "rtl" });
    const locale = readServerDb(suite.server, (db) => (db.query("SELECT locale FROM users WHERE username = 'omar'").get() as { locale: string }).locale);
    expect(locale).toBe("ar");
    // Mirrored: the sidebar moved to the right-hand side.
    expect(await left(page, ".sidebar")).toBeGreaterThan(sidebarLtr);
    await page.locator('[data-tab="settings"]').click();
    await page.locator("#settings-heading", { hasText: "الإعدادات" }).waitFor(WAIT);
    await screenshot(page, "languages-settings-ar");
    await openVideoTab(page);
    await page.locator("section.roulette", { hasText: "روليت الفيديو" }).waitFor(WAIT);
    await page.getByRole("button", { name: "بدء دردشة الفيديو" }).waitFor(WAIT);
    // Mirrored: the local preview's corner and the controls follow the reading direction.
    await screenshot(page, "languages-roulette-ar");
  });

  test("Spanish from Settings on a phone", async () => {
    const page = await suite.open("lena", { context: MOBILE });
    await openSettings(page, /Language/);
    await Promise.all([page.waitForEvent("load"), page.getByRole("radio", { name: "Español" }).click()]);
    await page.locator(".chat-app .tab-bar").waitFor();
    expect(await html(page)).toEqual({ lang: "es", dir: "ltr" });
    await page.locator('[data-tab="settings"]').click();
    await page.locator("#settings-heading", { hasText: "Ajustes" }).waitFor(WAIT);
    await screenshot(page, "languages-settings-es-mobile");
  });
});

describe("message actions in Arabic", () => {
  const say = translator("ar");
  test("the message menu, a reaction, the quote and the delete confirmation speak Arabic", async () => {
    const page = await suite.open("omar");
    await page.context().addCookies([{ name: "lang", value: "ar", url: new URL(page.url()).origin }]);
    await Promise.all([page.waitForEvent("load"), page.reload()]);
    await page.locator(".chat-app .tab-bar").waitFor();
    expect(await html(page)).toEqual({ lang: "ar", dir: "rtl" });
    await startChat(page, "Lena", say);
    const box = page.getByRole("textbox", { name: say("chat.message_to", { name: "Lena" }) });
    await box.fill("مساء الخير");
    await box.press("Enter");
    const row = page.locator(".message-row").filter({ has: page.locator(".message-text", { hasText: "مساء الخير" }) }).last();
    await row.waitFor();
    const openMenu = async () => {
      await row.hover();
      await row.getByRole("button", { name: say("chat.message_options") }).click();
    };
    await openMenu();
    expect(await page.getByRole("menuitem").allTextContents()).toEqual([say("chat.action_reply"), say("chat.action_react"), say("chat.action_edit"), say("chat.action_delete")]);
    await screenshot(page, "languages-message-menu-ar");
    await page.getByRole("menuitem", { name: say("chat.action_react"), exact: true }).click();
    await page.getByRole("button", { name: say("chat.react_emoji", { emoji: "❤️" }) }).click();
    await row.getByRole("button", { name: say("chat.reaction_chip_mine", { emoji: "❤️", count: 1 }) }).waitFor(WAIT);
    await openMenu();
    await page.getByRole("menuitem", { name: say("chat.action_reply"), exact: true }).click();
    await page.locator(".compose-bar", { hasText: say("chat.replying_to_self") }).waitFor(WAIT);
    await screenshot(page, "languages-message-reply-ar");
    await page.getByRole("button", { name: say("chat.cancel_reply") }).click();
    await openMenu();
    await page.getByRole("menuitem", { name: say("chat.action_delete"), exact: true }).click();
    await page.getByRole("alertdialog", { name: say("chat.delete_title") }).waitFor(WAIT);
    await screenshot(page, "languages-message-delete-ar");
    await page.getByRole("alertdialog").getByRole("button", { name: say("chat.action_delete") }).click();
    await page.locator(".message-text.is-deleted", { hasText: say("chat.deleted") }).waitFor(WAIT);
  });
});

describe("a profile, Find Users and the emoji picker in Spanish", () => {
  const say = translator("es");
  test("the profile's headings, buttons and details, and the search filters speak Spanish", async () => {
    const page = await suite.open("lena");
    await page.context().addCookies([{ name: "lang", value: "es", url: new URL(page.url()).origin }]);
    await Promise.all([page.waitForEvent("load"), page.reload()]);
    await page.locator(".chat-app .tab-bar").waitFor();
    expect(await html(page)).toEqual({ lang: "es", dir: "ltr" });
    await page.locator('[data-tab="users"]').click();
    const row = page.locator(".sidebar-panel .row", { hasText: "Pablo" });
    // Pablo never signs in: his row says when he was seen, the Spanish way ("Visto hace ...").
    await row.locator(".row-status", { hasText: /^Visto / }).waitFor(WAIT);
    // The country by its Spanish name (Intl), though the server stores "Germany".
    await row.locator(".row-sub", { hasText: "Alemania" }).waitFor();
    await row.click();

    const profile = page.locator("section.profile-view");
    await profile.locator(".screen-bar-title", { hasText: "Perfil" }).waitFor(WAIT);
    await profile.getByRole("button", { name: "Volver" }).waitFor();
    await profile.getByRole("button", { name: "Iniciar chat" }).waitFor();
    await profile.locator(".presence-line", { hasText: say("chat.last_seen_recently") }).waitFor();
    expect(await profile.locator("h3").allTextContents()).toEqual(["Información", "Detalles del perfil", "Privacidad y ajustes"]);
    const labels = await profile.locator("dt").allTextContents();
    expect(labels.slice(0, 3)).toEqual(["Nombre de usuario", "Nombre visible", "Miembro desde"]);
    expect(labels).toContain("Género");
    await profile.locator("dd", { hasText: "Hombre" }).waitFor();
    await profile.getByRole("button", { name: "Bloquear usuario" }).waitFor();
    await profile.getByRole("button", { name: "Denunciar usuario" }).waitFor();
    await screenshot(page, "languages-profile-es");

    await page.getByRole("button", { name: say("chat.find_users") }).click();
    const search = page.getByRole("search", { name: "Buscar usuarios" });
    await search.getByRole("heading", { name: "Buscar usuarios" }).waitFor(WAIT);
    await search.getByPlaceholder("Buscar por nombre...").waitFor();
    for (const label of ["Nombre", "Género", "Orientación", "País", "Edad mínima", "Edad máxima"]) await search.getByLabel(label, { exact: true }).waitFor();
    expect(await search.getByLabel("Género", { exact: true }).locator("option").first().textContent()).toBe("Cualquiera");
    // Countries by their Spanish names; the option's value stays the English name the search filters by.
    const germany = search.getByLabel("País", { exact: true }).locator("option", { hasText: /^Alemania$/ });
    expect(await germany.getAttribute("value")).toBe("Germany");
    await search.getByRole("checkbox", { name: "Solo en línea" }).check();
    await screenshot(page, "languages-find-users-es");
  });

  test("the emoji picker names its categories in Spanish and finds a cat by its Spanish name, 'gato'", async () => {
    const page = await suite.open("lena");
    await page.context().addCookies([{ name: "lang", value: "es", url: new URL(page.url()).origin }]);
    await Promise.all([page.waitForEvent("load"), page.reload()]);
    await page.locator(".chat-app .tab-bar").waitFor();
    await startChat(page, "Pablo", say);
    await page.getByRole("button", { name: say("chat.emoji"), exact: true }).click();
    const picker = page.getByRole("dialog", { name: say("chat.emoji_picker") });
    // Spanish emoji names come in a chunk of their own once the picker shows.
    await picker.locator(".epr-emoji-category-label", { hasText: "Caras y personas" }).waitFor(WAIT);
    await picker.getByRole("tab", { name: "Animales y naturaleza" }).waitFor();
    await picker.getByRole("tablist", { name: "Categorías" }).waitFor();
    await screenshot(page, "languages-emoji-picker-es");

    await picker.getByPlaceholder("Buscar").fill("gato");
    await picker.locator('button.epr-emoji[data-epr-unified="1f431"]').waitFor(WAIT);
    expect(await picker.getByRole("status").textContent()).toMatch(/^\d+ resultados\. /);
    await pageSettled(page);
    await screenshot(page, "languages-emoji-search-es");
    await expectAccessible(page, "emoji picker, searched, es");
    await picker.locator('button.epr-emoji[data-epr-unified="1f431"]').click();
    expect(await page.getByRole("textbox", { name: say("chat.message_to", { name: "Pablo" }) }).inputValue()).toBe("🐱");
  });
});

// Video Roulette and a call in Spanish and in Arabic (issue 24): two people with fake cameras,
// each page in the language of its `lang` cookie.
const LANGUAGES = [
  { code: "es", dir: "ltr" },
  { code: "ar", dir: "rtl" },
] as const;
type Language = (typeof LANGUAGES)[number];
/** Two browsers with cameras on a loaded 2-core machine: their waits get longer. */
const CAMERA_WAIT = 60_000;

/** `username` signed in with the fake camera, the page reloaded in `language`. */
async function openIn(username: string, language: Language, context = DESKTOP): Promise<Page> {
  const page = await suite.open(username, { context, camera: true, dismissDialogs: true, defaultTimeout: CAMERA_WAIT });
  await page.context().addCookies([{ name: "lang", value: language.code, url: new URL(page.url()).origin }]);
  await Promise.all([page.waitForEvent("load"), page.reload()]);
  await page.locator(".chat-app .tab-bar").waitFor();
  expect(await html(page)).toEqual({ lang: language.code, dir: language.dir });
  return page;
}

describe("Video Roulette in Spanish and in Arabic", () => {
  for (const language of LANGUAGES) {
    test(`two strangers meet in ${language.code}: filters, status, controls and the partner's video speak it`, async () => {
      const say = translator(language.code);
      const first = await openIn(await suite.account("ruth", "Ruth", { country_code: "DE", country_name: "Germany" }), language);
      const second = await openIn(await suite.account("sami", "Sami", { gender: "male", country_code: "FR", country_name: "France" }), language);
      const roulette = (page: Page) => page.locator("section.roulette");
      try {
        for (const page of [first, second]) await openVideoTab(page, CAMERA_WAIT);

        const filters = roulette(first).getByRole("group", { name: say("roulette.partner_filters") });
        expect(await filters.getByRole("combobox", { name: say("roulette.gender") }).locator("option").allTextContents()).toEqual([
          say("roulette.gender_any"),
          say("roulette.gender_female"),
          say("roulette.gender_male"),
        ]);
        expect(await filters.getByRole("combobox", { name: say("roulette.country") }).locator("option").first().textContent()).toBe(say("roulette.any_country"));

        await roulette(first).getByRole("button", { name: say("roulette.start") }).click();
        await waitForRouletteStatus(first, "searching", CAMERA_WAIT);
        expect(await roulette(first).locator("#roulette-status").textContent()).toBe(say("roulette.looking"));
        await roulette(second).getByRole("button", { name: say("roulette.start") }).click();
        for (const page of [first, second]) {
          await waitForRouletteStatus(page, "connected", CAMERA_WAIT);
          await videoPlays(page, `video[aria-label="${say("roulette.partner_video")}"]`, CAMERA_WAIT);
          expect(await roulette(page).locator(".roulette-partner strong").textContent()).toBe(say("roulette.stranger"));
          expect(await roulette(page).locator("#roulette-status").textContent()).toBe(say("roulette.connected_with", { name: say("roulette.stranger") }));
          // (the blurred video has a "Show anyway"/"Next" pair of its own, so the controls by class)
          expect(await roulette(page).locator(".roulette-button.is-next").textContent()).toContain(say("roulette.next"));
          expect(await roulette(page).locator(".roulette-button.is-stop").textContent()).toContain(say("roulette.stop"));
          // ICE_SERVERS=[] in the browser suites: the pairing is direct, and says so in the page's language.
          expect(await roulette(page).locator("[data-connection-kind]").textContent()).toContain(say("call.direct"));
        }
        // The partner's country in the page's language (the server sends English names).
        const france = new Intl.DisplayNames([language.code], { type: "region" }).of("FR")!;
        expect(await roulette(first).locator(".roulette-partner span").first().textContent()).toContain(france);
        if (language.dir === "rtl") {
          // Mirrored: the own preview sits in the bottom-left corner, the partner's label at the right.
          const stage = (await boxesOf(first, ".roulette-stage"))[0]!;
          const preview = (await boxesOf(first, ".roulette-local"))[0]!;
          const partner = (await boxesOf(first, ".roulette-partner"))[0]!;
          expect(preview.x - stage.x).toBeLessThan(40);
          expect(partner.x + partner.width).toBeGreaterThan(stage.x + stage.width - 40);
        }
        await screenshot(first, `languages-roulette-connected-${language.code}`);
        await expectAccessible(first, `Video Roulette, connected, ${language.code}`);

      } finally {
        // Closed even after a failure: a page left searching would pair with the next test's.
        for (const page of [first, second]) await page.context().close();
      }
    }, 400_000);
  }
});

describe("a call in Spanish and in Arabic", () => {
  for (const language of LANGUAGES) {
    test(`the call screens speak ${language.code}: ringing, calling, connected and its controls`, async () => {
      const say = translator(language.code);
      const caller = await openIn(await suite.account("nadia", "Nadia"), language);
      const callee = await openIn(await suite.account("tariq", "Tariq", { gender: "male" }), language);
      const overlay = (page: Page, name: string) => page.getByRole("dialog", { name: say("call.with", { name }) });
      try {

        // The chat with Tariq from All Users and his profile's first button (the profile is not translated yet).
        await caller.locator('[data-tab="users"]').click();
        await caller.locator(".sidebar-panel").getByRole("button", { name: /Tariq/ }).first().click();
        await caller.locator(".profile-actions .button.primary").click();
        await caller.getByRole("button", { name: say("chat.video_call", { name: "Tariq" }) }).click();

        await overlay(caller, "Tariq").getByRole("heading", { name: say("call.calling", { name: "Tariq" }) }).waitFor({ timeout: CAMERA_WAIT });
        expect(await overlay(caller, "Tariq").textContent()).toContain(say("call.waiting_answer"));
        await overlay(caller, "Tariq").getByRole("button", { name: say("call.cancel") }).waitFor(WAIT);
        await overlay(callee, "Nadia").getByText(say("call.is_calling")).waitFor({ timeout: CAMERA_WAIT });
        await overlay(callee, "Nadia").getByRole("button", { name: say("call.decline") }).waitFor(WAIT);
        await expectAccessible(callee, `incoming call, ${language.code}`);
        await screenshot(callee, `languages-call-incoming-${language.code}`);

        await overlay(callee, "Nadia").getByRole("button", { name: say("call.accept") }).click();
        await videoPlays(caller, `video[aria-label="${say("call.remote_video", { name: "Tariq" })}"]`, CAMERA_WAIT);
        await videoPlays(callee, `video[aria-label="${say("call.remote_video", { name: "Nadia" })}"]`, CAMERA_WAIT);
        const controls = overlay(caller, "Tariq").getByRole("toolbar", { name: say("call.controls") });
        await controls.getByRole("button", { name: say("call.mute_microphone") }).click();
        await controls.getByRole("button", { name: say("call.unmute_microphone") }).waitFor(WAIT);
        await controls.getByRole("button", { name: say("call.turn_camera_off") }).click();
        await overlay(caller, "Tariq").getByText(say("call.camera_off"), { exact: true }).waitFor(WAIT);
        expect(await overlay(caller, "Tariq").locator(".call-report").textContent()).toContain(say("call.report"));
        expect(await overlay(caller, "Tariq").locator("[data-connection-kind]").textContent()).toContain(say("call.direct"));
        if (language.dir === "rtl") {
          // Mirrored: the own preview moved to the top-left corner.
          const preview = (await boxesOf(caller, ".call-local-wrap"))[0]!;
          expect(preview.x).toBeLessThan(40);
        }
        await expectAccessible(caller, `call, connected, ${language.code}`);
        await screenshot(caller, `languages-call-connected-${language.code}`);

        await controls.getByRole("button", { name: say("call.end") }).click();
        await overlay(caller, "Tariq").waitFor({ state: "detached", ...WAIT });
        await overlay(callee, "Nadia").waitFor({ state: "detached", ...WAIT });
      } finally {
        for (const page of [caller, callee]) await page.context().close();
      }
    }, 400_000);
  }
});
