// The figures measured on the project alone: roulette pairings with many people waiting, and the
// history page and chat list of a user with many messages, on either engine (seeded straight into
// the SQLite file or the PostgreSQL database while the server is stopped, then read through the
// running server).
import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import type { HistoryResult } from "../load/history.ts";
import type { RouletteResult } from "../load/roulette.ts";
import { runLoad } from "./run-load.ts";
import { seedMessagesPg, settle } from "./seed-pg.ts";
import { openTuned, seedMessages, type Account } from "./seed.ts";
import { dropStore, freshStore, start, type Store } from "./systems.ts";

export interface RouletteOptions {
  waiting: number;
  seekers: number;
  warmupMs: number;
  measureMs: number;
}

export async function roulette(o: RouletteOptions): Promise<RouletteResult> {
  // Sign-up alternates women and men: 2 x waiting accounts give `waiting` women and enough men.
  const server = await start("project", 2 * Math.max(o.waiting, o.seekers));
  try {
    const women = server.accounts.filter((a) => a.gender === "female").slice(0, o.waiting);
    const men = server.accounts.filter((a) => a.gender === "male").slice(0, o.seekers);
    return await runLoad<RouletteResult>("roulette", { target: server.target, waiting: women.map((a) => a.token), seekers: men.map((a) => a.token), warmupMs: o.warmupMs, measureMs: o.measureMs });
  } finally {
    await server.stop();
  }
}

export interface HistoryOptions {
  /** Messages of the busy user (with one contact). */
  big: number;
  /** Messages of the quiet user, for the flat check. */
  small: number;
  /** Messages between two other users, so the file holds big + small + filler in all. */
  filler: number;
  requests: number;
}

export interface HistoryFigures {
  result: HistoryResult;
  seedSeconds: number;
}

/** The project's SQLite file in its data folder (chat.sqlite today). */
function projectDbFile(dir: string): string {
  const named = join(dir, "chat.sqlite");
  if (existsSync(named)) return named;
  const found = readdirSync(dir).find((f) => f.endsWith(".sqlite") || f.endsWith(".db"));
  if (!found) throw new Error(`no SQLite file in the project's DATA_DIR ${dir}`);
  return join(dir, found);
}

/** `count` messages between `a` and `b`, into the stopped project's file or database. */
async function seed(store: Store, pairs: [number, number, number][]): Promise<void> {
  if (store.database) {
    for (const [a, b, count] of pairs) if (count > 0) await seedMessagesPg(store.database.url, a, b, count);
    await settle(store.database.url);
    return;
  }
  const db = openTuned(projectDbFile(store.dataDir));
  for (const [a, b, count] of pairs) if (count > 0) seedMessages(db, a, b, count);
  db.exec("PRAGMA wal_checkpoint(TRUNCATE)");
  db.close();
}

export async function history(o: HistoryOptions, name: "project" | "project-pg" = "project"): Promise<HistoryFigures> {
  const store = await freshStore(name);
  try {
    // First start: migrations and six signed-up users (busy, contact, quiet, contact, two fillers).
    const first = await start(name, 6, store);
    await first.stop();
    const [busy, busyContact, quiet, quietContact, fillA, fillB] = Array.from({ length: 6 }, (_, i) => {
      const account = first.accounts[i];
      if (!account) throw new Error("the project made fewer than six accounts");
      return account;
    }) as [Account, Account, Account, Account, Account, Account];
    const seeding = performance.now();
    await seed(store, [
      [busy.id, busyContact.id, o.big],
      [quiet.id, quietContact.id, o.small],
      [fillA.id, fillB.id, o.filler],
    ]);
    const seedSeconds = (performance.now() - seeding) / 1000;
    const server = await start(name, 0, store);
    try {
      const request = (label: string, path: string, token: string) => ({ label, path, token });
      const result = await runLoad<HistoryResult>("history", {
        base: server.target.base,
        count: o.requests,
        requests: [
          request("history big", `/api/messages/${busyContact.id}`, busy.token),
          request("history small", `/api/messages/${quietContact.id}`, quiet.token),
          request("chat list big", "/api/messages/chat-users-with-messages", busy.token),
          request("chat list small", "/api/messages/chat-users-with-messages", quiet.token),
        ],
      });
      return { result, seedSeconds };
    } finally {
      await server.stop();
    }
  } finally {
    await dropStore(store);
  }
}
