// A redis-server of a test's own on a free port, with nothing kept on disk, for tests that stop
// Redis and start it again empty (a restart without persistence); the machine's Redis is never
// stopped. `stop()` is kill -9; `start()` again brings up an empty server on the same port.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Subprocess } from "bun";

export class ThrowawayRedis {
  readonly port = 20_000 + Math.floor(Math.random() * 20_000);
  readonly url = `redis://127.0.0.1:${this.port}`;
  private readonly dir = mkdtempSync(join(tmpdir(), "webchat-redis-"));
  private child: Subprocess<"ignore", "pipe", "pipe"> | null = null;

  /** Resolves once the server says it accepts connections. */
  async start(): Promise<void> {
    const child = Bun.spawn(["redis-server", "--port", String(this.port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no", "--dir", this.dir], {
      stdout: "pipe",
      stderr: "pipe",
    });
    this.child = child;
    const reader = child.stdout.getReader();
    let out = "";
    while (!out.includes("Ready to accept connections")) {
      const { value, done } = await reader.read();
      if (done) throw new Error(`redis-server on ${this.port} did not start: ${out}`);
      out += new TextDecoder().decode(value);
    }
    reader.releaseLock();
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
