// The landing page's ban notice as components and script (issue 8): with JavaScript off the server
// renders `form.ban` in the login panel (reason, end, appeal link), and a refused guest or register
// entry shows the end and the appeal link; with JavaScript on the landing script shows the same
// for the JSON answer 403 `banned`.
import { registerDom, unregisterDom } from "../support/dom.ts";

import { afterAll, afterEach, describe, expect, test } from "bun:test";
import { renderToStaticMarkup } from "react-dom/server";
import { enhanceAuthForm } from "../../islands/enhance/auth-form.ts";
import { GuestForm } from "../../src/pages/landing/GuestForm.tsx";
import { LoginForm } from "../../src/pages/landing/LoginForm.tsx";
import { RegisterForm } from "../../src/pages/landing/RegisterForm.tsx";
import { emptyForm, type FormState } from "../../src/pages/landing/form-state.ts";
import type { BanNotice } from "../../src/realtime/protocol.ts";
import { until } from "../support/until.ts";

registerDom();
const realFetch = globalThis.fetch;
afterEach(() => {
  globalThis.fetch = realFetch;
  document.body.innerHTML = "";
});
afterAll(() => unregisterDom());

const ban: BanNotice = { reason: "Nudity on camera in Video Roulette", until: "2026-11-30T14:05:00.000Z", appeal_url: "/appeal/tok123" };
const banned = (tab: FormState["tab"], notice: BanNotice = ban): FormState => ({
  ...emptyForm(tab),
  message: "This account is banned",
  ban: notice,
});

/** The server's markup in a document, to read like a browser would. */
function mount(html: string): HTMLFormElement {
  document.body.innerHTML = html;
  const form = document.querySelector("form");
  if (!form) throw new Error("no form rendered");
  return form;
}
const text = (root: ParentNode, selector: string) => root.querySelector(selector)?.textContent ?? null;

describe("the ban notice without JavaScript", () => {
  test("the login panel shows the reason, the end in UTC and the appeal link, and no second error line", () => {
    const form = mount(renderToStaticMarkup(<LoginForm state={banned("login")} />));
    const notice = form.querySelector("[data-ban-notice]");
    expect(notice?.getAttribute("role")).toBe("alert");
    expect(text(form, ".ban-notice-title")).toBe("This account is banned");
    expect(text(form, ".ban-notice-reason")).toBe("Reason: Nudity on camera in Video Roulette");
    expect(text(form, ".ban-notice-end")).toBe("Banned until 30 November 2026 at 14:05 UTC");
    const link = form.querySelector<HTMLAnchorElement>("a.ban-notice-appeal");
    expect(link?.textContent).toBe("Appeal this ban");
    expect(link?.getAttribute("href")).toBe("/appeal/tok123");
    expect(text(form, "[data-form-error]")).toBe("");
  });

  test("a permanent ban says so", () => {
    const form = mount(renderToStaticMarkup(<LoginForm state={banned("login", { ...ban, until: null })} />));
    expect(text(form, ".ban-notice-end")).toBe("Banned permanently");
  });

  test("a refused guest or registration shows the end and the appeal link but names no reason", () => {
    for (const html of [
      renderToStaticMarkup(<GuestForm state={banned("guest", { ...ban, reason: "" })} />),
      renderToStaticMarkup(<RegisterForm state={banned("register")} />),
    ]) {
      const form = mount(html);
      expect(text(form, ".ban-notice-title")).toBe("New accounts from this device or network are banned");
      expect(form.querySelector(".ban-notice-reason")).toBeNull();
      expect(text(form, ".ban-notice-end")).toBe("Banned until 30 November 2026 at 14:05 UTC");
      expect(form.querySelector("a.ban-notice-appeal")?.getAttribute("href")).toBe("/appeal/tok123");
    }
  });

  test("a form without a ban has no notice", () => {
    const form = mount(renderToStaticMarkup(<LoginForm state={{ ...emptyForm("login"), message: "Invalid username or password" }} />));
    expect(form.querySelector("[data-ban-notice]")).toBeNull();
    expect(text(form, "[data-form-error]")).toBe("Invalid username or password");
  });
});

/** Answers every fetch with this status and JSON body, recording what was asked. */
function answer(status: number, body: object): string[] {
  const asked: string[] = [];
  globalThis.fetch = (async (input: string | URL | Request) => {
    asked.push(String(input));
    return new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } });
  }) as typeof fetch;
  return asked;
}

/** Waits for the form to show the server's answer: a ban notice or an error line. */
const settle = (form: HTMLFormElement) =>
  until(() => form.querySelector("[data-ban-notice]") !== null || (form.querySelector("[data-form-error]")?.textContent ?? "") !== "", "the form showing the answer");

function fill(form: HTMLFormElement, values: Record<string, string>): void {
  for (const [name, value] of Object.entries(values)) {
    const control = form.querySelector<HTMLInputElement>(`[name="${name}"]`);
    if (!control) throw new Error(`no control ${name}`);
    if (control.type === "radio" || control.type === "checkbox") {
      const target = form.querySelector<HTMLInputElement>(`[name="${name}"][value="${value}"]`) ?? control;
      target.checked = true;
    } else control.value = value;
    control.dispatchEvent(new Event("input", { bubbles: true }));
  }
}

function submit(form: HTMLFormElement): void {
  form.dispatchEvent(new Event("submit", { bubbles: true, cancelable: true }));
}

describe("the ban notice with JavaScript on", () => {
  test("a login answered 403 banned shows the reason, the end, the appeal link, and frees the button", async () => {
    const form = mount(renderToStaticMarkup(<LoginForm state={null} />));
    enhanceAuthForm(form, "login");
    const asked = answer(403, { error: "This account is banned", code: "banned", ...ban });
    fill(form, { username: "dana", password: "correct horse" });
    submit(form);
    await settle(form);
    expect(asked).toEqual(["/api/auth/login"]);
    const notice = form.querySelector<HTMLElement>("[data-ban-notice]");
    expect(notice?.getAttribute("role")).toBe("alert");
    expect(document.activeElement).toBe(notice);
    expect(text(form, ".ban-notice-title")).toBe("This account is banned");
    expect(text(form, ".ban-notice-reason")).toBe("Reason: Nudity on camera in Video Roulette");
    // The visitor's own time zone: the date and the words around it, whatever the zone.
    expect(text(form, ".ban-notice-end")).toMatch(/^Banned until \d{1,2} November 2026 at \d{2}:\d{2}$/);
    expect(form.querySelector("a.ban-notice-appeal")?.getAttribute("href")).toBe("/appeal/tok123");
    expect(text(form, "[data-form-error]")).toBe("");
    expect(form.querySelector<HTMLButtonElement>("[data-submit]")?.disabled).toBe(false);
    expect(localStorage.getItem("token")).toBeNull();
  });

  test("a second try clears the notice; an ordinary failure shows the usual error line", async () => {
    const form = mount(renderToStaticMarkup(<LoginForm state={banned("login")} />));
    enhanceAuthForm(form, "login");
    answer(401, { error: "Invalid username or password", code: "invalid_credentials" });
    fill(form, { username: "dana", password: "wrong" });
    submit(form);
    await settle(form);
    expect(form.querySelector("[data-ban-notice]")).toBeNull();
    expect(text(form, "[data-form-error]")).toBe("Invalid username or password");
  });

  test("a refused guest entry shows the end and the appeal link; a permanent one says permanently", async () => {
    const form = mount(renderToStaticMarkup(<GuestForm state={null} />));
    enhanceAuthForm(form, "guest");
    answer(403, { error: "Entry is refused while a ban runs", code: "banned", until: null, appeal_url: "/appeal/tok9" });
    fill(form, { gender: "female", adult: "on" });
    submit(form);
    await settle(form);
    expect(form.querySelectorAll("[data-ban-notice]")).toHaveLength(1);
    expect(text(form, ".ban-notice-title")).toBe("New accounts from this device or network are banned");
    expect(form.querySelector(".ban-notice-reason")).toBeNull();
    expect(text(form, ".ban-notice-end")).toBe("Banned permanently");
    expect(form.querySelector("a.ban-notice-appeal")?.getAttribute("href")).toBe("/appeal/tok9");
  });

  test("an appeal link that is not a web address never becomes a link", async () => {
    const form = mount(renderToStaticMarkup(<LoginForm state={null} />));
    enhanceAuthForm(form, "login");
    answer(403, { error: "banned", code: "banned", reason: "<b>x</b>", until: null, appeal_url: "javascript:alert(1)" });
    fill(form, { username: "dana", password: "pw" });
    submit(form);
    await settle(form);
    expect(form.querySelector("a.ban-notice-appeal")).toBeNull();
    // The reason is text, not markup.
    expect(form.querySelector(".ban-notice-reason b")).toBeNull();
    expect(text(form, ".ban-notice-reason")).toBe("Reason: <b>x</b>");
  });
});
