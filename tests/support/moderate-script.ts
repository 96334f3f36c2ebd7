// `bun scripts/moderate.ts <args>` as an operator runs it, against a test server's data: `env`
// names the data (DATA_DIR, and on PostgreSQL the DATABASE_URL).
import { join } from "node:path";

const script = join(import.meta.dir, "..", "..", "scripts", "moderate.ts");

export async function runModerateScript(env: Record<string, string>, ...args: string[]): Promise<{ code: number; out: string; err: string }> {
  const child = Bun.spawn([process.execPath, script, ...args], { env: { ...process.env, ...env }, stdout: "pipe", stderr: "pipe" });
  const [code, out, err] = await Promise.all([child.exited, new Response(child.stdout).text(), new Response(child.stderr).text()]);
  return { code, out, err };
}
