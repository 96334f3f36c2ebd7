// A redis-server of a test's own on a free port, with nothing kept on disk, for tests that stop
// Redis and start it again empty (a restart without persistence); the machine's Redis is never
// stopped. `stop()` is kill -9; `start()` again brings up an empty server on the same port.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Subprocess } from "bun";
import { untilPrinted } from "./children.ts";

/**
 * Below Linux's ephemeral range (32768 and up): the kernel never hands these out to outgoing
 * connections, which on a busy machine took a port picked above it (a start failed with "Address
 * already in use" under a whole run beside another).
 */
const PORTS = { from: 20_000, count: 12_000 };
const pick = () => PORTS.from + Math.floor(Math.random() * PORTS.count);
/** A first start whose port a listener of another process holds tries another. */
const FIRST_START_TRIES = 5;

export class ThrowawayRedis {
  private chosen = pick();
  private started = false;
  private readonly dir = mkdtempSync(join(tmpdir(), "webchat-redis-"));
  private child: Subprocess<"ignore", "pipe", "pipe"> | null = null;

  get port(): number {
    return this.chosen;
  }

  /** Fixed once started: a restart comes back on the same port, as a restarted server does. */
  get url(): string {
    return `redis://127.0.0.1:${this.chosen}`;
  }

  /** Resolves once the server says it accepts connections. */
  async start(): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      try {
        await this.spawn();
        this.started = true;
        return;
      } catch (error) {
        if (this.started || attempt === FIRST_START_TRIES || !/Address already in use/.test(String(error))) throw error;
        this.chosen = pick();
      }
    }
  }

  private async spawn(): Promise<void> {
    const child = Bun.spawn(["redis-server", "--port", String(this.port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no", "--dir", this.dir], {
      stdout: "pipe",
      stderr: "pipe",
    });
    this.child = child;
    await untilPrinted(child.stdout, "Ready to accept connections", `redis-server on ${this.port}`);
  }

  /** kill -9: gone at once, with everything it held. */
  async stop(): Promise<void> {
    const child = this.child;
    this.child = null;
    child?.kill(9);
    await child?.exited;
  }

  /** After the test: the server stopped and its folder removed. */
  async remove(): Promise<void> {
    await this.stop();
    rmSync(this.dir, { recursive: true, force: true });
  }
}
