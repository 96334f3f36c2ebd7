// Every file the client build emits parses at the language level of the spec's minimum browsers,
// Chrome 72 and Firefox 59 (README "Older browsers"). Builds once (a few seconds).
//   - Classic-build files (what Firefox 59-66 run): ES2019 scripts. ES2019 syntax is ES2018 plus
//     the optional catch binding, which both browsers have (Chrome 66, Firefox 58).
//   - Module-build files: ES2019 modules plus the two ES2020 pieces the module design needs, import()
//     and import.meta (Chrome 63/64; the Firefox versions that run module scripts with import(), 67+,
//     have both). Nothing else from ES2020 on: no `?.`, `??`, BigInt, `export * as`.
//   - Stylesheets: a plain fallback before every min(), max(), clamp() and dvh (see the test).
//   - The nudity classifier's worker, only ever started as a module worker (Chrome 80, Firefox 114,
//     Safari 15): an ES2020 module. The minimum browsers never run it.
//   - In both: no regular expression feature Firefox 59 lacks (lookbehind, named groups, the s flag,
//     Unicode property escapes all came in Firefox 78), and no raw U+2028/U+2029 (Firefox 62).
import { beforeAll, describe, expect, test } from "bun:test";
import { parse, type Node } from "acorn";
import { full } from "acorn-walk";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { buildClient } from "../../scripts/build-client.ts";
import type { Manifest } from "../../src/pages/assets/manifest.ts";

const publicDir = join(import.meta.dir, "..", "..", "public");
let manifest: Manifest;
let moduleFiles: string[] = [];

beforeAll(async () => {
  manifest = await buildClient();
  const dir = join(publicDir, "build");
  const legacy = new Set(Object.values(manifest.legacy?.scripts ?? {}).concat(manifest.legacy?.boot ?? []).map((u) => u.replace("/build/", "")));
  moduleFiles = [...new Bun.Glob("*.js").scanSync(dir)].filter((f) => !legacy.has(f) && !f.startsWith("nudity-worker-")).sort();
}, 120_000);

const read = (url: string) => readFileSync(join(publicDir, url), "utf8");

/** What at the minimum browsers' level is wrong in `code`, as short descriptions. */
function tooNew(code: string, kind: "module" | "classic" | "worker"): string[] {
  const found = new Set<string>();
  let ast: Node;
  try {
    ast = parse(code, { ecmaVersion: kind === "classic" ? 2019 : 2020, sourceType: kind === "classic" ? "script" : "module" });
  } catch (error) {
    return [`does not parse: ${(error as Error).message}`];
  }
  full(ast, (node) => {
    const n = node as Node & { operator?: string; bigint?: string; regex?: { pattern: string; flags: string }; exported?: unknown };
    if (kind === "worker") return;
    if (n.type === "ChainExpression") found.add("optional chaining (?.)");
    if (n.type === "LogicalExpression" && n.operator === "??") found.add("nullish coalescing (??)");
    if (n.type === "Literal" && n.bigint !== undefined) found.add("BigInt literal");
    if (n.type === "ExportAllDeclaration" && n.exported) found.add("export * as");
    if (n.type === "Literal" && n.regex) {
      const { pattern, flags } = n.regex;
      if (flags.includes("s")) found.add(`regex s flag: /${pattern}/${flags}`);
      if (/\(\?<[=!]/.test(pattern)) found.add(`regex lookbehind: /${pattern}/`);
      if (/\(\?<[A-Za-z$_]|\\k</.test(pattern)) found.add(`regex named group: /${pattern}/`);
      if (flags.includes("u") && /\\[pP]\{/.test(pattern)) found.add(`regex property escape: /${pattern}/`);
    }
  });
  if (kind !== "worker" && /[\u2028\u2029]/.test(code)) found.add("raw U+2028/U+2029");
  return [...found];
}

describe("the bundles on the minimum browsers (Chrome 72, Firefox 59)", () => {
  test("every module-build chunk and entry parses as ES2019 plus import() and import.meta", () => {
    expect(moduleFiles.length).toBeGreaterThan(5);
    expect(moduleFiles.some((f) => f.startsWith("client-"))).toBe(true);
    const problems = moduleFiles.flatMap((file) => tooNew(read(`/build/${file}`), "module").map((p) => `${file}: ${p}`));
    expect(problems).toEqual([]);
  });

  test("the nudity worker parses as ES2020, what every browser with module workers has", () => {
    const worker = manifest.workers?.nudity;
    expect(worker).toBeDefined();
    expect(tooNew(read(worker!), "worker")).toEqual([]);
  });

  test("the classic build of every page script, and its loader, parse as ES2019 scripts", () => {
    const legacy = manifest.legacy;
    expect(legacy).toBeDefined();
    expect(Object.keys(legacy?.scripts ?? {}).sort()).toEqual(Object.keys(manifest.scripts).sort());
    for (const url of [legacy!.boot, ...Object.values(legacy!.scripts)]) expect({ url, problems: tooNew(read(url), "classic") }).toEqual({ url, problems: [] });
  });

  test("the classic build inlines every island, so it never needs import()", () => {
    const client = read(manifest.legacy!.scripts.client!);
    expect(client).not.toMatch(/\bimport\s*\(/);
    // The island's own words are in the one file.
    expect(client).toContain("data-island");
  });

  test("every stylesheet gives a plain fallback before each min(), max(), clamp() and dynamic viewport unit", () => {
    // Chrome 72 and Firefox 59 drop such a declaration (min/max/clamp: Chrome 79, Firefox 75; dvh:
    // Chrome 108): an earlier one of the same property in the same rule is what they use instead.
    const newer = /(^|[^a-z-])(min|max|clamp)\(|\d(dvh|svh|lvh)\b/;
    const missing: string[] = [];
    const sheets = [...Object.values(manifest.styles), ...Object.values(manifest.islands).flatMap((i) => i.css)];
    expect(sheets.length).toBeGreaterThan(3);
    for (const url of sheets) {
      for (const [, body] of read(url).matchAll(/\{([^{}]*)\}/g)) {
        const seen = new Set<string>();
        for (const declaration of body!.split(";")) {
          const colon = declaration.indexOf(":");
          const property = declaration.slice(0, colon).trim();
          const value = declaration.slice(colon + 1);
          if (colon > 0 && newer.test(value) && !seen.has(property)) missing.push(`${url}: ${declaration.trim()}`);
          if (colon > 0 && !newer.test(value)) seen.add(property);
        }
      }
    }
    expect(missing).toEqual([]);
  });

  test("the checker itself refuses what the minimum browsers cannot parse", () => {
    expect(tooNew("a?.b", "module")).toEqual(["optional chaining (?.)"]);
    expect(tooNew("a ?? b", "module")).toEqual(["nullish coalescing (??)"]);
    expect(tooNew("a ??= b", "module")[0]).toContain("does not parse");
    expect(tooNew("class A { x = 1 }", "module")[0]).toContain("does not parse");
    expect(tooNew("import('x')", "classic")[0]).toContain("does not parse");
    expect(tooNew("/(?<=a)b/", "classic")).toEqual(["regex lookbehind: /(?<=a)b/"]);
    expect(tooNew("import('x'); import.meta.url; try {} catch {}", "module")).toEqual([]);
  });
});
