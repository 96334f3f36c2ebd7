// Form posts and cookies for the page tests, on top of tests/support/app.ts.
import type { TestApp } from "../support/app.ts";

export const form = (t: TestApp, path: string, fields: Record<string, string>, headers: Record<string, string> = {}) =>
  t.call("POST", path, { body: new URLSearchParams(fields), headers: { "content-type": "application/x-www-form-urlencoded", ...headers } });

/** "name=value" pairs of a response's Set-Cookie headers, ready to send back. */
export const cookiesOf = (headers: Headers): string => headers.getSetCookie().map((c) => c.split(";")[0]).join("; ");

export const setCookie = (headers: Headers, name: string): string | undefined => headers.getSetCookie().find((c) => c.startsWith(`${name}=`));

let counter = 0;

export type Registration = Record<string, string> & { username: string; password: string };

export function registration(overrides: Record<string, string> = {}): Registration {
  counter += 1;
  const username = `form_${process.pid % 1000}_${counter}`;
  const fields: Record<string, string> = {
    username,
    email: `${username}@example.com`,
    password: "correct horse",
    confirmPassword: "correct horse",
    name: `Form User ${counter}`,
    gender: "female",
    age: "31",
    country_code: "FR",
    adult: "on",
    ...overrides,
  };
  return { ...fields, username: fields.username ?? username, password: fields.password ?? "" };
}

/** A guest entry as the ticked form sends it. */
export const guestEntry = (gender: string): Record<string, string> => ({ gender, adult: "on" });
