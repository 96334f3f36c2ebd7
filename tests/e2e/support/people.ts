// The people a test makes for itself, in a suite where every test stands alone: each gets a fresh
// username and a display name numbered within the file, two digits wide, so that a search for
// "Bob 03" never finds "Bob 30" and a list holding everybody the file made still tells this
// test's Bob apart.
//
//   const bob = await person(suite, "bob", "Bob", { gender: "male" });   // { username: "bob4", name: "Bob 04" }
//   const page = await suite.open(bob.username);
//   await startChat(alice, bob.name);
import { PASSWORD, type Account } from "./accounts.ts";
import type { RunningServer } from "./server.ts";
import type { BrowserSuite } from "./suite.ts";

export interface Person {
  username: string;
  name: string;
}

/** Registers a new account for this test (see BrowserSuite.account); `name` gets the account's number. */
export async function person(suite: BrowserSuite, base: string, name: string, profile: Record<string, unknown> = {}): Promise<Person> {
  const numbered = `${name} ${String(suite.accountsMade + 1).padStart(2, "0")}`;
  return { username: await suite.account(base, numbered, profile), name: numbered };
}

/** A session of `username` from the API (no browser, no socket): its token and the user's id. */
export async function signIn(server: Pick<RunningServer, "url">, username: string): Promise<Account> {
  const response = await fetch(`${server.url}/api/auth/login`, {
    method: "POST",
    headers: { "content-type": "application/json", origin: server.url },
    body: JSON.stringify({ username, password: PASSWORD }),
  });
  if (response.status !== 200) throw new Error(`login ${username}: ${response.status} ${await response.text()}`);
  return (await response.json()) as Account;
}
