// `npm test`: type-check, then the fast suites (unit, HTTP, socket, component), then the browser
// suites (tests/e2e/*.e2e.ts, real Chromium). Ends with one line "N passed, N failed".
import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { ensureMachine } from "./machine/ensure.ts";
import { ensurePostgres } from "./machine/postgres.ts";
import { preparePostgresRun } from "./machine/pg-run.ts";
import { ensureRedis } from "./machine/redis.ts";

const root = join(import.meta.dir, "..");
let passed = 0;
let failed = 0;
/** Why a pass failed without a failing test (its process exited non-zero, or it printed a stack trace). */
const broken: string[] = [];
const breaks = (reason: string) => {
  broken.push(reason);
  console.log(`=== ${reason}`);
};
/** Every failing test's line, "(fail) describe > name", with the pass it ran in: repeated at the end. */
const failures: string[] = [];

async function run(label: string, cmd: string[], env: Record<string, string> = {}): Promise<string> {
  console.log(`\n=== ${label}: ${cmd.join(" ")}`);
  const proc = Bun.spawn(cmd, { cwd: root, stdout: "pipe", stderr: "pipe", env: { ...process.env, ...env } });
  let output = "";
  const pump = async (stream: ReadableStream<Uint8Array>, sink: NodeJS.WriteStream) => {
    const decoder = new TextDecoder();
    for await (const chunk of stream) {
      const text = decoder.decode(chunk);
      output += text;
      sink.write(text);
    }
  };
  await Promise.all([pump(proc.stdout, process.stdout), pump(proc.stderr, process.stderr)]);
  const code = await proc.exited;
  if (code !== 0) breaks(`${label} exited with ${code}${errorsBetweenTests(output)}`);
  return output;
}

/** bun exits 1 with "0 fail" when an error escaped between tests: what it was and where it came from. */
function errorsBetweenTests(output: string): string {
  const count = /^\s*(\d+) errors?\s*$/m.exec(output)?.[1];
  if (!count) return "";
  const blocks = [...output.matchAll(/^# Unhandled error between tests$\n(?:.*\n){0,20}/gm)].map((m) => m[0].split("\n"));
  const said = blocks.map((lines) => {
    const message = lines.find((l) => /^(\w*Error|error)\b[^|]*:/.test(l))?.trim() ?? "";
    const frame = lines.find((l) => STACK_FRAME.test(l))?.trim() ?? "";
    return [message, frame].filter(Boolean).join(" ");
  });
  return ` (${count} error${count === "1" ? "" : "s"} between tests${said.length ? `: ${said.join(" | ")}` : ""})`;
}

/** A stack frame as bun prints one: "      at parseError (/path/api.ts:37:10)". */
const STACK_FRAME = /^\s+at .+:\d+:\d+\)?$/m;

/**
 * What bun printed for a failing test: the lines back to the test before it (the failed
 * expectation, where, and what the test logged), without the quoted source, at most 12; and a
 * timeout, which bun prints after the test's line.
 */
function whyFailed(lines: string[], at: number): string {
  let start = at;
  while (start > 0 && !/^\((pass|fail|skip|todo)\) |^\S+\.(test|e2e)\.tsx?:$/.test(lines[start - 1]!)) start--;
  const before = lines.slice(start, at).filter((l) => l.trim() !== "" && !/^\s*\d+ \| |^\s*\^\s*$/.test(l));
  const after = lines[at + 1]?.startsWith("  ^ ") ? [lines[at + 1]!.trim()] : [];
  return [...before.slice(-12), ...after].map((l) => `    ${l.trim().slice(0, 300)}`).join("\n");
}

function count(label: string, output: string) {
  const pass = /^\s*(\d+) pass\s*$/m.exec(output);
  const fail = /^\s*(\d+) fail\s*$/m.exec(output);
  passed += Number(pass?.[1] ?? 0);
  failed += Number(fail?.[1] ?? 0);
  // bun prints a failing test twice (where it ran and in its summary): named once here, with what
  // it printed just before the first (the failed expectation or the timeout, and where).
  const lines = output.split("\n");
  const seen = new Set<string>();
  lines.forEach((line, at) => {
    if (!line.startsWith("(fail) ") || seen.has(line)) return;
    seen.add(line);
    failures.push(`${label}: ${line}\n${whyFailed(lines, at)}`);
  });
  // A passing run should read clean: a stack trace there is an error some test let through unseen.
  if (Number(fail?.[1] ?? 0) === 0 && STACK_FRAME.test(output)) breaks(`${label} passed but printed a stack trace: ${STACK_FRAME.exec(output)![0].trim()}`);
}

const bun = process.execPath;
const only = process.argv.slice(2);

// What the suites need from the machine comes first, so a missing browser stops the run at once
// rather than after the fast suites.
const e2eWanted = only.length === 0 || only.includes("e2e");
if (!(await ensureMachine(new Set(e2eWanted ? ["all", "e2e"] : ["all"])))) process.exit(1);
// The storage tests make their own databases on the machine's PostgreSQL (tests/support/postgres.ts).
if (!(await ensurePostgres())) process.exit(1);
// The cluster tests share the machine's Redis, each under a key prefix of its own (tests/support/cluster.ts).
if (!(await ensureRedis())) process.exit(1);

if (only.length === 0) await run("type-check", [join(root, "node_modules", ".bin", "tsc"), "--noEmit", "-p", "."]);
if (only.length === 0 || only.includes("fast")) count("fast suites", await run("unit, HTTP, socket and component tests", [bun, "test", "--timeout", "20000"]));
// The same suite again with every app on PostgreSQL (issue 22), in a database made for this run.
if (only.length === 0 || only.includes("fast") || only.includes("postgres")) {
  const pg = await preparePostgresRun();
  try {
    count("fast suites on PostgreSQL", await run("the same on PostgreSQL", [bun, "test", "--timeout", "20000"], { DATABASE_URL: pg.url }));
  } finally {
    await pg.drop();
  }
}

const e2eDir = join(root, "tests", "e2e");
const e2eFiles = existsSync(e2eDir) ? readdirSync(e2eDir).filter((f) => f.endsWith(".e2e.ts")).sort() : [];
if (e2eWanted && e2eFiles.length > 0) {
  await run("client build", [bun, "scripts/build-client.ts"]);
  for (const file of e2eFiles) count(file, await run(`browser: ${file}`, [bun, "test", "--timeout", "120000", `./tests/e2e/${file}`]));
}

// A long run's log is often read from its end: the failures are repeated there by name.
if (failures.length > 0) console.log(`\nFailed:\n${failures.join("\n")}`);
if (broken.length > 0) console.log(`\nFailed without a failing test:\n${broken.join("\n")}`);
console.log(`\n${passed} passed, ${failed} failed`);
process.exit(broken.length > 0 || failed > 0 ? 1 : 0);
