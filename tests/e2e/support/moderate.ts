// `bun scripts/moderate.ts <args>` against a running browser-suite server's data, as an operator
// would (grant a role, ban from the command line); throws unless it succeeds.
import { runModerateScript } from "../../support/moderate-script.ts";
import type { RunningServer } from "./server.ts";

export async function moderate(server: Pick<RunningServer, "dataDir">, ...args: string[]): Promise<string> {
  const { code, out, err } = await runModerateScript({ DATA_DIR: server.dataDir }, ...args);
  if (code !== 0) throw new Error(`moderate.ts ${args.join(" ")}: ${code}\n${out}${err}`);
  return out;
}
