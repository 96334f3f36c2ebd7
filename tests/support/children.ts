// Child processes of a test other than the app's server (server-process.ts): waiting until one
// says it is ready, and stopping one politely, then firmly.

/** Reads `stdout` until `text` has appeared in it; `who` names the child if it ends first. */
export async function untilPrinted(stdout: ReadableStream<Uint8Array>, text: string, who: string): Promise<void> {
  const reader = stdout.getReader();
  const decoder = new TextDecoder();
  let out = "";
  try {
    while (!out.includes(text)) {
      const { value, done } = await reader.read();
      if (done) throw new Error(`${who} ended before it printed "${text}": ${out}`);
      out += decoder.decode(value, { stream: true });
    }
  } finally {
    reader.releaseLock();
  }
}

/**
 * `bun <script>` with `env` added to this process's, once it printed "ready": a fixture that plays
 * one instance of the cluster in a process of its own, for tests that kill it with SIGKILL. Its
 * stderr is the test's.
 */
export async function spawnReady(script: string, env: Record<string, string>): Promise<Bun.Subprocess<"ignore", "pipe", "inherit">> {
  const child = Bun.spawn([process.execPath, script], { env: { ...process.env, ...env }, stdin: "ignore", stdout: "pipe", stderr: "inherit" });
  try {
    await untilPrinted(child.stdout, "ready", script);
  } catch (error) {
    child.kill(9);
    throw error;
  }
  return child;
}

/** SIGTERM, then SIGKILL if it is still running `graceMs` later; resolves once it has ended. */
export async function stopChild(child: Bun.Subprocess, graceMs = 3_000): Promise<void> {
  child.kill("SIGTERM");
  const killer = setTimeout(() => child.kill("SIGKILL"), graceMs);
  await child.exited;
  clearTimeout(killer);
}
