// Accounts for browser tests, made through the real API (the landing page's own forms are tested
// in landing.e2e.ts): every suite registers its people the same way.
import type { RunningServer } from "./server.ts";

export const PASSWORD = "correct-horse-battery";

export interface Account {
  token: string;
  user: { id: number; name: string; username: string };
}

/**
 * Registers `username` as a confirmed adult. Profile fields default to a 30-year-old woman in
 * Germany; `profile` overrides any of them (gender, age, country_code, country_name, ...).
 */
export async function registerAccount(
  server: Pick<RunningServer, "url">,
  username: string,
  name: string,
  profile: Record<string, unknown> = {},
): Promise<Account> {
  const response = await fetch(`${server.url}/api/auth/register`, {
    method: "POST",
    headers: { "content-type": "application/json", origin: server.url },
    body: JSON.stringify({
      username,
      email: `${username}@example.com`,
      password: PASSWORD,
      name,
      gender: "female",
      age: 30,
      country_code: "DE",
      country_name: "Germany",
      adult: true,
      ...profile,
    }),
  });
  if (response.status !== 201) throw new Error(`register ${username}: ${response.status} ${await response.text()}`);
  return (await response.json()) as Account;
}
