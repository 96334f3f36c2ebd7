// One browser suite's life: a real server and Chromium started before the file's tests, and every
// context the tests open closed after them (also when a test failed half-way), then Chromium and
// the server. Each file states its accounts in `setup` and its defaults for `open`.
//
//   const suite = browserSuite({ setup: (server) => registerAccount(server, "alice", "Alice"), open: { camera: true } });
//   const alice = await suite.open("alice");                 // signed in, on the chat screen
//   const guest = await suite.newContext(MOBILE);            // nobody signed in, baseURL set
//
// A test that must not depend on the ones before it makes its own people with `suite.account`
// (a fresh username each call) and runs in a suite with `isolated: true`: every context is closed
// after each test and the next test starts once the server holds no socket of them.
import { afterAll, afterEach, beforeAll, expect } from "bun:test";
import type { Browser, BrowserContext, BrowserContextOptions, Page } from "playwright-core";
import { openSignedIn, PASSWORD, registerAccount, type OpenOptions } from "./accounts.ts";
import { DESKTOP, launchBrowser } from "./browser.ts";
import { serverIdle, startServerForBrowsers, type RunningServer } from "./server.ts";

export interface SuiteOptions {
  /**
   * Extra server environment (limits, grace periods), or a function that gives it when the server
   * starts; an async one is awaited first (a database made for the file, say: DATABASE_URL).
   */
  env?: Record<string, string> | (() => Record<string, string> | Promise<Record<string, string>>);
  /** Accounts and roles, once the server is up. */
  setup?: (server: RunningServer) => Promise<unknown>;
  /** How long starting and `setup` may take together. */
  setupTimeout?: number;
  /** Defaults for every `open` of the suite; each call may override them. */
  open?: OpenOptions;
  /** Closes every context after each test, so that each test starts from signed-out browsers. */
  closeAfterEach?: boolean;
  /**
   * closeAfterEach, and then waits until the server has closed every /ws socket and nobody waits
   * in Video Roulette: the next test meets nobody of the one before (in a pairing, say).
   */
  isolated?: boolean;
  /**
   * How long `isolated` waits for the server to hold no socket (20 s unless given). A page
   * closed while long-polling ends its session itself on pagehide; a browser that dies without
   * one leaves it to the server's idle sweep (45 s after its last poll).
   */
  idleWithinMs?: number;
}

export interface BrowserSuite {
  readonly server: RunningServer;
  readonly browser: Browser;
  /** A new context signed in as `username`, on the chat screen (see openSignedIn). */
  open(username: string, options?: OpenOptions): Promise<Page>;
  /**
   * Registers a new account for this test: `base` plus a number unused in this suite as the
   * username (returned), `name` as shown, `profile` as in registerAccount.
   */
  account(base: string, name: string, profile?: Record<string, unknown>): Promise<string>;
  /** How many accounts `account` has made so far in this suite. */
  readonly accountsMade: number;
  /** A new context nobody is signed in to, with the server as its baseURL. */
  newContext(options?: BrowserContextOptions): Promise<BrowserContext>;
  /**
   * A first visit to "/" with no cookie choice made yet: signed in as `username` (the login call
   * sets the session cookie) or, without one, the landing page. Page errors are logged.
   */
  firstVisit(options: BrowserContextOptions, username?: string): Promise<Page>;
}

export function browserSuite(options: SuiteOptions = {}): BrowserSuite {
  let server: RunningServer | undefined;
  let browser: Browser | undefined;
  const contexts: BrowserContext[] = [];
  let accounts = 0;
  const started = <T>(value: T | undefined, what: string): T => {
    if (!value) throw new Error(`${what} is not started (used outside a test?)`);
    return value;
  };

  beforeAll(async () => {
    server = await startServerForBrowsers(await (typeof options.env === "function" ? options.env() : options.env));
    browser = await launchBrowser();
    await options.setup?.(server);
  }, options.setupTimeout ?? 120_000);

  const closeContexts = async () => {
    for (const context of contexts.splice(0)) await context.close().catch(() => {});
  };
  if (options.closeAfterEach || options.isolated) afterEach(closeContexts);
  const idleWithinMs = options.idleWithinMs ?? 20_000;
  if (options.isolated) afterEach(() => serverIdle(started(server, "the server"), idleWithinMs), idleWithinMs + 10_000);

  afterAll(async () => {
    await closeContexts();
    await browser?.close();
    await server?.stop();
  });

  return {
    get server() {
      return started(server, "the server");
    },
    get browser() {
      return started(browser, "the browser");
    },
    async open(username, overrides = {}) {
      const page = await openSignedIn(started(browser, "the browser"), started(server, "the server"), username, { ...options.open, ...overrides });
      contexts.push(page.context());
      return page;
    },
    get accountsMade() {
      return accounts;
    },
    async account(base, name, profile = {}) {
      const username = `${base}${++accounts}`;
      await registerAccount(started(server, "the server"), username, name, profile);
      return username;
    },
    async newContext(contextOptions = DESKTOP) {
      const context = await started(browser, "the browser").newContext({ baseURL: started(server, "the server").url, ...contextOptions });
      contexts.push(context);
      return context;
    },
    async firstVisit(contextOptions, username) {
      const page = await (await this.newContext(contextOptions)).newPage();
      page.on("pageerror", (error) => console.error(`[${username ?? "visitor"}] page error:`, error.message));
      if (username) {
        const url = started(server, "the server").url;
        const login = await page.request.post("/api/auth/login", { data: { username, password: PASSWORD }, headers: { origin: url } });
        expect(login.status()).toBe(200);
      }
      await page.goto("/");
      return page;
    },
  };
}
