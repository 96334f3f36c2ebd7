// The classic build (scripts/client-targets.ts says why it exists): each page script as one plain
// script for the minimum browsers' language level, every island and lazy part inlined (esbuild
// turns `import()` into an inlined module when the format is not ESM), plus the small loader
// (islands/legacy/boot.ts) that pages name after their module scripts. Only browsers where the
// module build did not run fetch these files; CSS is left out, the pages link the module build's.
import { build, type Plugin } from "esbuild";
import { basename, join } from "node:path";
import { guardRegexLiterals, LOWERING_TAG, MIN_BROWSERS } from "./client-targets.ts";

export interface LegacyOutput {
  /** Page script name -> written file path. */
  scripts: Record<string, string>;
  boot: string;
  files: { path: string; contents: Uint8Array }[];
}

interface Options {
  root: string;
  outdir: string;
  scripts: Record<string, string>;
  define: Record<string, string>;
  /** The `island-loaders` module's source (scripts/build-client.ts). */
  islandLoaders: string;
}

function islandLoadersPlugin(contents: string): Plugin {
  return {
    name: "island-loaders",
    setup(b) {
      b.onResolve({ filter: /^island-loaders$/ }, () => ({ path: "island-loaders", namespace: "island-loaders" }));
      b.onLoad({ filter: /.*/, namespace: "island-loaders" }, () => ({ contents, loader: "ts", resolveDir: "." }));
    },
  };
}

export async function buildLegacy(options: Options): Promise<LegacyOutput> {
  const entryPoints: Record<string, string> = { "legacy-boot": join(options.root, "islands/legacy/boot.ts") };
  for (const [name, source] of Object.entries(options.scripts)) entryPoints[`${name}-legacy`] = join(options.root, source);
  const result = await build({
    entryPoints,
    absWorkingDir: options.root,
    outdir: options.outdir,
    bundle: true,
    format: "iife",
    platform: "browser",
    target: MIN_BROWSERS,
    minify: true,
    // Code may leave out what only the module build can split off (islands/chat/emoji-language.ts).
    define: { ...options.define, "process.env.CLASSIC_BUILD": "true" },
    loader: { ".css": "empty" },
    // esbuild's hash is taken before guardRegexLiterals runs: the tag covers that pass.
    entryNames: `[name]-[hash]-${LOWERING_TAG}`,
    plugins: [islandLoadersPlugin(options.islandLoaders)],
    write: false,
    logLevel: "silent",
  });
  const out: LegacyOutput = { scripts: {}, boot: "", files: [] };
  for (const file of result.outputFiles) {
    out.files.push({ path: file.path, contents: new TextEncoder().encode(guardRegexLiterals(file.text, "script")) });
    const fileName = basename(file.path);
    if (fileName.startsWith("legacy-boot-")) out.boot = file.path;
    const name = Object.keys(options.scripts).find((n) => fileName.startsWith(`${n}-legacy-`));
    if (name) out.scripts[name] = file.path;
  }
  if (!out.boot || Object.keys(out.scripts).length !== Object.keys(options.scripts).length) throw new Error("client build: the classic build is missing a file");
  return out;
}
