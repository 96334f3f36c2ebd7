// The 18+ box on the register and guest forms (issue 7, "Age"): rendered in both, never on login,
// and with JavaScript off an unticked box comes back as the server's field error under it, with
// everything else the visitor typed still there.
import { afterAll, describe, expect, test } from "bun:test";
import { makeTestApp } from "../support/app.ts";
import { cookiesOf, form, guestEntry, registration, setCookie } from "./helpers.ts";

const t = makeTestApp();
afterAll(() => t.close());

const ADULT_ERROR = "Please confirm that you are 18 or older and accept the Terms";

/** The opening tag of the element with this id. */
const tagOf = (html: string, id: string) => new RegExp(`<[a-z]+ [^>]*id="${id}"[^>]*>`).exec(html)?.[0] ?? "";

/** The text of the error line with this id. */
const errorText = (html: string, id: string) => new RegExp(`id="${id}"[^>]*>([^<]*)</p>`).exec(html)?.[1] ?? null;

const without = (fields: Record<string, string>, name: string) => Object.fromEntries(Object.entries(fields).filter(([key]) => key !== name));

const chatUser = (html: string) => JSON.parse(/id="island-ChatApp-props">(.*?)<\/script>/.exec(html)?.[1] ?? "null").user;

describe("the 18+ box on the landing page", () => {
  test("the register and the guest form each have an unticked box labelled with a link to the Terms", async () => {
    const { text } = await t.call("GET", "/");
    for (const id of ["reg-adult", "guest-adult"]) {
      const box = tagOf(text, id);
      expect(box).toContain('type="checkbox"');
      expect(box).toContain('name="adult"');
      expect(box).toContain('aria-required="true"');
      expect(box).toContain(`aria-describedby="${id}-error"`);
      expect(box).not.toContain("checked");
      expect(box).not.toContain("aria-invalid");
      expect(text).toContain(`<label for="${id}">I am 18 or older and I accept the <a href="/terms" target="_blank" rel="noopener">Terms</a></label>`);
      expect(errorText(text, `${id}-error`)).toBe("");
    }
  });

  test("the login form has no 18+ box", async () => {
    const { text } = await t.call("GET", "/");
    const login = text.slice(text.indexOf('action="/auth/login"'), text.indexOf("</form>", text.indexOf('action="/auth/login"')));
    expect(login).not.toContain('name="adult"');
  });
});

describe("registering without JavaScript", () => {
  test("without the box ticked answers the form with the error under the box and the values kept", async () => {
    const fields = without(registration({ country_code: "DE" }), "adult");
    const r = await form(t, "/auth/register", fields);
    expect(r.status).toBe(400);
    expect(setCookie(r.headers, "sid")).toBeUndefined();
    expect(r.text).toMatch(/id="tab-register"[^>]*checked=""/);
    expect(errorText(r.text, "reg-adult-error")).toBe(ADULT_ERROR);
    expect(tagOf(r.text, "reg-adult")).toContain('aria-invalid="true"');
    expect(r.text).toContain("Please check the highlighted fields");
    expect(tagOf(r.text, "reg-username")).toContain(`value="${fields.username}"`);
    expect(tagOf(r.text, "reg-email")).toContain(`value="${fields.email}"`);
    expect(tagOf(r.text, "reg-name")).toContain(`value="${fields.name}"`);
    expect(r.text).toMatch(/<option value="female" selected="">/);
    expect(r.text).toMatch(/<option value="31" selected="">/);
    expect(r.text).toMatch(/<option value="DE" selected="">/);
    expect(r.text).not.toContain("correct horse");
  });

  test("a ticked box stays ticked when another field is wrong", async () => {
    const r = await form(t, "/auth/register", registration({ confirmPassword: "another horse" }));
    expect(r.status).toBe(400);
    expect(tagOf(r.text, "reg-adult")).toContain('checked=""');
    expect(errorText(r.text, "reg-adult-error")).toBe("");
    expect(r.text).toContain("Passwords do not match");
  });

  test("with the box ticked signs in and records when the user confirmed being an adult", async () => {
    const before = Date.now();
    const r = await form(t, "/auth/register", registration());
    expect(r.status).toBe(303);
    const home = await t.call("GET", "/", { headers: { cookie: cookiesOf(r.headers) } });
    const confirmed = Date.parse(chatUser(home.text).adult_confirmed_at);
    expect(confirmed).toBeGreaterThanOrEqual(before - 1000);
    expect(confirmed).toBeLessThanOrEqual(Date.now());
  });
});

describe("entering as a guest without JavaScript", () => {
  test("without the box ticked answers the form with the error under the box and the gender kept", async () => {
    const r = await form(t, "/auth/guest", { gender: "female" });
    expect(r.status).toBe(400);
    expect(setCookie(r.headers, "sid")).toBeUndefined();
    expect(r.text).toMatch(/id="tab-guest"[^>]*checked=""/);
    expect(errorText(r.text, "guest-adult-error")).toBe(ADULT_ERROR);
    expect(tagOf(r.text, "guest-adult")).toContain('aria-invalid="true"');
    const picked = [...r.text.matchAll(/<input [^>]*name="gender"[^>]*>/g)].filter((m) => m[0].includes('checked=""'));
    expect(picked.map((m) => /value="(\w+)"/.exec(m[0])?.[1])).toEqual(["female"]);
  });

  test("an adult value other than a tick is refused like an unticked box", async () => {
    const r = await form(t, "/auth/guest", { gender: "male", adult: "no" });
    expect(r.status).toBe(400);
    expect(errorText(r.text, "guest-adult-error")).toBe(ADULT_ERROR);
  });

  test("with the box ticked but no gender the box stays ticked and only the gender is asked for", async () => {
    const r = await form(t, "/auth/guest", { adult: "on" });
    expect(r.status).toBe(400);
    expect(r.text).toContain("Choose male or female");
    expect(tagOf(r.text, "guest-adult")).toContain('checked=""');
    expect(errorText(r.text, "guest-adult-error")).toBe("");
  });

  test("with the box ticked signs in and records when the guest confirmed being an adult", async () => {
    const r = await form(t, "/auth/guest", guestEntry("male"));
    expect(r.status).toBe(303);
    const home = await t.call("GET", "/", { headers: { cookie: cookiesOf(r.headers) } });
    expect(chatUser(home.text).adult_confirmed_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
  });
});
