// A PostgreSQL server of the test's own (initdb and pg_ctl under a temporary folder, on a free
// port), for tests that stop and start the database under a running app: the machine's shared
// server must keep serving every other test. PostgreSQL refuses to run as root, so on this
// Debian machine its files belong to the "postgres" account and its commands run as it.
import { chmodSync, chownSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { freePort } from "./ports.ts";

const BIN = "/usr/lib/postgresql/15/bin";

export interface OwnPostgres {
  /** DATABASE_URL of its database "chat". */
  url: string;
  /**
   * pg_ctl stop / start, waited for without blocking: the test's own load, sockets and timers go on
   * meanwhile (a synchronous wait froze them, so a request's 15 s limit could run out during a
   * slow start on a loaded machine and count as the app's failure).
   */
  stop(): Promise<void>;
  start(): Promise<void>;
  /** Its server log's last lines (what it said of a refusal the app passed on). */
  logTail(lines?: number): string;
  /** Stops it and removes its files. */
  remove(): void;
}

const asAccount = (cmd: string[], asPostgres: boolean) => (asPostgres && process.getuid?.() === 0 ? ["runuser", "-u", "postgres", "--", ...cmd] : cmd);

/** For the set-up and removal, when nothing else of the test runs. */
function sh(cmd: string[], asPostgres: boolean): void {
  const done = Bun.spawnSync(asAccount(cmd, asPostgres), { stdout: "pipe", stderr: "pipe" });
  if (done.exitCode !== 0) throw new Error(`${cmd.join(" ")}: ${done.stderr.toString().trim() || done.stdout.toString().trim()}`);
}

async function shWhileRunning(cmd: string[], asPostgres: boolean): Promise<void> {
  const child = Bun.spawn(asAccount(cmd, asPostgres), { stdout: "pipe", stderr: "pipe" });
  const [code, out, err] = await Promise.all([child.exited, new Response(child.stdout).text(), new Response(child.stderr).text()]);
  if (code !== 0) throw new Error(`${cmd.join(" ")}: ${err.trim() || out.trim()}`);
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
  const startCommand = [`${BIN}/pg_ctl`, "-D", data, "-o", options, "-l", join(dir, "log"), "-w", "-t", "60", "start"];
  const stopCommand = [`${BIN}/pg_ctl`, "-D", data, "-m", "fast", "-w", "-t", "60", "stop"];
  sh(startCommand, true);
  sh(["psql", `postgres://root@127.0.0.1:${port}/postgres`, "-qc", "CREATE DATABASE chat"], false);
  return {
    url: `postgres://root@127.0.0.1:${port}/chat`,
    stop: () => shWhileRunning(stopCommand, true),
    start: () => shWhileRunning(startCommand, true),
    logTail: (lines = 20) => {
      try {
        return readFileSync(join(dir, "log"), "utf8").split("\n").slice(-lines).join("\n");
      } catch {
        return "(no log)";
      }
    },
    remove() {
      try {
        sh(stopCommand, true);
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
