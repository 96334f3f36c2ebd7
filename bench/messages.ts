// How many chat messages one server process stores and delivers: PAIRS pairs of users on real
// sockets over loopback, each sender sending MESSAGES messages one after another (waiting for
// each ack), while the receiver's socket gets new_message. Bounded: stops after LIMIT_SECONDS.
//   bun bench/messages.ts            (defaults: 20 pairs x 200 messages)
//   PAIRS=50 MESSAGES=100 bun bench/messages.ts
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { buildApp } from "../src/app.ts";
import { loadConfig } from "../src/config.ts";
import { createContext, loadContext } from "../src/context.ts";
import { openStorage } from "../src/db.ts";

const PAIRS = Number(process.env.PAIRS ?? 20);
const MESSAGES = Number(process.env.MESSAGES ?? 200);
const LIMIT_SECONDS = Number(process.env.LIMIT_SECONDS ?? 60);

const dataDir = mkdtempSync(join(tmpdir(), "webchat-bench-"));
// Senders are paced by their acks; the limiter is opened wide so it measures the server, not the limit.
const config = loadConfig({ DATA_DIR: dataDir, JWT_SECRET: "bench-secret-bench-secret-bench-secret!!", SOCKET_RATE_LIMIT: "100000:100000", SIGNUP_RATE_LIMIT: "100000" });
const storage = openStorage(dataDir);
const ctx = createContext(config, storage);
await loadContext(ctx);
const app = buildApp(ctx).listen({ port: 0, hostname: "127.0.0.1" });
const base = `127.0.0.1:${app.server!.port}`;

async function guest(): Promise<{ token: string; id: number }> {
  const r = await fetch(`http://${base}/api/guest/create`, { method: "POST", headers: { "content-type": "application/json" }, body: '{"gender":"female","adult":true}' });
  const { data } = (await r.json()) as { data: { token: string; user: { id: number } } };
  return { token: data.token, id: data.user.id };
}

function open(token: string): Promise<WebSocket> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(`ws://${base}/ws?token=${token}`);
    ws.onopen = () => resolve(ws);
    ws.onerror = () => reject(new Error("socket failed"));
  });
}

const latencies: number[] = [];
let received = 0;
const deadline = Date.now() + LIMIT_SECONDS * 1000;

async function runPair(): Promise<void> {
  const a = await guest();
  const b = await guest();
  const sender = await open(a.token);
  const receiver = await open(b.token);
  let mine = 0;
  receiver.onmessage = (e) => {
    if (String(e.data).includes('"new_message"')) {
      received++;
      mine++;
    }
  };
  const pending = new Map<number, () => void>();
  sender.onmessage = (e) => {
    const frame = JSON.parse(String(e.data)) as { ack?: number; event?: string };
    if (frame.ack !== undefined && frame.event === undefined) pending.get(frame.ack)?.();
  };
  let sent = 0;
  for (let i = 1; i <= MESSAGES && Date.now() < deadline; i++) {
    const started = performance.now();
    await new Promise<void>((resolve) => {
      pending.set(i, resolve);
      sender.send(JSON.stringify({ event: "send_message", data: { receiverId: b.id, content: `message ${i}` }, ack: i }));
    });
    pending.delete(i);
    latencies.push(performance.now() - started);
    sent++;
  }
  // The ack can arrive before the receiver's copy: closing at once would drop the last new_message.
  const waitUntil = Date.now() + 2000;
  while (mine < sent && Date.now() < waitUntil) await Bun.sleep(10);
  sender.close();
  receiver.close();
}

const started = performance.now();
await Promise.all(Array.from({ length: PAIRS }, runPair));
const seconds = (performance.now() - started) / 1000;
await Bun.sleep(200);
latencies.sort((x, y) => x - y);
const at = (q: number) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))]!.toFixed(1);
console.log(`${PAIRS} pairs, ${latencies.length} messages stored and acknowledged in ${seconds.toFixed(1)} s: ${(latencies.length / seconds).toFixed(0)} messages/s`);
console.log(`ack latency ms: p50 ${at(0.5)}, p95 ${at(0.95)}, p99 ${at(0.99)}; delivered to receivers: ${received}`);
console.log(`server memory (rss): ${(process.memoryUsage().rss / 1e6).toFixed(0)} MB (server and clients share this process)`);
await app.stop(true);
storage.sqlite.close();
rmSync(dataDir, { recursive: true, force: true });
process.exit(0);
