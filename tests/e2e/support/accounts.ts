// Accounts for browser tests, made through the real API (the landing page's own forms are tested
// in landing.e2e.ts): every suite registers its people and signs them in the same way. The
// register form's entries are here too, for the suites that sign up as a visitor does.
import { expect } from "bun:test";
import type { Browser, BrowserContext, BrowserContextOptions, Page } from "playwright-core";
import { DESKTOP } from "./browser.ts";
import type { RunningServer } from "./server.ts";

export const PASSWORD = "correct-horse-battery";

export interface Account {
  token: string;
  user: { id: number; name: string; username: string };
}

/** A request to the server's API in `token`'s session, from the site's own origin; a text body goes as JSON. */
export function apiAs(server: Pick<RunningServer, "url">, token: string, path: string, init: RequestInit = {}): Promise<Response> {
  const headers = new Headers({ authorization: `Bearer ${token}`, origin: server.url });
  if (typeof init.body === "string") headers.set("content-type", "application/json");
  new Headers(init.headers).forEach((value, name) => headers.set(name, value));
  return fetch(`${server.url}${path}`, { ...init, headers });
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

export interface RegisterFormEntries {
  username: string;
  /** Display name; "Dana" unless given. */
  name?: string;
  /** PASSWORD unless given; `confirm` is the password unless given (a different one: a mismatch). */
  password?: string;
  confirm?: string;
  gender?: "female" | "male";
  age?: number;
}

/**
 * Fills the landing page's register form (its tab open) and ticks the 18+ box. The country is left
 * to the caller: a plain select without JavaScript, the searching picker with it.
 */
export async function fillRegisterForm(page: Page, entries: RegisterFormEntries): Promise<void> {
  const password = entries.password ?? PASSWORD;
  await page.fill("#reg-username", entries.username);
  await page.fill("#reg-name", entries.name ?? "Dana");
  await page.fill("#reg-email", `${entries.username}@example.com`);
  await page.fill("#reg-password", password);
  await page.fill("#reg-confirm", entries.confirm ?? password);
  await page.selectOption("#reg-gender", entries.gender ?? "female");
  await page.selectOption("#reg-age", String(entries.age ?? 29));
  await page.check("#reg-adult");
}

export interface OpenOptions {
  /** Context options: the viewport (DESKTOP unless given), camera permissions, ... */
  context?: BrowserContextOptions;
  /** Runs in every page of the context before the page's own scripts. */
  initScript?: () => void;
  /** Prepares the context before the first page opens (routes, WebSocket routes). */
  prepare?: (context: BrowserContext) => Promise<void>;
  /** Logs and dismisses alerts nobody expected (off: a test may answer its own confirm). */
  dismissDialogs?: boolean;
  /** Logs the page's console errors. */
  logConsoleErrors?: boolean;
  /** How long the chat screen may take to appear; Playwright's default unless given. */
  timeout?: number;
  /** Waits for more of the chat screen before the cookie banner is answered. */
  ready?: (page: Page) => Promise<void>;
  /** Lets the context use the fake camera and microphone. */
  camera?: boolean;
  /** Waits until the sidebar's first list has replaced its skeleton rows. */
  listLoaded?: boolean;
  /** Every wait of the page (locator actions, waitFor...) gets this timeout. */
  defaultTimeout?: number;
}

/** The sidebar's first list has replaced its skeleton rows. */
export const listLoaded = (page: Page) => page.locator(".sidebar-panel .skeleton-row").first().waitFor({ state: "detached" });

/**
 * A new browser context signed in as `username` (the login call sets the session cookie) on the
 * chat screen, with the cookie banner answered. Close it with `page.context().close()`.
 */
export async function openSignedIn(browser: Browser, server: Pick<RunningServer, "url">, username: string, options: OpenOptions = {}): Promise<Page> {
  const size: BrowserContextOptions = options.context ?? DESKTOP;
  const permissions = options.camera ? [...(size.permissions ?? []), "camera", "microphone"] : size.permissions;
  const context = await browser.newContext({ ...size, permissions, baseURL: server.url });
  if (options.initScript) await context.addInitScript(options.initScript);
  await options.prepare?.(context);
  const page = await context.newPage();
  if (options.defaultTimeout) page.setDefaultTimeout(options.defaultTimeout);
  page.on("pageerror", (error) => console.error(`[${username}] page error:`, error.message));
  if (options.logConsoleErrors) {
    page.on("console", (m) => {
      if (m.type() === "error") console.error(`[${username}] console:`, m.text());
    });
  }
  if (options.dismissDialogs) {
    page.on("dialog", (dialog) => {
      console.error(`[${username}] unexpected alert:`, dialog.message());
      void dialog.dismiss();
    });
  }
  // The password check is slow on a loaded machine: the login waits as long as the chat screen may.
  const login = await page.request.post("/api/auth/login", { data: { username, password: PASSWORD }, headers: { origin: server.url }, timeout: options.timeout });
  expect(login.status()).toBe(200);
  await page.goto("/");
  await page.locator(".chat-app .tab-bar").waitFor({ timeout: options.timeout });
  if (options.listLoaded) await listLoaded(page);
  await options.ready?.(page);
  const reject = page.getByRole("button", { name: "Reject non-essential" });
  if (await reject.isVisible()) await reject.click();
  return page;
}
