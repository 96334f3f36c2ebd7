// What saving roulette sessions (src/roulette/persist.ts) costs, apart from everything else: the
// CPU of the once-a-second pass at a given pairing rate, per pairing. Simulated time, real SQLite
// file (WAL, as the server opens it).
//   bun bench/roulette-persist.ts [pairings per second=30000] [seconds=5] [share with 3 lines of text=0]
//   NO_SAVE=1 bun bench/roulette-persist.ts ...   (the sessions alone, nothing recorded: the hot path's baseline)
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openStorage } from "../src/db.ts";
import { createLogger } from "../src/observability/log.ts";
import { persistRouletteSessions } from "../src/roulette/persist.ts";
import { RouletteSessions } from "../src/roulette/sessions.ts";

const rate = Number(process.argv[2] ?? 30_000);
const seconds = Number(process.argv[3] ?? 5);
const talking = Number(process.argv[4] ?? 0);
const dir = mkdtempSync(join(tmpdir(), "webchat-roulette-persist-bench-"));
try {
  const storage = openStorage(dir);
  const clock = { now: Date.now() };
  const sessions = new RouletteSessions(() => clock.now);
  const saved = process.env.NO_SAVE ? { flush() {}, stop() {} } : persistRouletteSessions(sessions, storage.sqlite, createLogger({ level: "silent", format: "text" }), () => clock.now);
  let cpu = 0;
  let pairingCpu = 0;
  let user = 1;
  for (let second = 0; second < seconds; second++) {
    const started = process.cpuUsage();
    for (let i = 0; i < rate; i++) {
      clock.now += 1000 / rate;
      const session = sessions.start(user++, user++);
      if (i % 100 < talking * 100) for (let l = 0; l < 3; l++) sessions.addLine(session, { senderId: session.a, text: "a line of about forty characters, typed.", at: clock.now });
      sessions.end(session);
    }
    const mid = process.cpuUsage(started);
    pairingCpu += mid.user + mid.system;
    const before = process.cpuUsage();
    saved.flush();
    const pass = process.cpuUsage(before);
    cpu += pass.user + pass.system;
  }
  const rows = (storage.sqlite.query("SELECT count(*) AS n FROM roulette_sessions").get() as { n: number }).n;
  console.log(
    `${rate} pairings/s for ${seconds} s (${talking * 100}% with 3 lines): save pass ${(cpu / seconds / 1000).toFixed(1)} ms CPU a second, ${(cpu / (rate * seconds)).toFixed(2)} us a pairing; ` +
      `the sessions' own work ${(pairingCpu / (rate * seconds)).toFixed(2)} us a pairing; ${rows} rows at the end`,
  );
  saved.stop();
  storage.sqlite.close();
} finally {
  rmSync(dir, { recursive: true, force: true });
}
