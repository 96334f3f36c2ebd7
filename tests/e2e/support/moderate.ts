// `bun scripts/moderate.ts <args>` against a running test server's data, as an operator would
// (grant a role, ban from the command line).
import type { RunningServer } from "./server.ts";

export async function moderate(server: Pick<RunningServer, "dataDir">, ...args: string[]): Promise<string> {
  const proc = Bun.spawn([process.execPath, "scripts/moderate.ts", ...args], {
    cwd: `${import.meta.dir}/../../..`,
    env: { ...process.env, DATA_DIR: server.dataDir },
    stdout: "pipe",
    stderr: "pipe",
  });
  const [out, err, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  if (code !== 0) throw new Error(`moderate.ts ${args.join(" ")}: ${code}\n${out}${err}`);
  return out;
}
