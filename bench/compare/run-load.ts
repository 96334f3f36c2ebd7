// Runs one load script of bench/load/ in its own process, pinned to core 1 where taskset exists,
// with its spec in a temporary file; answers the JSON line it prints last.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { LOAD_CORE, removeFolder, spawnChild, tempFolder } from "./proc.ts";

export async function runLoad<T>(script: "messages" | "sockets" | "roulette" | "history", spec: object, limitMs = 180_000): Promise<T> {
  const dir = tempFolder("webchat-load-");
  const file = join(dir, "spec.json");
  writeFileSync(file, JSON.stringify(spec));
  const child = spawnChild([...LOAD_CORE, process.execPath, join(import.meta.dir, "..", "load", `${script}.ts`), file], {});
  try {
    const exited = await Promise.race([child.proc.exited, Bun.sleep(limitMs).then(() => "timeout" as const)]);
    if (exited !== 0) throw new Error(`load ${script} ${exited === "timeout" ? `ran past ${limitMs / 1000} s` : `exited with ${exited}`}: ${child.log().trim().split("\n").slice(-6).join("\n")}`);
    const last = child.stdout().trim().split("\n").at(-1) ?? "";
    return JSON.parse(last) as T;
  } finally {
    await child.stop();
    removeFolder(dir);
  }
}
