// A PostgreSQL server of the test's own (initdb and pg_ctl under a temporary folder, on a free
// port), for tests that stop and start the database under a running app: the machine's shared
// server must keep serving every other test. PostgreSQL refuses to run as root, so on this
// Debian machine its files belong to the "postgres" account and its commands run as it.
import { chmodSync, chownSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { freePort } from "./ports.ts";

const BIN = "/usr/lib/postgresql/15/bin";

export interface OwnPostgres {
  /** DATABASE_URL of its database "chat". */
  url: string;
  stop(): void;
  start(): void;
  /** Stops it and removes its files. */
  remove(): void;
}

function sh(cmd: string[], asPostgres: boolean): void {
  const full = asPostgres && process.getuid?.() === 0 ? ["runuser", "-u", "postgres", "--", ...cmd] : cmd;
  const done = Bun.spawnSync(full, { stdout: "pipe", stderr: "pipe" });
  if (done.exitCode !== 0) throw new Error(`${cmd.join(" ")}: ${done.stderr.toString().trim() || done.stdout.toString().trim()}`);
}

export function ownPostgres(): OwnPostgres {
  const dir = mkdtempSync(join(tmpdir(), "webchat-pg-"));
  const data = join(dir, "data");
  const root = process.getuid?.() === 0;
  if (root) {
    const { uid, gid } = postgresAccount();
    chownSync(dir, uid, gid);
  }
  chmodSync(dir, 0o700);
  const port = freePort();
  sh([`${BIN}/initdb`, "-D", data, "-U", "root", "--auth=trust", "--no-sync", "-E", "UTF8"], true);
  // Durability is not under test here (the app's answers are): no fsync keeps it fast on a busy disk.
  const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c full_page_writes=off`;
  const start = () => sh([`${BIN}/pg_ctl`, "-D", data, "-o", options, "-l", join(dir, "log"), "-w", "-t", "60", "start"], true);
  const stop = () => sh([`${BIN}/pg_ctl`, "-D", data, "-m", "fast", "-w", "-t", "60", "stop"], true);
  start();
  sh(["psql", `postgres://root@127.0.0.1:${port}/postgres`, "-qc", "CREATE DATABASE chat"], false);
  return {
    url: `postgres://root@127.0.0.1:${port}/chat`,
    stop,
    start,
    remove() {
      try {
        stop();
      } catch {
        // Already stopped.
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

function postgresAccount(): { uid: number; gid: number } {
  const line = Bun.spawnSync(["getent", "passwd", "postgres"]).stdout.toString().trim();
  const [, , uid, gid] = line.split(":");
  if (!uid || !gid) throw new Error("no postgres account on this machine (Debian's postgresql package makes it)");
  return { uid: Number(uid), gid: Number(gid) };
}
