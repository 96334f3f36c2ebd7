// Names over HTTP (issue 18): registration by JSON and by the no-JavaScript form, profile
// changes, look-alike usernames, signing in by the exact name, and accounts made before skeletons.
import { afterAll, describe, expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openStorage } from "../../src/db.ts";
import { nameMessages } from "../../src/users/names/rules.ts";
import { form, registration } from "../pages/helpers.ts";
import { loginAs, makeTestApp, registerUser } from "../support/app.ts";

const t = makeTestApp({ SIGNUP_RATE_LIMIT: "10000" });
afterAll(() => t.close());

let counter = 0;
function account(overrides: Record<string, unknown> = {}) {
  counter += 1;
  return {
    username: `names_${counter}`,
    email: `names_${counter}_${process.pid}@example.com`,
    password: "correct horse",
    name: `Person ${counter}`,
    gender: "female",
    age: 30,
    country_code: "DE",
    adult: true,
    ...overrides,
  };
}
const register = (overrides: Record<string, unknown>) => t.call("POST", "/api/auth/register", { json: account(overrides) });

describe("registering by JSON", () => {
  test.each(["Stranger", "Moderator", "admin", "System", "Support_Team", "admin_1", "Guest_abc123", "Adm1n"])(
    "refuses the username %s with 400 validation and a readable fields.username",
    async (username) => {
      const r = await register({ username });
      expect(r.status).toBe(400);
      expect(r.body.code).toBe("validation");
      expect(r.body.fields.username).toStartWith("Usernames cannot contain “");
    },
  );

  test("refuses a username that only looks like a taken one (Iris_x, then lris_x) as a taken one, with the same words", async () => {
    expect((await register({ username: "Iris_x" })).status).toBe(201);
    const lookalike = await register({ username: "lris_x" });
    const sameName = await register({ username: "iris_X" });
    expect(lookalike.status).toBe(409);
    expect(lookalike.body.code).toBe("username_taken");
    // A look-alike reveals nothing more than a plain duplicate does.
    expect(lookalike.body).toEqual(sameName.body);
    expect(lookalike.body.fields.username).toBe("This username is already taken");
  });

  test("refuses OO_x once O0_x is taken", async () => {
    expect((await register({ username: "O0_x" })).status).toBe(201);
    const r = await register({ username: "OO_x" });
    expect(r.status).toBe(409);
    expect(r.body.code).toBe("username_taken");
  });

  test("stores a full-width username as the letters it stands for", async () => {
    const r = await register({ username: "ｆｕｌｌ＿ｗｉｄｔｈ" });
    expect(r.status).toBe(201);
    expect(r.body.user.username).toBe("full_width");
  });

  test.each([
    ["the roulette label", "Stranger", "Names cannot use the word “stranger”. Please choose another one"],
    ["a staff word", "Moderator (Staff)", "Names cannot use the word “moderator”. Please choose another one"],
    ["a right-to-left override", "Ann\u202Eeil", nameMessages.nameHidden],
    ["only zero-width characters", "\u200B\u200C\u200D", nameMessages.nameHidden],
    ["NUL", "\u0000", nameMessages.nameHidden],
    ["45 combining marks", "a" + "\u0301".repeat(45), nameMessages.nameMarks],
  ])("refuses a display name with %s with 400 validation and a readable fields.name", async (_what, name, message) => {
    const r = await register({ name });
    expect(r.status).toBe(400);
    expect(r.body.code).toBe("validation");
    expect(r.body.fields.name).toBe(message);
  });

  test.each(["José", "Дмитрий", "李小龙", "محمد", "🦊 Fox", "علی‌رضا"])("accepts the display name %s", async (name) => {
    const r = await register({ name });
    expect(r.status).toBe(201);
    expect(r.body.user.name).toBe(name);
  });

  test("stores the display name in NFKC with plain single spaces", async () => {
    const r = await register({ name: " ℌ𝔢𝔩𝔩𝔬\u3000\u00A0World " });
    expect(r.status).toBe(201);
    expect(r.body.user.name).toBe("Hello World");
  });
});

describe("signing in", () => {
  test("works with the exact username in any case, and not with a look-alike", async () => {
    expect((await register({ username: "Ilse_k" })).status).toBe(201);
    expect((await loginAs(t, "Ilse_k")).status).toBe(200);
    expect((await loginAs(t, "ILSE_K")).status).toBe(200);
    expect((await loginAs(t, "ｉｌｓｅ＿ｋ")).status).toBe(200);
    expect((await loginAs(t, "llse_k")).status).toBe(401);
  });
});

describe("guests", () => {
  test("still get a generated Guest_ name with its skeleton", async () => {
    const r = await t.call("POST", "/api/guest/create", { json: { gender: "male", adult: true } });
    expect(r.status).toBe(201);
    const username = r.body.data.user.username as string;
    expect(username).toMatch(/^Guest_[a-z0-9]{6}$/);
    const [row] = await t.sql<{ s: string | null }>("SELECT username_skeleton AS s FROM users WHERE username = ?", username);
    expect(row?.s).toBeTruthy();
  });
});

describe("changing the display name", () => {
  test.each([
    ["Stranger", "Names cannot use the word “stranger”. Please choose another one"],
    ["Moderator (Staff)", "Names cannot use the word “moderator”. Please choose another one"],
    ["Ann\u202Eeil", nameMessages.nameHidden],
    ["\u200B\u200B", nameMessages.nameHidden],
    ["\u0000", nameMessages.nameHidden],
    ["x" + "\u0301".repeat(45), nameMessages.nameMarks],
    ["...", nameMessages.nameInvisible],
  ])("PUT /api/users/profile refuses %j with fields.name", async (name, message) => {
    const me = await registerUser(t);
    const r = await t.call("PUT", "/api/users/profile", { token: me.token, json: { name } });
    expect(r.status).toBe(400);
    expect(r.body.code).toBe("validation");
    expect(r.body.fields.name).toBe(message);
    expect((await t.call("GET", "/api/auth/me", { token: me.token })).body.user.name).toBe(me.user.name);
  });

  test("lets a guest save the Guest_ name it was given", async () => {
    const guest = await t.call("POST", "/api/guest/create", { json: { gender: "female", adult: true } });
    const { token, user } = guest.body.data;
    const r = await t.call("PUT", "/api/users/profile", { token, json: { name: user.name, age: null } });
    expect(r.status).toBe(200);
    expect(r.body.user.name).toBe(user.name);
  });

  test("answers 400, not 500, for a name far past the length that still fits the route's body limit", async () => {
    const me = await registerUser(t);
    const r = await t.call("PUT", "/api/users/profile", { token: me.token, json: { name: "\u0301".repeat(3_000) } });
    expect(r.status).toBe(400);
    expect(r.body.fields.name).toBe(nameMessages.nameLength);
  });

  test("answers 413, not 500, for a name of 100,000 characters (past the route's body limit)", async () => {
    const me = await registerUser(t);
    const r = await t.call("PUT", "/api/users/profile", { token: me.token, json: { name: "\u0301".repeat(100_000) } });
    expect(r.status).toBe(413);
    expect(r.body.code).toBe("too_large");
  });

  test("accepts names in any script and emoji", async () => {
    const me = await registerUser(t);
    for (const name of ["José", "Дмитрий", "李小龙", "محمد", "👩‍💻"]) {
      const r = await t.call("PUT", "/api/users/profile", { token: me.token, json: { name } });
      expect(r.status).toBe(200);
      expect(r.body.user.name).toBe(name);
    }
  });
});

describe("the register form without JavaScript", () => {
  test("shows the username's error for a reserved word", async () => {
    const r = await form(t, "/auth/register", registration({ username: "Support_Team" }));
    expect(r.status).toBe(400);
    expect(r.text).toContain("Usernames cannot contain “support”. Please choose another one");
  });

  test("shows the name's error for a staff word, next to other fields' errors", async () => {
    const r = await form(t, "/auth/register", registration({ name: "Moderator (Staff)", email: "nope" }));
    expect(r.status).toBe(400);
    expect(r.text).toContain("Names cannot use the word “moderator”. Please choose another one");
    expect(r.text).toContain("Enter a valid e-mail address");
  });

  test("answers 409 for a look-alike of a taken username", async () => {
    expect((await form(t, "/auth/register", registration({ username: "Olga_0" }))).status).toBe(303);
    const r = await form(t, "/auth/register", registration({ username: "0lga_O" }));
    expect(r.status).toBe(409);
    expect(r.text).toContain("This username is already taken");
  });
});

describe("accounts made before skeletons", () => {
  test("get theirs at start-up; two old look-alikes leave the newer without one, and start-up goes on", async () => {
    const dir = mkdtempSync(join(tmpdir(), "webchat-names-"));
    try {
      const first = openStorage(dir);
      const insert = first.sqlite.query("INSERT INTO users (username, username_key, name, gender, last_seen, created_at) VALUES (?1, lower(?1), ?1, 'female', 0, 0)");
      for (const name of ["Iris_old", "lris_old", "dana_old"]) insert.run(name);
      first.sqlite.close();

      const reopened = openStorage(dir);
      expect(reopened.skeletons).toEqual({ filled: 2, clashes: 1 });
      const rows = reopened.sqlite.query<{ username: string; s: string | null }, []>("SELECT username, username_skeleton AS s FROM users ORDER BY id").all();
      expect(rows.map((r) => [r.username, r.s !== null])).toEqual([["Iris_old", true], ["lris_old", false], ["dana_old", true]]);
      reopened.sqlite.close();

      // The index is real: a second row with a held skeleton cannot be written.
      const raw = new Database(join(dir, "chat.sqlite"));
      expect(() => raw.query("UPDATE users SET username_skeleton = (SELECT username_skeleton FROM users WHERE username = 'Iris_old') WHERE username = 'dana_old'").run()).toThrow(/UNIQUE/);
      raw.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
