import { afterAll, describe, expect, test } from "bun:test";
import { makeTestApp } from "../support/app.ts";
import { cookiesOf, form, guestEntry, registration, setCookie } from "./helpers.ts";

const t = makeTestApp();
afterAll(() => t.close());

const chatProps = (html: string) => JSON.parse(/id="island-ChatApp-props">(.*?)<\/script>/.exec(html)?.[1] ?? "null");

describe("the register form without JavaScript", () => {
  test("creates the account, sets the session and the flash cookie, and sends the browser to /", async () => {
    const fields = registration();
    const r = await form(t, "/auth/register", fields);
    expect(r.status).toBe(303);
    expect(r.headers.get("location")).toBe("/");
    expect(setCookie(r.headers, "sid")).toContain("HttpOnly");
    expect(setCookie(r.headers, "flash")).toStartWith("flash=register;");
    const home = await t.call("GET", "/", { headers: { cookie: cookiesOf(r.headers) } });
    const props = chatProps(home.text);
    expect(props.user.username).toBe(fields.username);
    expect(props.user.country_name).toBe("France");
    expect(props.flash).toBe("Account created successfully!");
  });

  test("shows the form again with what was typed, never the password, and each field's error", async () => {
    const fields = registration({ email: "not-an-email", confirmPassword: "something else", age: "" });
    const r = await form(t, "/auth/register", fields);
    expect(r.status).toBe(400);
    expect(r.headers.get("cache-control")).toBe("no-store");
    expect(r.text).toMatch(/id="tab-register"[^>]*checked=""/);
    expect(r.text).toContain(`value="${fields.username}"`);
    expect(r.text).toContain('value="not-an-email"');
    expect(r.text).not.toContain("correct horse");
    expect(r.text).toContain("Enter a valid e-mail address");
    expect(r.text).toContain("Passwords do not match");
    expect(r.text).toContain("Age must be a whole number from 18 to 99");
    expect(r.text).toContain("Please check the highlighted fields");
    expect(setCookie(r.headers, "sid")).toBeUndefined();
  });

  test("answers 409 with the field error when the username is taken", async () => {
    const first = registration();
    await form(t, "/auth/register", first);
    const r = await form(t, "/auth/register", registration({ username: first.username.toUpperCase() }));
    expect(r.status).toBe(409);
    expect(r.text).toContain("This username is already taken");
  });

  test("refuses a post from another site", async () => {
    const r = await form(t, "/auth/register", registration(), { origin: "https://evil.example" });
    expect(r.status).toBe(403);
    expect(r.text).toContain("sent from another site");
    expect(setCookie(r.headers, "sid")).toBeUndefined();
  });
});

describe("the login form without JavaScript", () => {
  test("signs in and says so once on the chat screen", async () => {
    const fields = registration();
    await form(t, "/auth/register", fields);
    const r = await form(t, "/auth/login", { username: fields.username, password: fields.password }, { origin: "http://localhost" });
    expect(r.status).toBe(303);
    expect(setCookie(r.headers, "flash")).toStartWith("flash=login;");
    const home = await t.call("GET", "/", { headers: { cookie: cookiesOf(r.headers) } });
    expect(chatProps(home.text).flash).toBe("Successfully logged in!");
  });

  test("answers 401 with the username kept and the password dropped", async () => {
    const r = await form(t, "/auth/login", { username: "nobody_here", password: "wrong password" });
    expect(r.status).toBe(401);
    expect(r.text).toContain("Invalid username or password");
    expect(r.text).toContain('value="nobody_here"');
    expect(r.text).not.toContain("wrong password");
    expect(r.text).toMatch(/id="tab-login"[^>]*checked=""/);
  });

  test("asks for both fields", async () => {
    const r = await form(t, "/auth/login", { username: "", password: "" });
    expect(r.status).toBe(400);
    expect(r.text).toContain("Enter your password");
  });
});

describe("the guest form without JavaScript", () => {
  test("creates a guest and welcomes them by the generated name", async () => {
    const r = await form(t, "/auth/guest", guestEntry("male"));
    expect(r.status).toBe(303);
    const home = await t.call("GET", "/", { headers: { cookie: cookiesOf(r.headers) } });
    const props = chatProps(home.text);
    expect(props.user.username).toMatch(/^Guest_[a-z0-9]{6}$/);
    expect(props.flash).toBe(`Welcome, ${props.user.username}! You are chatting as a guest.`);
  });

  test("asks for male or female", async () => {
    const r = await form(t, "/auth/guest", {});
    expect(r.status).toBe(400);
    expect(r.text).toContain("Choose male or female");
    expect(r.text).toMatch(/id="tab-guest"[^>]*checked=""/);
  });
});

describe("sign-up limits and logout", () => {
  test("past the sign-up limit the form answers 429 with Retry-After", async () => {
    const limited = makeTestApp({ SIGNUP_RATE_LIMIT: "1" });
    try {
      expect((await form(limited, "/auth/guest", guestEntry("female"))).status).toBe(303);
      const r = await form(limited, "/auth/guest", guestEntry("female"));
      expect(r.status).toBe(429);
      expect(Number(r.headers.get("retry-after"))).toBeGreaterThan(0);
      expect(r.text).toContain("Too many attempts");
    } finally {
      await limited.close();
    }
  });

  test("logging out ends the session and clears the cookie", async () => {
    const signedIn = await form(t, "/auth/guest", guestEntry("female"));
    const cookie = cookiesOf(signedIn.headers);
    const r = await t.call("POST", "/auth/logout", { headers: { cookie } });
    expect(r.status).toBe(303);
    expect(setCookie(r.headers, "sid")).toContain("Max-Age=0");
    const home = await t.call("GET", "/", { headers: { cookie } });
    expect(home.text).toContain('action="/auth/login"');
  });

  test("logout from another site is refused", async () => {
    const signedIn = await form(t, "/auth/guest", guestEntry("female"));
    const r = await t.call("POST", "/auth/logout", { headers: { cookie: cookiesOf(signedIn.headers), origin: "https://evil.example" } });
    expect(r.status).toBe(403);
    const home = await t.call("GET", "/", { headers: { cookie: cookiesOf(signedIn.headers) } });
    expect(home.text).toContain('data-island="ChatApp"');
  });
});
