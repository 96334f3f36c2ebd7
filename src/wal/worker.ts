// The checkpointer's thread (see checkpointer.ts): its own connection to the database file copies
// what the WAL holds into the database, PASSIVE so it never waits for or blocks the server's
// writes. After each pass it reports how many frames the WAL holds; past the limit it stops until
// the server, which alone can let the WAL start over, has done so.
import { Database } from "bun:sqlite";
import type { FromWorker, ToWorker } from "./checkpointer.ts";

declare const self: Worker;

let db: Database | null = null;
let checkpoint: ReturnType<Database["prepare"]> | null = null;
let timer: ReturnType<typeof setInterval> | null = null;
let paused = false;

function pass(limitFrames: number): void {
  if (!checkpoint || paused) return;
  try {
    // bun:sqlite resets a statement once it has run: no read lock is held between passes.
    const row = checkpoint.get() as { log: number; checkpointed: number };
    const report: FromWorker = { kind: "pass", frames: row.log, copied: row.checkpointed };
    if (row.log >= limitFrames) {
      paused = true;
      report.kind = "full";
    }
    postMessage(report);
  } catch (error) {
    // Another checkpoint running (the server's own) answers busy: the next pass tries again.
    if (!(error instanceof Error && /busy|locked/i.test(error.message))) postMessage({ kind: "failed", message: String(error) } satisfies FromWorker);
  }
}

self.onmessage = (event: MessageEvent<ToWorker>) => {
  const message = event.data;
  if (message.kind === "start") {
    db = new Database(message.file);
    db.exec("PRAGMA busy_timeout = 0");
    checkpoint = db.prepare("PRAGMA wal_checkpoint(PASSIVE)");
    timer = setInterval(() => pass(message.limitFrames), message.everyMs);
  } else if (message.kind === "resume") {
    paused = false;
  } else if (message.kind === "stop") {
    if (timer) clearInterval(timer);
    checkpoint?.finalize();
    db?.close();
    db = checkpoint = null;
    postMessage({ kind: "stopped" } satisfies FromWorker);
  }
};
