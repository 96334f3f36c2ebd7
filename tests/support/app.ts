// Builds a real app over a temporary data folder. `call` drives it through app.handle (no port);
// `listen` puts it on a random port for socket tests.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { buildApp, type App } from "../../src/app.ts";
import { loadConfig } from "../../src/config.ts";
import { createContext, loadContext, type AppContext } from "../../src/context.ts";
import { openStorage } from "../../src/db.ts";
import { engine } from "../../src/storage/engine.ts";
import { openPostgres } from "../../src/storage/postgres.ts";
import type { OpenStorage } from "../../src/storage/open.ts";
import type { Db } from "../../src/db.ts";
import { cloneDatabase, dropDatabase } from "./pg-clone.ts";
import type { Ports } from "../../src/cluster/ports.ts";
import { PASSWORD } from "./password.ts";

export interface TestApp {
  ctx: AppContext;
  app: App;
  dataDir: string;
  /** Start-up's reads into memory (loadContext): `call` waits for them; a test reading ctx.blocks or the roulette queue first awaits it. */
  ready: Promise<void>;
  call(method: string, path: string, options?: CallOptions): Promise<TestResponse>;
  listen(): { url: string; wsUrl: string; port: number };
  close(): Promise<void>;
  /**
   * Raw SQL on this app's database, whichever engine runs it (`?` for each value): for a test
   * that sets up or reads what no route exposes. Rows come back as PostgreSQL or SQLite give them.
   */
  sql<Row = Record<string, unknown>>(text: string, ...values: unknown[]): Promise<Row[]>;
  /** DATABASE_URL of this app's own database on a PostgreSQL run; null on SQLite. */
  databaseUrl: string | null;
}

export interface CallOptions {
  token?: string;
  json?: unknown;
  body?: BodyInit;
  headers?: Record<string, string>;
}

export interface TestResponse {
  status: number;
  headers: Headers;
  // Tests read whatever the contract says is there.
  body: any;
  text: string;
}

/**
 * `ports`: the cluster ports to run on (tests with two instances; default: chosen from the config).
 * `dataDir`: another app's folder, shared (two instances over one SQLite file, only in those tests);
 * the app that made the folder removes it.
 */
export function makeTestApp(env: Record<string, string> = {}, shared: { ports?: Ports; dataDir?: string } = {}): TestApp {
  const dataDir = shared.dataDir ?? mkdtempSync(join(tmpdir(), "webchat-test-"));
  // Presence reaches strangers at once unless a test asks for the batches (PRESENCE_BATCH_SECONDS),
  // so tests about who hears what need not wait for a tick.
  // On a PostgreSQL run (tests/support/pg-clone.ts) the app gets a database of its own, or shares
  // the one of the app whose folder it shares.
  const databaseUrl = engine === "postgres" ? (shared.dataDir ? sharedDatabases.get(shared.dataDir)! : cloneDatabase()) : null;
  if (databaseUrl && !shared.dataDir) sharedDatabases.set(dataDir, databaseUrl);
  const config = loadConfig({
    DATA_DIR: dataDir,
    JWT_SECRET: "test-secret-test-secret-test-secret-1234",
    LOG_LEVEL: "silent",
    PRESENCE_BATCH_SECONDS: "0",
    ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
    ...env,
  });
  const storage = openTestStorage(dataDir, config.database);
  const ctx = createContext(config, storage, { ports: shared.ports });
  const ready = loadContext(ctx);
  const app = buildApp(ctx);
  let listening = false;

  return {
    ctx,
    app,
    dataDir,
    ready,
    async call(method, path, options = {}) {
      await ready;
      const headers: Record<string, string> = { ...options.headers };
      if (options.token) headers.authorization = `Bearer ${options.token}`;
      let body = options.body;
      if (options.json !== undefined) {
        headers["content-type"] ??= "application/json";
        body = typeof options.json === "string" ? options.json : JSON.stringify(options.json);
      }
      const response = await app.handle(new Request(`http://localhost${path}`, { method, headers, body }));
      const text = await response.text();
      let parsed: unknown = text;
      try {
        parsed = JSON.parse(text);
      } catch {}
      return { status: response.status, headers: response.headers, body: parsed, text };
    },
    listen() {
      app.listen({ port: 0, hostname: "127.0.0.1" });
      listening = true;
      const port = app.server!.port!;
      return { url: `http://127.0.0.1:${port}`, wsUrl: `ws://127.0.0.1:${port}`, port };
    },
    async close() {
      await ready.catch(() => {});
      ctx.hub.closeAll(1001, "test over");
      if (listening) await app.stop(true);
      await ctx.ports.close();
      await storage.close();
      ctx.roulette.close();
      if (!shared.dataDir) {
        rmSync(dataDir, { recursive: true, force: true });
        sharedDatabases.delete(dataDir);
        if (databaseUrl) dropDatabase(databaseUrl);
      }
    },
    databaseUrl,
    async sql<Row>(text: string, ...values: unknown[]): Promise<Row[]> {
      if (storage.sqlite) return storage.sqlite.query(text).all(...(values as never[])) as Row[];
      let n = 0;
      const client = (storage.db as unknown as { $client: { unsafe(q: string, v: unknown[]): Promise<Row[]> } }).$client;
      return [...(await client.unsafe(text.replace(/\?/g, () => `$${++n}`), values))];
    },
  };
}

/** A PostgreSQL run: the database of each data folder, for apps that share one. */
const sharedDatabases = new Map<string, string>();

/** SQLite in the folder, or a pool on the app's PostgreSQL database (its schema came with the clone). */
function openTestStorage(dataDir: string, database: ReturnType<typeof loadConfig>["database"]): Pick<OpenStorage, "db" | "sqlite" | "close"> {
  if (!database) {
    const { db, sqlite } = openStorage(dataDir);
    return { db, sqlite, close: async () => sqlite.close() };
  }
  const pg = openPostgres({ ...database, pool: 4 });
  return { db: pg.db as unknown as Db, sqlite: null, close: () => pg.close(1) };
}

let counter = 0;

/** POST /api/auth/login as `username`, with the password registerUser gave it. */
export const loginAs = (t: Pick<TestApp, "call">, username: string) => t.call("POST", "/api/auth/login", { json: { username, password: PASSWORD } });

/** Registers a fresh user; returns the token and the user record. */
export async function registerUser(t: TestApp, overrides: Record<string, unknown> = {}) {
  counter += 1;
  const username = `user_${process.pid % 1000}_${counter}`;
  const response = await t.call("POST", "/api/auth/register", {
    json: {
      username,
      email: `${username}@example.com`,
      password: PASSWORD,
      name: `User ${counter}`,
      gender: "female",
      age: 30,
      country_code: "DE",
      adult: true,
      ...overrides,
    },
  });
  if (response.status !== 201) throw new Error(`register failed: ${response.status} ${response.text}`);
  return { token: response.body.token as string, user: response.body.user as { id: number; name: string; username: string } };
}

/** A new guest (18+ confirmed) through the public API; `headers` carry a device cookie or a client address. */
export async function createGuest(t: TestApp, gender: "male" | "female" = "male", headers: Record<string, string> = {}) {
  const response = await t.call("POST", "/api/guest/create", { json: { gender, adult: true }, headers });
  if (response.status !== 201) throw new Error(`guest failed: ${response.status} ${response.text}`);
  return { token: response.body.data.token as string, user: response.body.data.user as { id: number; name: string; username: string } };
}

/** The ids of a list of users (or anything with one), in its order. */
export const idsOf = (list: { id: number }[]) => list.map((item) => item.id);
