// WAL checkpoints off the event loop. By default SQLite checkpoints inside the commit that pushes
// the WAL past 1,000 pages: that commit copies the pages into the database and waits for two
// fsyncs, and every message in its batch waits too (measured: batch p99 7.3 ms against a p50 of
// 0.8 ms; a larger auto-checkpoint only makes the stall longer). Here a worker thread with its own
// connection checkpoints every 50 ms and the server's connection never does so on its own.
//
// A WAL starts over only when a write begins with every frame copied, and under steady writes
// the worker never quite catches up between two commits. So once the WAL holds `limitFrames`, the
// worker pauses and the server runs one checkpoint itself, between two batches: by then little is
// left to copy, and its next write starts the WAL over. Durability is unchanged: commits still go
// through the WAL exactly as before (synchronous=NORMAL); only who copies them onward differs.
import type { Database } from "bun:sqlite";

/** SQLite's default, restored when the worker stops or fails. */
const DEFAULT_AUTOCHECKPOINT = 1000;

export type ToWorker = { kind: "start"; file: string; everyMs: number; limitFrames: number } | { kind: "resume" } | { kind: "stop" };
export type FromWorker = { kind: "pass" | "full"; frames: number; copied: number } | { kind: "failed"; message: string } | { kind: "stopped" };

export interface CheckpointerOptions {
  everyMs?: number;
  /**
   * 65,536 frames: a 256 MB WAL at 4 KB pages. Each restart stalls the event loop for the server's
   * own checkpoint (5 to 16 ms measured here, mostly its two fsyncs), so fewer restarts mean fewer
   * slow acks: at 5,000 messages/s over 200 sockets, ack p99 13.5-14.6 ms at 16,384 frames (a
   * restart about every second), 7.8-7.9 ms at 65,536.
   */
  limitFrames?: number;
  onFailure?: (message: string) => void;
}

export interface Checkpointer {
  /** Frames in the WAL at the worker's last pass. */
  readonly frames: number;
  /** Times the server started the WAL over. */
  readonly restarts: number;
  /** Settles at the worker's first pass (its thread takes a moment to start). */
  readonly ready: Promise<void>;
  stop(): Promise<void>;
}

export function startCheckpointer(sqlite: Database, file: string, options: CheckpointerOptions = {}): Checkpointer {
  const worker = new Worker(new URL("./worker.ts", import.meta.url));
  let frames = 0;
  let restarts = 0;
  let stopped = false;
  let fallBack = () => {
    sqlite.exec(`PRAGMA wal_autocheckpoint = ${DEFAULT_AUTOCHECKPOINT}`);
    fallBack = () => {};
  };
  sqlite.exec("PRAGMA wal_autocheckpoint = 0");

  /** Between two turns of the event loop: no batch is half written, and what is left to copy is small. */
  const restart = () =>
    setImmediate(() => {
      if (stopped) return;
      try {
        sqlite.exec("PRAGMA wal_checkpoint(PASSIVE)");
        restarts += 1;
      } catch (error) {
        options.onFailure?.(String(error));
      }
      worker.postMessage({ kind: "resume" } satisfies ToWorker);
    });

  let stoppedSignal: () => void = () => {};
  let readySignal: () => void = () => {};
  const ready = new Promise<void>((resolve) => (readySignal = resolve));
  worker.onmessage = (event: MessageEvent<FromWorker>) => {
    const message = event.data;
    if (message.kind === "pass" || message.kind === "full") frames = message.frames;
    if (message.kind !== "stopped") readySignal();
    if (message.kind === "full") restart();
    if (message.kind === "failed") {
      // The server goes on checkpointing as SQLite does by default.
      options.onFailure?.(message.message);
      fallBack();
    }
    if (message.kind === "stopped") stoppedSignal();
  };
  worker.onerror = (event) => {
    options.onFailure?.(event.message);
    fallBack();
  };
  worker.postMessage({ kind: "start", file, everyMs: options.everyMs ?? 50, limitFrames: options.limitFrames ?? 65_536 } satisfies ToWorker);

  return {
    ready,
    get frames() {
      return frames;
    },
    get restarts() {
      return restarts;
    },
    async stop() {
      if (stopped) return;
      stopped = true;
      const done = new Promise<void>((resolve) => (stoppedSignal = resolve));
      worker.postMessage({ kind: "stop" } satisfies ToWorker);
      await Promise.race([done, Bun.sleep(2000)]);
      worker.terminate();
      fallBack();
    },
  };
}
