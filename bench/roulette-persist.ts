// What saving roulette sessions (src/roulette/persist.ts) costs, apart from everything else: the
// process's CPU while pairings start and end at a steady rate in real time, with the store's own
// timer writing them (in its steps), against the same run with nothing saved. A real SQLite file
// in WAL mode, checkpointed by SQLite itself (the server's worker does it on the same core).
//   bun bench/roulette-persist.ts [pairings per second=30000] [seconds=5] [share with 3 lines of text=0]
//   NO_SAVE=1 bun bench/roulette-persist.ts ...   (the same, nothing recorded: the baseline)
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
const saving = !process.env.NO_SAVE;
const dir = mkdtempSync(join(tmpdir(), "webchat-roulette-persist-bench-"));
try {
  const storage = openStorage(dir);
  const sessions = new RouletteSessions(Date.now);
  const store = saving ? await persistRouletteSessions(sessions, storage.db, createLogger({ level: "silent", format: "text" })) : null;
  let user = 1;
  let made = 0;
  let longestTurn = 0;
  const started = performance.now();
  const cpu = process.cpuUsage();
  // Each turn makes the pairings due by now, so the rate holds whatever the store's steps take.
  // "Longest turn": the most a turn came late, the store's steps included (and the machine's noise).
  await new Promise<void>((done) => {
    const turn = () => {
      const at = performance.now();
      const elapsed = at - started;
      if (elapsed >= seconds * 1000) return done();
      const due = Math.floor((elapsed / 1000) * rate);
      for (; made < due; made++) {
        const session = sessions.start(user++, user++);
        if (made % 100 < talking * 100) for (let l = 0; l < 3; l++) sessions.addLine(session, { senderId: session.a, text: "a line of about forty characters, typed.", at: Date.now() });
        sessions.end(session);
      }
      // A millisecond apart: the loop itself costs little, and a late turn shows a step that held the loop.
      setTimeout(() => {
        longestTurn = Math.max(longestTurn, performance.now() - at - 1);
        turn();
      }, 1);
    };
    turn();
  });
  const used = process.cpuUsage(cpu);
  const rows = (storage.sqlite.query("SELECT count(*) AS n FROM roulette_sessions").get() as { n: number }).n;
  console.log(
    `${saving ? "saving" : "NO_SAVE"}: ${made} pairings in ${seconds} s (${talking * 100}% with 3 lines): ` +
      `${((used.user + used.system) / seconds / 1000).toFixed(0)} ms CPU a second, ${((used.user + used.system) / made).toFixed(2)} us a pairing; ` +
      `longest turn ${longestTurn.toFixed(1)} ms; ${rows} rows at the end`,
  );
  await store?.stop();
  storage.sqlite.close();
} finally {
  rmSync(dir, { recursive: true, force: true });
}
