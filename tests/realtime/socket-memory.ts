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

/** `opened`: waits until the server is done opening the sockets (the client's open comes first). */
async function bytesPerSocket(urls: string[], opened = async () => {}): Promise<number> {
  const before = await settledHeap();
  const sockets = await openAll(urls);
  await opened();
  const after = await settledHeap();
  await closeAll(sockets);
  return (after - before) / urls.length;
}

/** Heap bytes per idle socket: the app's own share (bare floor subtracted) and the floor. */
export async function heapPerSocket(count: number): Promise<{ app: number; bare: number }> {
  const bare = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    fetch: (request, server) => (server.upgrade(request) ? undefined : new Response("upgrade only", { status: 400 })),
    websocket: { message() {} },
  });
  const bareBytes = await bytesPerSocket(Array.from({ length: count }, () => `ws://127.0.0.1:${bare.port}/`));
  bare.stop(true);

  const t = makeTestApp({ SOCKET_CAP: "10:1000000", SOCKET_CONNECT_LIMIT: "1000000" });
  try {
    const { wsUrl } = t.listen();
    const urls: string[] = [];
    for (let i = 0; i < count; i++) {
      const { token } = await createGuest(t.ctx.db, t.ctx.config.secret, i % 2 ? "male" : "female");
      urls.push(`${wsUrl}/ws?token=${encodeURIComponent(token)}`);
    }
    // An opening reads the session, then a presence batch writes the users row and the message
    // writer marks waiting messages delivered: on PostgreSQL each is a round trip still under way
    // when the client sees the socket open, and its promises and buffers are not the idle
    // socket's. No frame tells of them (a ping would make the socket busy, and cache its user).
    const appBytes = await bytesPerSocket(urls, async () => {
      await until(() => t.ctx.hub.allSockets().length === count, "the server counting every socket");
      await until(async () => Number((await t.sql<{ n: number | string }>("SELECT count(*) AS n FROM users WHERE is_online = ?", true))[0]!.n) === count, "every presence batch committed", 180_000, 50);
      await messageWriter(t.ctx.db).flush();
    });
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
