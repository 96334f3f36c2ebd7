// Runs `npm run weight` (scripts/page-weight.ts) so `npm test` enforces the page budgets: landing
// and legal pages at most 60 KB gzipped with no React, the chat screen's initial JS at most 150 KB.
import { expect, test } from "bun:test";
import { join } from "node:path";

test("the landing, legal and chat pages stay within their weight budgets", async () => {
  const proc = Bun.spawn([process.execPath, "scripts/page-weight.ts"], { cwd: join(import.meta.dir, "..", ".."), stdout: "pipe", stderr: "pipe" });
  const [out, err, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  console.log(out.trim());
  expect(err).not.toContain("OVER BUDGET");
  expect(out).toContain("All within budget");
  expect(code).toBe(0);
}, 90_000);
