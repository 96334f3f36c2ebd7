// What one idle signed-in /ws socket adds to the JS heap, measured in-process: the same number of
// sockets to a bare Bun.serve (the client's own objects and Bun's wrappers) is the floor that is
// subtracted. Used by socket-memory.test.ts; runnable alone: bun tests/realtime/socket-memory.ts 2000
import { heapStats } from "bun:jsc";
import { createGuest } from "../../src/auth/service.ts";
import { messageWriter } from "../../src/messages/writer.ts";
import { makeTestApp } from "../support/app.ts";
import { until } from "../support/until.ts";

async function settledHeap(): Promise<number> {
  for (let i = 0; i < 3; i++) {
    await Bun.sleep(50);
    Bun.gc(true);
  }
  return heapStats().heapSize;
}

async function openAll(urls: string[]): Promise<WebSocket[]> {
  const sockets: WebSocket[] = [];
  for (let start = 0; start < urls.length; start += 200) {
    const batch = urls.slice(start, start + 200).map(
      (url) =>
        new Promise<WebSocket>((resolve, reject) => {
          const ws = new WebSocket(url);
          ws.onopen = () => resolve(ws);
          ws.onerror = () => reject(new Error("a socket was refused"));
        }),
    );
    sockets.push(...(await Promise.all(batch)));
  }
  return sockets;
}

async function closeAll(sockets: WebSocket[]): Promise<void> {
  await Promise.all(sockets.map((ws) => new Promise((done) => ((ws.onclose = done), ws.close()))));
}

/**
 * `opened`: waits until the server is done opening the sockets (the client's open comes first).
 * `warmUp`: other sockets opened, waited for and closed first, so the code compiled for the first
 * sockets (0.4 to 0.8 KB a socket spread over 2,000, varying from run to run: about half of
 * what was measured without it) is not counted.
 */
async function bytesPerSocket(urls: string[], warmUp: string[], opened: (n: number) => Promise<void>, closed: () => Promise<void>): Promise<number> {
  const warm = await openAll(warmUp);
  await opened(warmUp.length);
  await closeAll(warm);
  await closed();
  const before = await settledHeap();
  const sockets = await openAll(urls);
  await opened(urls.length);
  const after = await settledHeap();
  await closeAll(sockets);
  return (after - before) / urls.length;
}

/** Sockets opened and closed before the measurement. */
const WARM_UP = 1000;

/** Heap bytes per idle socket: the app's own share (bare floor subtracted) and the floor. */
export async function heapPerSocket(count: number): Promise<{ app: number; bare: number }> {
  const bare = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    fetch: (request, server) => (server.upgrade(request) ? undefined : new Response("upgrade only", { status: 400 })),
    websocket: { message() {} },
  });
  const bareUrl = `ws://127.0.0.1:${bare.port}/`;
  const nothing = async () => {};
  const bareBytes = await bytesPerSocket(Array.from({ length: count }, () => bareUrl), Array.from({ length: WARM_UP }, () => bareUrl), nothing, nothing);
  bare.stop(true);

  // No grace: the warm-up's people are offline, and their rows written, before the measurement.
  const t = makeTestApp({ SOCKET_CAP: "10:1000000", SOCKET_CONNECT_LIMIT: "1000000", PRESENCE_GRACE_SECONDS: "0" });
  try {
    const { wsUrl } = t.listen();
    const guests = async (n: number) => {
      const urls: string[] = [];
      for (let i = 0; i < n; i++) {
        const { token } = await createGuest(t.ctx.db, t.ctx.config.secret, i % 2 ? "male" : "female");
        urls.push(`${wsUrl}/ws?token=${encodeURIComponent(token)}`);
      }
      return urls;
    };
    const warmUp = await guests(WARM_UP);
    const urls = await guests(count);
    const online = async () => Number((await t.sql<{ n: number | string }>("SELECT count(*) AS n FROM users WHERE is_online = ?", true))[0]!.n);
    // An opening reads the session, then a presence batch writes the users row and the message
    // writer marks waiting messages delivered: on PostgreSQL each is a round trip still under way
    // when the client sees the socket open, and its promises and buffers are not the idle
    // socket's. No frame tells of them (a ping would make the socket busy, and cache its user).
    const appBytes = await bytesPerSocket(
      urls,
      warmUp,
      async (n) => {
        await until(() => t.ctx.hub.allSockets().length === n, "the server counting every socket");
        await until(async () => (await online()) === n, "every presence batch committed", 180_000, 50);
        await messageWriter(t.ctx.db).flush();
      },
      async () => {
        await until(() => t.ctx.hub.allSockets().length === 0, "the warm-up's sockets gone");
        await until(async () => (await online()) === 0, "the warm-up's people offline", 180_000, 50);
      },
    );
    return { app: appBytes - bareBytes, bare: bareBytes };
  } finally {
    await t.close();
  }
}

if (import.meta.main) {
  const count = Number(process.argv[2] ?? 2000);
  const { app, bare } = await heapPerSocket(count);
  if (process.argv.includes("--json")) console.log(JSON.stringify({ app, bare }));
  else console.log(`${count} sockets: the app adds ${(app / 1024).toFixed(2)} KB of heap per socket over a bare Bun.serve (${(bare / 1024).toFixed(2)} KB, client included)`);
}
