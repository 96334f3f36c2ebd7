// Issue 18 item 7 as it was found: three 101 MB JSON bodies at once to PUT /api/users/profile,
// first without a token, then signed in, against the server as `npm start` runs it (a child
// process), with its resident set size read from /proc after each round.
//   bun bench/body-flood.ts
import { readFileSync } from "node:fs";
import { removeFolder, tempFolder } from "./compare/proc.ts";

const dir = tempFolder("webchat-body-flood-");
const probe = Bun.serve({ port: 0, fetch: () => new Response() });
const port = probe.port!;
probe.stop(true);
const url = `http://127.0.0.1:${port}`;
const proc = Bun.spawn([process.execPath, "src/server.ts"], {
  cwd: `${import.meta.dir}/..`,
  env: { ...process.env, PORT: String(port), HOST: "127.0.0.1", DATA_DIR: dir, JWT_SECRET: "", LOG_LEVEL: "error" },
  stdout: "ignore",
  stderr: "ignore",
});
const rssMb = () => (Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${proc.pid}/status`, "utf8"))?.[1]) / 1024).toFixed(1);

try {
  for (let i = 0; i < 150 && !(await fetch(`${url}/healthz`).then((r) => r.ok, () => false)); i++) await Bun.sleep(100);
  const guest = (await (await fetch(`${url}/api/guest/create`, { method: "POST", headers: { "content-type": "application/json" }, body: '{"gender":"female","adult":true}' })).json()) as { data: { token: string } };
  const body = new Uint8Array(101 * 1024 * 1024).fill(0x20);
  body[0] = 0x7b; // "{" ... "}": valid JSON, all whitespace
  body[body.length - 1] = 0x7d;
  console.log(`RSS at rest: ${rssMb()} MB`);
  for (const [label, headers] of [["without a token", {}], ["signed in", { authorization: `Bearer ${guest.data.token}` }]] as const) {
    const started = performance.now();
    const statuses = await Promise.all(
      [1, 2, 3].map(() => fetch(`${url}/api/users/profile`, { method: "PUT", headers: { "content-type": "application/json", ...headers }, body }).then((r) => r.status, (e: Error) => e.message)),
    );
    console.log(`${label}: ${statuses.join(", ")} in ${(performance.now() - started).toFixed(0)} ms; RSS ${rssMb()} MB`);
  }
} finally {
  proc.kill("SIGKILL");
  await proc.exited;
  removeFolder(dir);
}
