// Bundles the browser code into public/build/ with hashed names, gzip copies and a manifest the
// server reads (src/pages/assets/manifest.ts):
//   - islands/client.ts: the island bootstrap (React); each islands/<Name>.tsx becomes a chunk
//     loaded by dynamic import only on pages that carry that island;
//     the emoji picker's names in each language it has them in are lazy chunks of their own too
//     (islands/chat/emoji-language.ts);
//   - islands/enhance/auth.ts, consent.ts and offline.ts: the small no-React page scripts;
//   - the app icons and the service worker (scripts/build-pwa.ts, issue 26);
//   - public/styles/*.css;
//   - islands/nudity/worker.ts (issue 12): the nudity classifier's worker, built first as one file
//     (TensorFlow.js and the model inside it, about 1 MB gzipped); the island code learns its
//     hashed URL through `process.env.NUDITY_WORKER_URL`, so it is fetched only when roulette
//     starts or a picture needs a look, and cached for a year like every hashed file.
//   - the three .wasm builds of @tensorflow/tfjs-backend-wasm (issue 21), copied under names that
//     carry their content hash; the worker is built knowing their URLs (`NUDITY_WASM_PATHS`), so
//     tfjs fetches them from here, never from a CDN;
//   - every JavaScript and CSS file is then lowered to the spec's minimum browsers (Chrome 72,
//     Firefox 59) in place (the worker only to the browsers that have module workers), and a classic build of the page scripts is written for the browsers the
//     module build cannot run in (scripts/client-targets.ts, scripts/client-legacy.ts).
// The island loader map is generated here from the island files that exist, so adding an island
// is adding a file, and the build never fails for an island that is not written yet.
import type { BunPlugin } from "bun";
import { copyFileSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { basename, join, relative } from "node:path";
import { buildLegacy } from "./client-legacy.ts";
import { buildIcons, buildServiceWorker } from "./build-pwa.ts";
import { LOWERING_TAG, lowerCss, lowerModule, lowerWorker } from "./client-targets.ts";
import type { WasmPaths } from "../islands/nudity/backends.ts";
import { BUILD_DIR, BUILD_URL, MANIFEST_FILE, type Manifest, type ScriptAsset } from "../src/pages/assets/manifest.ts";

const root = join(import.meta.dir, "..");
const islandsDir = join(root, "islands");
const scripts = { client: "islands/client.ts", auth: "islands/enhance/auth.ts", consent: "islands/enhance/consent.ts", offline: "islands/enhance/offline.ts" };
const workerEntry = "islands/nudity/worker.ts";
const styles = { base: "public/styles/base.css", site: "public/styles/site.css", mod: "public/styles/mod.css" };

/** islands/<Name>.tsx files: one default-exported component each. */
export const islandNames = (): string[] =>
  readdirSync(islandsDir)
    .filter((f) => /^[A-Z][A-Za-z0-9]*\.tsx$/.test(f))
    .map((f) => f.slice(0, -4))
    .sort();

/** `import { islandLoaders } from "island-loaders"` in islands/client.ts resolves to this map. */
const islandLoadersSource = (names: string[]) =>
  `export const islandLoaders = {\n${names.map((n) => `  ${n}: () => import(${JSON.stringify(join(islandsDir, `${n}.tsx`))}),`).join("\n")}\n};\n`;

function islandLoadersPlugin(names: string[]): BunPlugin {
  const contents = islandLoadersSource(names);
  return {
    name: "island-loaders",
    setup(build) {
      build.onResolve({ filter: /^island-loaders$/ }, () => ({ path: "island-loaders", namespace: "island-loaders" }));
      build.onLoad({ filter: /.*/, namespace: "island-loaders" }, () => ({ contents, loader: "ts" }));
    },
  };
}

type Outputs = NonNullable<Bun.BuildOutput["metafile"]>["outputs"];

const url = (outputPath: string) => BUILD_URL + basename(outputPath);

/** An output plus every chunk it imports statically, transitively (what must load before it runs). */
function scriptAsset(outputs: Outputs, key: string): ScriptAsset {
  const preload = new Set<string>();
  const visit = (k: string) => {
    for (const imp of outputs[k]?.imports ?? []) {
      if (imp.kind !== "import-statement" || preload.has(imp.path) || imp.path === key) continue;
      preload.add(imp.path);
      visit(imp.path);
    }
  };
  visit(key);
  const css = [key, ...preload].map((k) => outputs[k]?.cssBundle).filter((c): c is string => Boolean(c));
  return { file: url(key), preload: [...preload].map(url), css: [...new Set(css)].map(url) };
}

const production = { "process.env.NODE_ENV": '"production"' };

const wasmDir = join(root, "node_modules", "@tensorflow", "tfjs-backend-wasm", "dist");
const wasmFiles = ["tfjs-backend-wasm.wasm", "tfjs-backend-wasm-simd.wasm", "tfjs-backend-wasm-threaded-simd.wasm"] as const satisfies (keyof WasmPaths)[];

/** The .wasm files under their content hash (a new tfjs version is a new name): URLs by tfjs' own names. */
function copyWasm(): { paths: WasmPaths; files: string[] } {
  const paths = {} as WasmPaths;
  const files: string[] = [];
  for (const name of wasmFiles) {
    const source = join(wasmDir, name);
    const hash = new Bun.CryptoHasher("sha256").update(readFileSync(source)).digest("hex").slice(0, 16);
    const file = join(BUILD_DIR, name.replace(/\.wasm$/, `-${hash}.wasm`));
    copyFileSync(source, file);
    paths[name] = url(file);
    files.push(file);
  }
  return { paths, files };
}

/** The classifier worker: one self-contained file, as a module worker cannot share the page's chunks. */
async function buildWorker(wasmPaths: WasmPaths): Promise<Bun.BuildArtifact> {
  const result = await Bun.build({
    entrypoints: [join(root, workerEntry)],
    root,
    outdir: BUILD_DIR,
    target: "browser",
    format: "esm",
    splitting: false,
    minify: true,
    define: { ...production, "process.env.NUDITY_WASM_PATHS": JSON.stringify(JSON.stringify(wasmPaths)) },
    naming: { entry: `nudity-worker-[hash]-${LOWERING_TAG}.[ext]` },
    // tfjs-core's "sideEffects" globs (dist/platforms/*.js) are not honoured by Bun's tree
    // shaking: the browser platform was dropped and tfjs failed at load ("isTypedArray").
    ignoreDCEAnnotations: true,
    throw: false,
  });
  const entry = result.outputs.find((o) => o.kind === "entry-point");
  if (!result.success || !entry) {
    for (const log of result.logs) console.error(log);
    throw new Error("client build: the nudity worker failed");
  }
  return entry;
}

export async function buildClient(): Promise<Manifest> {
  const names = islandNames();
  mkdirSync(BUILD_DIR, { recursive: true });
  const wasm = copyWasm();
  const worker = await buildWorker(wasm.paths);
  const workerUrl = url(worker.path);
  const define = { ...production, "process.env.NUDITY_WORKER_URL": JSON.stringify(workerUrl) };
  // esbuild runs in its own process: the classic build goes on while Bun builds the modules.
  const legacyBuild = buildLegacy({ root, outdir: BUILD_DIR, scripts, define, islandLoaders: islandLoadersSource(names) });
  // Handled here too, so a failed module build below is the error reported, not this one's.
  legacyBuild.catch(() => undefined);
  const result = await Bun.build({
    entrypoints: [...Object.values(scripts), ...Object.values(styles)].map((p) => join(root, p)),
    root,
    outdir: BUILD_DIR,
    target: "browser",
    format: "esm",
    splitting: true,
    minify: true,
    // Without NODE_ENV React stays in development mode, twice the size (STACK-NOTES).
    // CLASSIC_BUILD: see scripts/client-legacy.ts.
    define: { ...define, "process.env.CLASSIC_BUILD": "false" },
    // The lowering's tag in every name: see LOWERING_TAG.
    naming: { entry: `[name]-[hash]-${LOWERING_TAG}.[ext]`, chunk: `chunk-[hash]-${LOWERING_TAG}.[ext]`, asset: `[name]-[hash]-${LOWERING_TAG}.[ext]` },
    plugins: [islandLoadersPlugin(names)],
    metafile: true,
    throw: false,
  });
  if (!result.success || !result.metafile) {
    for (const log of result.logs) console.error(log);
    throw new Error("client build failed");
  }
  const outputs = result.metafile.outputs;
  // A JS entry's CSS bundle names the same entry point: map each entry to its own kind of file.
  const byEntry = new Map<string, string>();
  for (const [key, out] of Object.entries(outputs)) {
    if (out.entryPoint && key.endsWith(".css") === out.entryPoint.endsWith(".css")) byEntry.set(out.entryPoint, key);
  }
  const keyOf = (source: string) => {
    const key = byEntry.get(source) ?? byEntry.get(relative(root, join(root, source)));
    if (!key) throw new Error(`client build: no output for ${source}`);
    return key;
  };

  const legacy = await legacyBuild;

  const manifest: Manifest = { scripts: {}, styles: {}, islands: {}, workers: { nudity: workerUrl }, wasm: wasm.paths };
  for (const [name, source] of Object.entries(scripts)) manifest.scripts[name] = scriptAsset(outputs, keyOf(source));
  for (const [name, source] of Object.entries(styles)) manifest.styles[name] = url(keyOf(source));
  for (const name of names) manifest.islands[name] = scriptAsset(outputs, keyOf(`islands/${name}.tsx`));
  manifest.legacy = { boot: url(legacy.boot), scripts: Object.fromEntries(Object.entries(legacy.scripts).map(([name, path]) => [name, url(path)])) };

  // Precompressed copies: the server sends file.gz to clients that accept gzip.
  const written = new Set(["manifest.json"]);
  const files = [...result.outputs, worker].map((o) => o.path);
  // All at once: esbuild's service runs them in parallel.
  await Promise.all(
    files.map(async (path) => {
      const code = readFileSync(path, "utf8");
      if (path === worker.path) writeFileSync(path, await lowerWorker(code));
      else if (path.endsWith(".js")) writeFileSync(path, await lowerModule(code));
      else if (path.endsWith(".css")) writeFileSync(path, await lowerCss(code));
    }),
  );
  for (const { path, contents } of legacy.files) writeFileSync(path, contents);
  for (const path of [...files, ...wasm.files, ...legacy.files.map((f) => f.path)]) {
    const file = basename(path);
    writeFileSync(`${path}.gz`, Bun.gzipSync(readFileSync(path), { level: 9 }));
    written.add(file).add(`${file}.gz`);
  }
  // Icons and the service worker (issue 26), which lists the files above to keep offline.
  manifest.icons = await buildIcons(root, BUILD_DIR);
  for (const file of Object.values(manifest.icons)) written.add(file);
  const serviceWorker = await buildServiceWorker(root, BUILD_DIR, manifest, BUILD_URL);
  manifest.serviceWorker = serviceWorker.version;
  written.add(serviceWorker.file);
  // Rename last, so a running server never reads a half-written manifest.
  writeFileSync(`${MANIFEST_FILE}.tmp`, JSON.stringify(manifest, null, 2));
  renameSync(`${MANIFEST_FILE}.tmp`, MANIFEST_FILE);
  // Same sources give the same hashes, so a rebuild removes only files no manifest names now.
  for (const file of readdirSync(BUILD_DIR)) if (!written.has(file)) rmSync(join(BUILD_DIR, file), { force: true });
  return manifest;
}

if (import.meta.main) {
  const started = performance.now();
  const manifest = await buildClient();
  const islands = Object.keys(manifest.islands);
  console.log(
    `client build: ${Object.keys(manifest.scripts).length} scripts, ${Object.keys(manifest.styles).length} stylesheets, ` +
      `islands [${islands.join(", ") || "none yet"}] in ${Math.round(performance.now() - started)} ms -> public/build/`,
  );
}
