import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { makeTestApp, registerUser, type TestApp } from "../support/app.ts";

let t: TestApp;
let me: Awaited<ReturnType<typeof registerUser>>;
beforeAll(async () => {
  t = makeTestApp();
  me = await registerUser(t, { name: "Me Myself" });
});
afterAll(() => t.close());

const setPresence = (id: number, online: boolean, lastSeen: number, app: TestApp = t) =>
  app.sql("UPDATE users SET is_online = ?, last_seen = ? WHERE id = ?", online, lastSeen, id);

describe("the people list", () => {
  test("lists everyone but the caller, online first (most recently seen first), then by last_seen", async () => {
    // Its own app: people the other tests make would sort among these four.
    const t = makeTestApp();
    try {
      const me = await registerUser(t, { name: "Me Myself" });
      const a = await registerUser(t, { name: "Alpha" });
      const b = await registerUser(t, { name: "Bravo" });
      const c = await registerUser(t, { name: "Charlie" });
      const d = await registerUser(t, { name: "Delta" });
      const now = Date.now();
      await setPresence(a.user.id, false, now - 1000, t);
      await setPresence(b.user.id, true, now - 5000, t);
      await setPresence(c.user.id, true, now - 100, t);
      await setPresence(d.user.id, false, now - 100, t);
      const r = await t.call("GET", "/api/users", { token: me.token });
      expect(r.status).toBe(200);
      const ids = r.body.users.map((u: { id: number }) => u.id);
      expect(ids).not.toContain(me.user.id);
      expect(ids.slice(0, 4)).toEqual([c.user.id, b.user.id, d.user.id, a.user.id]);
      expect(r.body.total).toBe(r.body.users.length);
      expect(r.body.online).toBe(2);
      const user = r.body.users[0];
      expect(Object.keys(user).sort()).toEqual(
        ["id", "username", "name", "gender", "orientation", "age", "country_code", "country_name", "avatar_url", "is_online", "last_seen", "created_at", "is_guest", "profile", "interests", "languages"].sort(),
      );
      expect(user.email).toBeUndefined();
    } finally {
      await t.close();
    }
  });

  test("filters by name, gender, orientation, country, age bounds and online", async () => {
    const x = await registerUser(t, { name: "Zed Filterable", gender: "male", age: 40, country_code: "JP", orientation: "bisexual" });
    await registerUser(t, { name: "No Age Person", gender: "male", country_code: "JP" });
    await t.sql("UPDATE users SET age = NULL WHERE name = 'No Age Person'");
    await setPresence(x.user.id, true, Date.now());
    const get = async (query: string) => (await t.call("GET", `/api/users?${query}`, { token: me.token })).body.users.map((u: { name: string }) => u.name);
    expect(await get("q=filterABLE")).toEqual(["Zed Filterable"]);
    expect(await get("q=zed&gender=female")).toEqual([]);
    expect(await get("orientation=bisexual")).toEqual(["Zed Filterable"]);
    expect((await get("country=JP")).sort()).toEqual(["No Age Person", "Zed Filterable"]);
    expect((await get("country=Japan")).sort()).toEqual(["No Age Person", "Zed Filterable"]);
    expect(await get("country=JP&minAge=18")).toEqual(["Zed Filterable"]);
    expect(await get("country=JP&maxAge=39")).toEqual([]);
    expect(await get("country=JP&online=1")).toEqual(["Zed Filterable"]);
    expect(await get("q=%25")).toEqual([]);
    const fractional = await t.call("GET", "/api/users?minAge=30.5", { token: me.token });
    expect(fractional.status).toBe(400);
    expect(fractional.body.fields.minAge).toBeString();
  });

  test("caps the list with limit (at most 500) and refuses a limit that is not a positive whole number", async () => {
    // At least two people besides the caller, whichever tests ran before.
    await registerUser(t);
    await registerUser(t);
    const one = await t.call("GET", "/api/users?limit=1", { token: me.token });
    expect(one.body.users).toHaveLength(1);
    expect(one.body.total).toBeGreaterThan(1);
    const capped = await t.call("GET", "/api/users?limit=100000", { token: me.token });
    expect(capped.status).toBe(200);
    expect(capped.body.users.length).toBe(Math.min(capped.body.total, 500));
    for (const bad of ["0", "abc", "-3", "2.5"]) {
      const r = await t.call("GET", `/api/users?limit=${bad}`, { token: me.token });
      expect(r.status).toBe(400);
      expect(r.body.code).toBe("validation");
    }
  });

  test("needs a signed-in caller", async () => {
    expect((await t.call("GET", "/api/users")).status).toBe(401);
  });
});

describe("one person", () => {
  test("answers a known user without e-mail, 404 for an unknown one, 400 for a non-number", async () => {
    const other = await registerUser(t);
    const r = await t.call("GET", `/api/users/${other.user.id}`, { token: me.token });
    expect(r.status).toBe(200);
    expect(r.body.user.id).toBe(other.user.id);
    expect(r.body.user.email).toBeUndefined();
    expect((await t.call("GET", "/api/users/999999", { token: me.token })).status).toBe(404);
    expect((await t.call("GET", "/api/users/abc", { token: me.token })).status).toBe(400);
    expect((await t.call("GET", "/api/users/..%2F..%2Fetc", { token: me.token })).status).toBeOneOf([400, 404]);
  });
});

describe("profile", () => {
  test("updates name, gender, age, country and orientation; the server names the country", async () => {
    const r = await t.call("PUT", "/api/users/profile", {
      token: me.token,
      json: { name: "  New Name ", gender: "non_binary", age: 44, country_code: "br", country_name: "Wrong", orientation: "pansexual" },
    });
    expect(r.status).toBe(200);
    expect(r.body.user).toMatchObject({ name: "New Name", gender: "non_binary", age: 44, country_code: "BR", country_name: "Brazil", orientation: "pansexual" });
    expect(r.body.user.email).toBeString();
  });

  test("clears the country with null and keeps fields that are not sent", async () => {
    // Its own person, so that what it keeps does not depend on the other tests' changes.
    const own = await registerUser(t, { name: "Own", age: 44, country_code: "BR", orientation: "pansexual" });
    const r = await t.call("PUT", "/api/users/profile", { token: own.token, json: { name: "Kept", country_code: null } });
    expect(r.body.user).toMatchObject({ name: "Kept", age: 44, country_code: null, country_name: null, orientation: "pansexual" });
  });

  test("refuses to clear a registered user's age, but lets a guest leave it empty", async () => {
    const own = await registerUser(t, { age: 44 });
    const refused = await t.call("PUT", "/api/users/profile", { token: own.token, json: { name: "Kept", age: null } });
    expect(refused.status).toBe(400);
    expect(refused.body.fields.age).toBe("Age must be a whole number from 18 to 99");
    expect((await t.call("GET", "/api/auth/me", { token: own.token })).body.user.age).toBe(44);
    const guest = await t.call("POST", "/api/guest/create", { json: { gender: "male", adult: true } });
    const token = guest.body.data.token as string;
    const cleared = await t.call("PUT", "/api/users/profile", { token, json: { name: "Guesty", age: null } });
    expect(cleared.status).toBe(200);
    expect(cleared.body.user.age).toBeNull();
  });

  test("changes a registered user's age within 18 to 99 and refuses 100", async () => {
    expect((await t.call("PUT", "/api/users/profile", { token: me.token, json: { name: "Kept", age: 18 } })).body.user.age).toBe(18);
    expect((await t.call("PUT", "/api/users/profile", { token: me.token, json: { name: "Kept", age: 99 } })).body.user.age).toBe(99);
    const tooOld = await t.call("PUT", "/api/users/profile", { token: me.token, json: { name: "Kept", age: 100 } });
    expect(tooOld.status).toBe(400);
    expect(tooOld.body.fields.age).toBeString();
  });

  test.each([
    [{ name: "" }, "name"],
    [{ name: "   " }, "name"],
    [{ name: "x".repeat(51) }, "name"],
    [{ name: "Ok", age: 17 }, "age"],
    [{ name: "Ok", gender: "robot" }, "gender"],
    [{ name: "Ok", country_code: "QQ" }, "country_code"],
    [{}, "name"],
  ])("refuses %j with 400 on %s", async (body, field) => {
    const r = await t.call("PUT", "/api/users/profile", { token: me.token, json: body });
    expect(r.status).toBe(400);
    expect(r.body.fields[field]).toBeString();
  });

  test("answers the avatar url (null without one)", async () => {
    const r = await t.call("GET", "/api/users/avatar/info", { token: me.token });
    expect(r.body).toEqual({ avatar_url: null });
  });
});
