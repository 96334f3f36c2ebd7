// Nothing a moderator's browser (or anyone holding a moderator's cookie) sends makes the console
// fail: hostile ids, queries and bodies on every route answer below 500, with no internals.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { makeTestApp } from "../support/app.ts";
import { csrfOf, ORIGIN, person, fileReport, type Person } from "../support/moderation.ts";

const t = makeTestApp({ SIGNUP_RATE_LIMIT: "1000" });
afterAll(() => t.close());

let mod: Person;
let csrf: string;
let someone: Person;
beforeAll(async () => {
  mod = await person(t, "admin");
  csrf = await csrfOf(t, mod);
  someone = await person(t);
  await fileReport(t, mod.id, someone.id);
});

const gets = ["/mod", "/mod/reports", "/mod/reports/{id}", "/mod/reports/{id}/still", "/mod/users", "/mod/users/{id}", "/mod/appeals", "/mod/audit", "/appeal/{id}"];
const posts = [
  "/mod/users/{id}/warn",
  "/mod/users/{id}/ban",
  "/mod/users/{id}/unban",
  "/mod/users/{id}/remove-avatar",
  "/mod/users/{id}/suspend",
  "/mod/users/{id}/lift-suspension",
  "/mod/users/{id}/end-sessions",
  "/mod/users/{id}/role",
  "/mod/messages/{id}/remove",
  "/mod/reports/dismiss",
  "/mod/reports/{id}/delete",
  "/mod/appeals/{id}/decide",
  "/appeal/{id}",
];
const ids = ["1", "0", "-1", "abc", "1e3", "99999999999999999999", "%00", "..%2F..%2Fsecret.key", "%E0%A4%A"];
const queries = ["", "?page=-1&reason[]=x&status=%00", "?q=%25%5F%5C&action=%27%3B--&actor=1e999&target=abc", "?page=99999999999999999999"];
const fields = (): [string, string][][] => [
  [],
  [["csrf", csrf]],
  [
    ["csrf", csrf],
    ["report", "abc"],
    ["report", "-5"],
    ["report", "1"],
    ["report", "99999999999999999999"],
    ["ban_days", "1e9"],
    ["ban_reason", "\u0000\uffff"],
    ["suspend_hours", "99999999"],
    ["suspend_reason", "x".repeat(2000)],
    ["role", "root"],
    ["decision", "maybe"],
    ["response", ""],
    ["back", "javascript:alert(1)"],
    ["text", "%ZZ"],
  ],
];

describe("hostile input to the console", () => {
  test("every route answers below 500 without internals", async () => {
    const failures: string[] = [];
    const check = (label: string, status: number, text: string) => {
      if (status >= 500) failures.push(`${label} -> ${status} ${text.slice(0, 120)}`);
      if (text.includes("    at ") || /password_hash|\$argon2/.test(text)) failures.push(`${label} leaks internals`);
    };
    for (const path of gets) {
      for (const id of ids) {
        for (const query of queries) {
          const url = path.replace("{id}", id) + query;
          const r = await t.call("GET", url, { headers: { cookie: mod.cookie } });
          check(`GET ${url}`, r.status, r.text);
        }
      }
    }
    for (const path of posts) {
      for (const id of ids) {
        for (const body of fields()) {
          const url = path.replace("{id}", id);
          const r = await t.call("POST", url, {
            body: new URLSearchParams(body),
            headers: { cookie: mod.cookie, origin: ORIGIN, "content-type": "application/x-www-form-urlencoded" },
          });
          check(`POST ${url} ${body.length}`, r.status, r.text);
        }
        const raw = await t.call("POST", path.replace("{id}", id), { body: "%%%&&==", headers: { cookie: mod.cookie, "content-type": "application/x-www-form-urlencoded" } });
        check(`POST ${path} raw`, raw.status, raw.text);
      }
    }
    expect(failures).toEqual([]);
  }, 60_000);
});
