// The per-request cost of the read routes in process (no socket): app.handle on the history page
// and the chat list with a bearer token, next to the session check and the route's own queries
// alone, so what the HTTP path adds around the queries shows as the difference.
//   bun bench/http-path.ts                 (5,000 timed calls each, after 500 unmeasured ones)
//   RUNS=2000 MESSAGES=500 bun bench/http-path.ts
import { loadavg } from "node:os";
import { buildApp } from "../src/app.ts";
import { sessionFor } from "../src/auth/sessions.ts";
import { loadConfig } from "../src/config.ts";
import { createContext, loadContext } from "../src/context.ts";
import { openStorage } from "../src/db.ts";
import { readConversation } from "../src/messages/history.ts";
import { chatUsers, storeText } from "../src/messages/service.ts";
import { requireUser } from "../src/users/service.ts";
import { removeFolder, tempFolder } from "./compare/proc.ts";

const RUNS = Math.min(Number(process.env.RUNS ?? 5_000), 50_000);
const MESSAGES = Math.min(Number(process.env.MESSAGES ?? 200), 10_000);

const dir = tempFolder("webchat-http-path-");
const config = loadConfig({ DATA_DIR: dir, JWT_SECRET: "bench-secret-bench-secret-bench-secret-12", LOG_LEVEL: "silent" });
const storage = openStorage(dir);
const ctx = createContext(config, storage);
await loadContext(ctx);
const app = buildApp(ctx);

async function register(n: number) {
  const response = await app.handle(
    new Request("http://localhost/api/auth/register", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ username: `bench_${n}`, email: `bench_${n}@example.com`, password: "correct horse", name: `Bench ${n}`, gender: "female", age: 30, country_code: "DE", adult: true }),
    }),
  );
  if (response.status !== 201) throw new Error(`register failed: ${response.status} ${await response.text()}`);
  return (await response.json()) as { token: string; user: { id: number } };
}

const alice = await register(1);
const bob = await register(2);
const sender = await requireUser(ctx.db, alice.user.id);
const receiver = await requireUser(ctx.db, bob.user.id);
for (let i = 0; i < MESSAGES; i++) {
  if (i % 2 === 0) await storeText(ctx.db, ctx.clock, sender, { receiverId: bob.user.id, content: `message ${i} from alice` });
  else await storeText(ctx.db, ctx.clock, receiver, { receiverId: alice.user.id, content: `message ${i} from bob` });
}

const quantile = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;

async function time(label: string, run: () => unknown) {
  for (let i = 0; i < 500; i++) await run();
  const times: number[] = [];
  const started = performance.now();
  for (let i = 0; i < RUNS; i++) {
    const t0 = performance.now();
    await run();
    times.push(performance.now() - t0);
  }
  const total = performance.now() - started;
  times.sort((a, b) => a - b);
  const us = (ms: number) => `${(ms * 1000).toFixed(0)} us`;
  console.log(`${label.padEnd(34)} p50 ${us(quantile(times, 0.5)).padStart(7)}  p99 ${us(quantile(times, 0.99)).padStart(7)}  mean ${us(total / RUNS).padStart(7)}/request`);
}

const get = (path: string) => async () => {
  const response = await app.handle(new Request(`http://localhost${path}`, { headers: { authorization: `Bearer ${alice.token}` } }));
  if (response.status !== 200) throw new Error(`${path}: ${response.status}`);
  await response.arrayBuffer();
};

console.log(`http-path: ${MESSAGES} messages in the conversation, ${RUNS} calls each, load ${loadavg()[0]!.toFixed(2)}`);
await time("session check alone", () => sessionFor(ctx.db, config, alice.token));
await time("history queries + JSON alone", async () => JSON.stringify(await readConversation(ctx.db, { id: alice.user.id, name: "alice" }, bob.user.id, 50)));
await time("chat list queries + JSON alone", async () => JSON.stringify(await chatUsers(ctx.db, sender)));
await time("GET /api/messages/:id (app.handle)", get(`/api/messages/${bob.user.id}`));
await time("GET chat-users-with-messages", get("/api/messages/chat-users-with-messages"));
await time("GET /healthz (no session)", get("/healthz"));

ctx.hub.closeAll(1001, "bench over");
storage.sqlite.close();
removeFolder(dir);
process.exit(0);
