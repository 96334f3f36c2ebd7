// Run by `npm test` before any suite: what the suites need is there, or is installed now (Debian,
// root), or the run stops at once with one line saying what is missing and how to fix it.
import { existsSync } from "node:fs";
import { plan, type Machine } from "./plan.ts";
import { REQUIREMENTS, type Requirement } from "./requirements.ts";

const present = (r: Requirement) => r.paths.every((path) => existsSync(path));

function thisMachine(): Machine {
  return { root: process.getuid?.() === 0, apt: Bun.which("apt-get") !== null };
}

async function apt(args: string[]): Promise<void> {
  const proc = Bun.spawn(["apt-get", ...args], {
    env: { ...process.env, DEBIAN_FRONTEND: "noninteractive" },
    stdout: "ignore",
    stderr: "inherit",
  });
  if ((await proc.exited) !== 0) throw new Error(`apt-get ${args.join(" ")} failed`);
}

/** True when the machine is ready; false after printing the one line that says why not. */
export async function ensureMachine(parts: ReadonlySet<Requirement["for"]>): Promise<boolean> {
  const needed = REQUIREMENTS.filter((r) => parts.has(r.for));
  const decision = plan(needed.filter((r) => !present(r)), thisMachine());
  if (decision.kind === "ready") return true;
  if (decision.kind === "stop") {
    console.error(decision.line);
    return false;
  }
  console.log(`Installing ${decision.names.join(" and ")} for the tests (apt-get install ${decision.packages.join(" ")})`);
  try {
    await apt(["update", "-qq"]);
    await apt(["install", "-y", "-qq", ...decision.packages]);
  } catch (error) {
    console.error(`Could not install ${decision.names.join(", ")}: ${(error as Error).message}. Try: apt-get update && apt-get install -y ${decision.packages.join(" ")}`);
    return false;
  }
  const still = needed.filter((r) => !present(r));
  if (still.length === 0) return true;
  console.error(`Still missing after apt-get: ${still.map((r) => r.name).join(", ")} (${still.flatMap((r) => r.paths).join(", ")})`);
  return false;
}
