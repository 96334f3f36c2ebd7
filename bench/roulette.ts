// How fast Video Roulette pairs people: WAITING users wait (men who want a woman), and JOINERS
// women loop "search, get paired, Next" while each released man searches again, so about WAITING
// people are always in the queue. Prints pairings/s and join-to-pair latency (roulette_search sent
// to roulette_partner_found received). The server runs in a child process so that the clients'
// work is not counted against it. Bounded: stops after SECONDS. Joiners x waiting must stay well
// above the pairings of one run (all inside the 60 s "not again at once" window), or that rule bites.
//   bun bench/roulette.ts                 (defaults: 1000 waiting, 200 joiners, 50 searches at once, 5 s)
//   WAITING=200 JOINERS=20 SECONDS=5 bun bench/roulette.ts
//   QUEUE_ONLY=1 bun bench/roulette.ts    (the queue alone, in process: its cost per pairing)
//   HANDLERS_ONLY=1 bun bench/roulette.ts (the socket handlers in process, frames built, no network)
//   TAGS=1 with any of these (issue 24): everyone searches with 3 to 5 interests drawn from 200 tags
//   by popularity (Zipf), and speaks 1 or 2 of 10 languages (guests' profiles set before the run);
//   a joiner is paired with the longest-waiting man sharing one of her interests.
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const WAITING = Number(process.env.WAITING ?? 1000);
const JOINERS = Number(process.env.JOINERS ?? 200);
const SECONDS = Number(process.env.SECONDS ?? 5);
/** Searches in flight at once: each loop takes its joiners in turn, so many joiners keep the pairs new. */
const CONCURRENCY = Math.min(JOINERS, Number(process.env.CONCURRENCY ?? 50));
const TAGS = Boolean(process.env.TAGS);

/** A fixed pseudo-random sequence (mulberry32): every run draws the same tag sets. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
const TAG_POOL = Array.from({ length: 200 }, (_, i) => `topic ${i}`);
/** Zipf weights: the tag of rank r is chosen in proportion to 1 / r, as tag use usually falls off. */
const ZIPF = TAG_POOL.map((_, i) => 1 / (i + 1));
const ZIPF_SUM = ZIPF.reduce((a, b) => a + b, 0);
const SPOKEN = ["en", "es", "pt", "ru", "de", "fr", "tr", "id", "hi", "ar"];

/** Person `i`'s interests (3 to 5) and languages (1 or 2); none without TAGS. */
const drawn = new Map<number, { interests: string[]; languages: string[] }>();
function tastes(i: number): { interests: string[]; languages: string[] } {
  let known = drawn.get(i);
  if (!known) drawn.set(i, (known = draw(i)));
  return known;
}

function draw(i: number): { interests: string[]; languages: string[] } {
  if (!TAGS) return { interests: [], languages: [] };
  const next = random(i * 7919 + 17);
  const interests: string[] = [];
  const count = 3 + Math.floor(next() * 3);
  while (interests.length < count) {
    let pick = next() * ZIPF_SUM;
    let rank = 0;
    while (pick > ZIPF[rank]! && rank < TAG_POOL.length - 1) pick -= ZIPF[rank++]!;
    if (!interests.includes(TAG_POOL[rank]!)) interests.push(TAG_POOL[rank]!);
  }
  const languages = [SPOKEN[Math.floor(next() * next() * SPOKEN.length)]!];
  if (next() < 0.4) {
    const second = SPOKEN[Math.floor(next() * SPOKEN.length)]!;
    if (second !== languages[0]) languages.push(second);
  }
  return { interests, languages };
}

if (process.env.ROULETTE_BENCH_SERVER) await serve();
else if (process.env.QUEUE_ONLY) await queueOnly();
else if (process.env.HANDLERS_ONLY) await handlersOnly();
else await drive();

/** The same traffic straight on RouletteQueue: search, Next, the released man searching again. */
async function queueOnly(): Promise<void> {
  const { RouletteQueue } = await import("../src/roulette/queue.ts");
  type Socket = Parameters<InstanceType<typeof RouletteQueue>["search"]>[2];
  const socket = (userId: number): Socket => ({ id: `s${userId}`, userId, sessionId: "bench", address: "127.0.0.1", present: true, lastHeardAt: 0, sendText() {}, close() {} });
  const queue = new RouletteQueue();
  const man = (userId: number) => ({ userId, gender: "male", countryCode: null, languages: tastes(userId).languages });
  const wantsWoman = (userId: number) => ({ gender: "female" as const, country: "any", interests: tastes(userId).interests });
  for (let id = 1; id <= WAITING + JOINERS; id++) queue.search(man(id), wantsWoman(id), socket(id));
  const womanTastes = Array.from({ length: JOINERS }, (_, i) => tastes(1_000_000 + i));
  const count = Number(process.env.PAIRINGS ?? 100_000);
  let shared = 0;
  const started = performance.now();
  const cpuStarted = process.cpuUsage();
  for (let i = 0; i < count; i++) {
    const woman = 1_000_000 + (i % JOINERS);
    const { interests, languages } = womanTastes[i % JOINERS]!;
    const pairing = queue.search({ userId: woman, gender: "female", countryCode: null, languages }, { gender: "any", country: "any", interests }, socket(woman), () => true);
    if (!pairing) throw new Error(`no partner at pairing ${i}`);
    if (pairing.sharedInterests.length > 0) shared++;
    queue.leave(woman);
    const released = pairing.answerer.profile.userId;
    queue.search(man(released), wantsWoman(released), socket(released));
  }
  const us = ((performance.now() - started) * 1000) / count;
  console.log(`queue only, ${WAITING} waiting${TAGS ? `, with tags (${((shared / count) * 100).toFixed(0)}% of pairings shared one)` : ""}: ${count} pairings, ${us.toFixed(2)} us each (search, Next, search again), ${cpuEach(cpuStarted, count)} us CPU`);
  queue.close();
}

/** The same traffic through the roulette_search and roulette_next handlers, with sockets that only count bytes. */
async function handlersOnly(): Promise<void> {
  const { rouletteHandlers } = await import("../src/realtime/handlers/roulette.ts");
  const { RouletteQueue } = await import("../src/roulette/queue.ts");
  const { Hub } = await import("../src/realtime/hub.ts");
  type Ctx = Parameters<typeof rouletteHandlers.roulette_search>[0];
  let bytes = 0;
  const socket = (userId: number) => ({ id: `s${userId}`, userId, sessionId: "bench", address: "127.0.0.1", present: true, lastHeardAt: 0, sendText: (text: string) => void (bytes += text.length), close() {} });
  const app = { roulette: new RouletteQueue(), blocks: { between: () => false, carriersOf: () => [] }, hub: new Hub() } as unknown as Ctx["app"];
  const user = (id: number, gender: string) => {
    const { interests, languages } = tastes(id);
    return { id, gender, countryCode: "DE", countryName: "Germany", age: 30, adultConfirmedAt: 1, rouletteSuspendedAt: null, interests: JSON.stringify(interests), languages: JSON.stringify(languages) } as unknown as Ctx["user"];
  };
  const ctxOf = (id: number, gender: string): Ctx => ({ app, user: user(id, gender), socket: socket(id) });
  const men = new Map<number, Ctx>();
  for (let id = 1; id <= WAITING + JOINERS; id++) men.set(id, ctxOf(id, "male"));
  const women = Array.from({ length: JOINERS }, (_, i) => ctxOf(1_000_000 + i, "female"));
  const wantsWoman = { filters: { gender: "female" as const, country: "any" } };
  for (const man of men.values()) rouletteHandlers.roulette_search(man, wantsWoman);
  const count = Number(process.env.PAIRINGS ?? 100_000);
  const started = performance.now();
  const cpuStarted = process.cpuUsage();
  for (let i = 0; i < count; i++) {
    const woman = women[i % JOINERS]!;
    rouletteHandlers.roulette_search(woman, { filters: { gender: "any", country: "any" } });
    const released = app.roulette.partnerOf(woman.user.id)!;
    rouletteHandlers.roulette_next(woman, {});
    rouletteHandlers.roulette_search(men.get(released)!, wantsWoman);
  }
  const us = ((performance.now() - started) * 1000) / count;
  app.roulette.close();
  console.log(`handlers only, ${WAITING} waiting${TAGS ? ", with tags" : ""}: ${count} pairings, ${us.toFixed(2)} us each, ${cpuEach(cpuStarted, count)} us CPU (search, Next, search again; ${(bytes / count).toFixed(0)} bytes sent each)`);
}

/** CPU time (user + system) per pairing since `since`: steadier than wall time on a shared machine. */
function cpuEach(since: NodeJS.CpuUsage, count: number): string {
  const { user, system } = process.cpuUsage(since);
  return ((user + system) / count).toFixed(2);
}

async function serve(): Promise<void> {
  const { buildApp } = await import("../src/app.ts");
  const { loadConfig } = await import("../src/config.ts");
  const { createContext, loadContext } = await import("../src/context.ts");
  const { openStorage } = await import("../src/db.ts");
  const dataDir = process.env.ROULETTE_BENCH_SERVER!;
  // Opened wide so that the bench measures the server, not the limits.
  const config = loadConfig({ DATA_DIR: dataDir, JWT_SECRET: "bench-secret-bench-secret-bench-secret!!", SOCKET_RATE_LIMIT: "1000000:1000000", SIGNUP_RATE_LIMIT: "1000000", SOCKET_CONNECT_LIMIT: "1000000", SOCKET_CAP: "10:1000000", ROULETTE_WAITING_PER_ADDRESS: "1000000", LOG_LEVEL: "error" });
  const ctx = createContext(config, openStorage(dataDir));
  await loadContext(ctx);
  const app = buildApp(ctx).listen({ port: 0, hostname: "127.0.0.1" });
  console.log(`port ${app.server!.port}`);
  // A plain exit, so that a --cpu-prof profile is written.
  process.on("SIGTERM", () => process.exit(0));
}

interface Client {
  ws: WebSocket;
  send(event: string, data: unknown): void;
}

async function drive(): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), "webchat-roulette-bench-"));
  // The clients move to core 1 (all their threads), leaving core 0 to the server.
  if (pinnedToCore0().length) Bun.spawnSync(["taskset", "-a", "-p", "-c", "1", String(process.pid)], { stdout: "ignore" });
  // CPU_PROF=1 writes the server's profile (a .cpuprofile file) into the current folder.
  // Pinned to core 0 where taskset exists (as bench/compare does), so the clients' work on the
  // other core is not counted against it; taskset execs the server, so the pid stays its own.
  const server = Bun.spawn([...pinnedToCore0(), process.execPath, ...(process.env.CPU_PROF ? ["--cpu-prof"] : []), import.meta.path], { env: { ...process.env, ROULETTE_BENCH_SERVER: dataDir }, stdout: "pipe", stderr: "inherit" });
  const cleanup = () => {
    server.kill();
    rmSync(dataDir, { recursive: true, force: true });
  };
  process.on("SIGINT", () => (cleanup(), process.exit(130)));
  try {
    const base = `127.0.0.1:${await portOf(server.stdout)}`;
    await run(base, server.pid);
  } finally {
    cleanup();
  }
}

/** `taskset -c 0` when the machine has taskset and more than one core, else nothing. */
function pinnedToCore0(): string[] {
  const hasTaskset = ["/usr/bin/taskset", "/bin/taskset"].some((path) => existsSync(path));
  return hasTaskset && navigator.hardwareConcurrency > 1 ? ["taskset", "-c", "0"] : [];
}

async function portOf(stdout: ReadableStream<Uint8Array>): Promise<number> {
  let text = "";
  for await (const chunk of stdout) {
    text += new TextDecoder().decode(chunk);
    const match = /port (\d+)/.exec(text);
    if (match) return Number(match[1]);
  }
  throw new Error("the server did not start");
}

/** The server's CPU seconds so far (user + system), or NaN where /proc is missing. */
function cpuSeconds(pid: number): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
    // utime and stime, fields 14 and 15 of stat, in clock ticks (100 a second on Linux).
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return Number.NaN;
  }
}

async function run(base: string, serverPid: number): Promise<void> {
  const guest = async (gender: "male" | "female") => {
    const r = await fetch(`http://${base}/api/guest/create`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ gender, adult: true }) });
    if (!r.ok) throw new Error(`guest/create answered ${r.status}`);
    return ((await r.json()) as { data: { token: string; user: { id: number } } }).data;
  };
  const open = (token: string, onEvent: (event: string) => void) =>
    new Promise<Client>((resolve, reject) => {
      const ws = new WebSocket(`ws://${base}/ws?token=${token}`);
      let ack = 0;
      const client: Client = { ws, send: (event, data) => ws.send(JSON.stringify({ event, data, ack: ++ack })) };
      ws.onmessage = (e) => {
        const frame = JSON.parse(String(e.data)) as { event?: string };
        if (frame.event) onEvent(frame.event);
      };
      ws.onopen = () => resolve(client);
      ws.onerror = () => reject(new Error("socket failed"));
    });
  const inBatches = async <T>(count: number, make: (i: number) => Promise<T>): Promise<T[]> => {
    const out: T[] = [];
    for (let i = 0; i < count; i += 50) out.push(...(await Promise.all(Array.from({ length: Math.min(50, count - i) }, (_, j) => make(i + j)))));
    return out;
  };

  const wantsWoman = { gender: "female", country: "any" };
  const anyone = { gender: "any", country: "any" };
  // Accounts first, sockets after: every new account is announced to everyone online.
  const menAccounts = await inBatches(WAITING + CONCURRENCY, () => guest("male"));
  const womenAccounts = await inBatches(JOINERS, () => guest("female"));
  // Interests come from the profiles (a search without them takes the profile's), as in the app.
  if (TAGS) {
    await inBatches(menAccounts.length + womenAccounts.length, async (i) => {
      const { token, user } = (menAccounts[i] ?? womenAccounts[i - menAccounts.length])!;
      const r = await fetch(`http://${base}/api/users/profile`, { method: "PUT", headers: { "content-type": "application/json", authorization: `Bearer ${token}` }, body: JSON.stringify({ name: "Bench", ...tastes(user.id) }) });
      if (!r.ok) throw new Error(`profile answered ${r.status}`);
    });
  }
  // Enough men that about WAITING of them wait while CONCURRENCY of them are paired.
  const men = await inBatches(menAccounts.length, async (i) => {
    const { token, user } = menAccounts[i]!;
    const man: Client = await open(token, (event) => {
      if (event === "roulette_partner_next" || event === "roulette_partner_disconnected") man.send("roulette_search", { userId: user.id, filters: wantsWoman });
    });
    man.send("roulette_search", { userId: user.id, filters: wantsWoman });
    return man;
  });
  const women = await inBatches(JOINERS, async (i) => {
    const { token, user } = womenAccounts[i]!;
    let found: () => void = () => {};
    const client = await open(token, (event) => {
      if (event === "roulette_partner_found") found();
    });
    return { client, id: user.id, paired: () => new Promise<void>((resolve) => (found = resolve)) };
  });
  await Bun.sleep(500);

  const latencies: number[] = [];
  const cpuBefore = cpuSeconds(serverPid);
  const started = performance.now();
  const deadline = started + SECONDS * 1000;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async (_, loop) => {
      for (let turn = 0; performance.now() < deadline; turn++) {
        const w = women[(loop + turn * CONCURRENCY) % JOINERS]!;
        const t0 = performance.now();
        const paired = w.paired();
        w.client.send("roulette_search", { userId: w.id, filters: anyone });
        await paired;
        latencies.push(performance.now() - t0);
        w.client.send("roulette_next", { userId: w.id });
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  const cpuPerPairing = ((cpuSeconds(serverPid) - cpuBefore) / latencies.length) * 1e6;
  latencies.sort((x, y) => x - y);
  const at = (q: number) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))]!.toFixed(1);
  console.log(`server ${pinnedToCore0().length ? "pinned to core 0, clients on core 1" : "not pinned (no taskset)"}`);
  console.log(`${WAITING} waiting${TAGS ? " with 3 to 5 interests each (Zipf over 200 tags), 1 or 2 languages" : ""}, ${JOINERS} joiners, ${CONCURRENCY} searches at once: ${latencies.length} pairings in ${seconds.toFixed(1)} s: ${(latencies.length / seconds).toFixed(0)} pairings/s`);
  console.log(`join-to-pair ms: p50 ${at(0.5)}, p95 ${at(0.95)}, p99 ${at(0.99)}`);
  // Steadier than pairings/s on a busy machine: what one pairing (3 frames in, 6 out) costs the server.
  console.log(`server CPU per pairing: ${cpuPerPairing.toFixed(0)} us (about ${(1e6 / cpuPerPairing).toFixed(0)} pairings/s on one core)`);
  for (const c of [...men, ...women.map((w) => w.client)]) c.ws.close();
}
