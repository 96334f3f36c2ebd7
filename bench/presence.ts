// Issue 11: what opening many sockets costs when presence is announced. Makes N guests first (not
// timed), then opens one reading socket for each, CONCURRENCY at a time, and counts every frame the
// clients received, presence and online-count frames apart. Bounded: N sockets, LIMIT_SECONDS for
// the opening, SETTLE_MS afterwards for frames still on their way.
//   bun bench/presence.ts                  (2,000 sockets)
//   SOCKETS=5000 bun bench/presence.ts
//   WATCH=50 bun bench/presence.ts         (each socket watches the next 50 to arrive, as a people list would)
import { address, guest, openReader, type Account, type Reader } from "./abuse/accounts.ts";
import { startServer } from "./abuse/server.ts";

const num = (name: string, fallback: number) => {
  const value = Number(process.env[name] ?? fallback);
  if (!Number.isFinite(value) || value < 1) throw new Error(`${name} must be a positive number`);
  return value;
};

const SOCKETS = num("SOCKETS", 2000);
const CONCURRENCY = num("CONCURRENCY", 50);
const LIMIT_SECONDS = num("LIMIT_SECONDS", 300);
// Longer than the coalescing interval of the online count (5 s), so its frame is counted once.
const SETTLE_MS = num("SETTLE_MS", 6000);
// 0: no socket sends presence_watch (an old server knows no such event).
const WATCH = Math.min(200, Number(process.env.WATCH ?? 0) || 0);

const server = await startServer();
const readers: Reader[] = [];
try {
  const accounts: Account[] = [];
  for (let start = 0; start < SOCKETS; start += CONCURRENCY) {
    const batch = Array.from({ length: Math.min(CONCURRENCY, SOCKETS - start) }, (_, i) => guest(server, address(5, start + i)));
    accounts.push(...(await Promise.all(batch)));
  }

  const frames = new Map<string, number>();
  const onFrame = (frame: { event?: string }) => {
    const name = frame.event ?? "ack";
    frames.set(name, (frames.get(name) ?? 0) + 1);
  };
  const rssBefore = server.rssMb();
  const began = performance.now();
  const deadline = Date.now() + LIMIT_SECONDS * 1000;
  // A socket the server does not answer within 5 s (raw-ws's limit) counts as failed, not fatal:
  // a server busy announcing every arrival to everyone gets there.
  let failed = 0;
  for (let start = 0; start < accounts.length && Date.now() < deadline; start += CONCURRENCY) {
    const open = async (account: Account, index: number) => {
      const reader = await openReader(server, account, onFrame);
      if (WATCH > 0) await reader.request("presence_watch", { userIds: accounts.slice(index + 1, index + 1 + WATCH).map((a) => a.id) });
      return reader;
    };
    const batch = accounts.slice(start, start + CONCURRENCY).map((account, i) => open(account, start + i).catch(() => null));
    for (const reader of await Promise.all(batch)) {
      if (reader) readers.push(reader);
      else failed++;
    }
  }
  const openSeconds = (performance.now() - began) / 1000;
  const rssOpen = server.rssMb();
  await Bun.sleep(SETTLE_MS);

  const total = [...frames.values()].reduce((a, b) => a + b, 0);
  const presence = (frames.get("user_online") ?? 0) + (frames.get("user_offline") ?? 0);
  console.log(`presence bench: ${readers.length} of ${SOCKETS} sockets open, ${failed} failed (signed-in guests, ${CONCURRENCY} opening at a time, each watching ${WATCH})`);
  console.log(`  time to open them all: ${openSeconds.toFixed(2)} s`);
  console.log(`  frames received by all clients (within ${SETTLE_MS / 1000} s after): ${total}; presence ${presence}; ${[...frames].map(([k, v]) => `${k} ${v}`).join(", ")}`);
  console.log(`  server RSS: ${rssBefore.toFixed(0)} MB before, ${rssOpen.toFixed(0)} MB with the sockets open`);
} finally {
  for (const reader of readers) reader.close();
  await server.stop();
}
