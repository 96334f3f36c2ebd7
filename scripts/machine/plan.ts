// The decision, kept apart from doing it so a test can check it on any machine: given what is
// missing and what this machine can do about it, install with apt-get, or stop with one line that
// names what is missing and the command that fixes it.
import type { Requirement } from "./requirements.ts";

export interface Machine {
  /** Root can run apt-get without asking anyone. */
  root: boolean;
  /** apt-get is on this machine (Debian and its kin). */
  apt: boolean;
}

export type Plan =
  | { kind: "ready" }
  | { kind: "install"; packages: string[]; names: string[] }
  | { kind: "stop"; line: string };

export function plan(missing: readonly Requirement[], machine: Machine): Plan {
  if (missing.length === 0) return { kind: "ready" };
  const packages = [...new Set(missing.flatMap((r) => r.debian))];
  const names = missing.map((r) => r.name);
  if (machine.apt && machine.root) return { kind: "install", packages, names };
  const what = `Missing for the tests: ${names.join(", ")}.`;
  if (machine.apt) return { kind: "stop", line: `${what} Install with: sudo apt-get update && sudo apt-get install -y ${packages.join(" ")}` };
  return { kind: "stop", line: `${what} This is not a Debian machine: install ${names.join(" and ")} with its package manager (Debian: apt-get install -y ${packages.join(" ")}).` };
}
