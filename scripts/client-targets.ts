// The oldest browsers the bundles are written for (spec section 5: Chrome 72, Firefox 59), and the
// pass that lowers what Bun.build emits to their language level. Bun.build cannot lower syntax
// (it leaves `?.`, `??=`, class fields as written); esbuild's transform can, chunk by chunk, so
// Bun's splitting, hashed names and manifest stay as they are.
//
// Two language levels, because the module design itself has a floor:
//   - the module build (`<script type="module">`, chunks loaded by `import()`, `import.meta.url` in
//     Bun's preload helper) runs where modules and dynamic import do: Chrome 63+, Firefox 67+.
//     Its syntax is lowered for Chrome 72 and Firefox 59 all the same, with `import()` and
//     `import.meta` kept (no browser that parses `type="module"` without them runs this build);
//   - the classic build (islands/legacy/boot.ts loads it) is one plain script per page script,
//     every island inlined, for browsers where the module build does not run: Firefox 59 (module
//     scripts only behind a flag until 60) and Firefox 60-66 (no dynamic import).
import { parse, type Node } from "acorn";
import { simple } from "acorn-walk";
import { createHash } from "node:crypto";
import { version as esbuildVersion, transform, type TransformOptions } from "esbuild";

/** esbuild's names for the spec's minimum browsers. */
export const MIN_BROWSERS = ["chrome72", "firefox59"];

/**
 * The nudity classifier's worker is only ever started as a module worker, so only browsers with
 * module workers run it (Chrome 80, Firefox 114, Safari 15); on the minimum browsers the check is
 * unavailable (README "Older browsers"). Lowered to those, not further: Bun's own helpers in it use
 * `??=` (Chrome 85), and lowering TensorFlow.js more than needed would only cost speed.
 */
export const WORKER_BROWSERS = ["chrome80", "firefox114", "safari15"];

const moduleOptions: TransformOptions = {
  format: "esm",
  target: MIN_BROWSERS,
  // The module build's own floor (see above): these two stay, everything newer is lowered.
  supported: { "dynamic-import": true, "import-meta": true },
  minify: true,
};

/**
 * A short tag of the lowering itself (esbuild's version and options, the regex guard's code), put
 * into every hashed file name: Bun's and esbuild's hashes cover the code before this pass, so
 * without it a lowering that changed would reuse a name browsers cache for a year as immutable.
 */
export const LOWERING_TAG = createHash("sha256")
  .update(JSON.stringify({ esbuildVersion, moduleOptions, MIN_BROWSERS, WORKER_BROWSERS, guard: String(guardRegexLiterals) + String(regexTooNew) }))
  .digest("hex")
  .slice(0, 6);

/** One module-build JavaScript file, lowered. Throws on syntax esbuild cannot lower. */
export async function lowerModule(code: string): Promise<string> {
  return guardRegexLiterals((await transform(code, { ...moduleOptions, loader: "js" })).code, "module");
}

/** The classifier's worker, lowered to the browsers that can start it (WORKER_BROWSERS). */
export async function lowerWorker(code: string): Promise<string> {
  return (await transform(code, { loader: "js", format: "esm", target: WORKER_BROWSERS, minify: true })).code;
}

/** Regular expression syntax Firefox 59 lacks (all Firefox 78; Chrome 64 has it). */
export function regexTooNew(pattern: string, flags: string): string | null {
  if (flags.includes("s")) return "s flag";
  if (/\(\?<[=!]/.test(pattern)) return "lookbehind";
  if (/\(\?<[A-Za-z$_]|\\k</.test(pattern)) return "named group";
  if (flags.includes("u") && /\\[pP]\{/.test(pattern)) return "property escape";
  return null;
}

/**
 * A regex literal the minimum browsers cannot parse makes its whole file a syntax error there.
 * esbuild rewrites most of them as `new RegExp(...)` but not Unicode property escapes in a class
 * (the emoji picker's `/^[\p{L}\p{N}]$/u`), so such literals become a constructor call that
 * falls back to a regex matching nothing: that one check then never matches there (the picker's
 * type-to-search) instead of the file not loading. Files without such a literal are returned as
 * they are, unparsed.
 */
export function guardRegexLiterals(code: string, sourceType: "module" | "script"): string {
  if (!/\\[pP]\{|\(\?</.test(code)) return code;
  const edits: { start: number; end: number; text: string }[] = [];
  simple(parse(code, { ecmaVersion: "latest", sourceType }), {
    Literal(node: Node & { regex?: { pattern: string; flags: string } }) {
      if (!node.regex || !regexTooNew(node.regex.pattern, node.regex.flags)) return;
      const args = `${JSON.stringify(node.regex.pattern)},${JSON.stringify(node.regex.flags)}`;
      edits.push({ start: node.start, end: node.end, text: `(function(){try{return new RegExp(${args})}catch(e){return/(?!)/}})()` });
    },
  });
  let out = code;
  for (const edit of edits.sort((a, b) => b.start - a.start)) out = out.slice(0, edit.start) + edit.text + out.slice(edit.end);
  return out;
}

/** One stylesheet, lowered where esbuild can (e.g. `inset`, nesting, newer colour syntax). */
export async function lowerCss(code: string): Promise<string> {
  return (await transform(code, { loader: "css", target: MIN_BROWSERS, minify: true })).code;
}
