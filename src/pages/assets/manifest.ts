// The client build's manifest (written by scripts/build-client.ts into public/build/), read by
// the pages to link hashed CSS and JS. Re-read when the file changes, so a rebuild needs no
// restart; a missing manifest renders pages without assets instead of failing.
import { existsSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";

/** One script and what it needs at once: chunks it imports statically, CSS it imports. */
export interface ScriptAsset {
  file: string;
  preload: string[];
  css: string[];
}

export interface Manifest {
  /** Page scripts by name: `client` (island bootstrap), `auth`, `consent`. */
  scripts: Record<string, ScriptAsset>;
  /** Stylesheets by name: `base` (every page), `site` (landing, legal, 404). */
  styles: Record<string, string>;
  /** Island chunks by component name (islands/<Name>.tsx). */
  islands: Record<string, ScriptAsset>;
  /** Worker scripts by name (`nudity`, the classifier): loaded by island code, never by a page. */
  workers?: Record<string, string>;
  /** The classifier's .wasm files by tfjs-backend-wasm's own names: the worker fetches these URLs. */
  wasm?: Record<string, string>;
  /**
   * The classic build for browsers the module build does not run in (Firefox 59-66): `boot` is
   * named after a page's module scripts and loads `scripts[name]` for each that did not run.
   */
  legacy?: { boot: string; scripts: Record<string, string> };
  /** The app icons' file names under /build/ (scripts/build-pwa.ts): icon192, icon512, maskable512, apple180. */
  icons?: Record<string, string>;
  /** The service worker's build id (public/build/sw.js, served at /sw.js). */
  serviceWorker?: string;
}

export const BUILD_DIR = join(import.meta.dir, "..", "..", "..", "public", "build");
export const MANIFEST_FILE = join(BUILD_DIR, "manifest.json");
/** URL prefix the build writes into the manifest and the server serves. */
export const BUILD_URL = "/build/";

const empty: Manifest = { scripts: {}, styles: {}, islands: {} };
let cached: { mtimeMs: number; manifest: Manifest } | null = null;

export function readManifest(): Manifest {
  if (!existsSync(MANIFEST_FILE)) return empty;
  const { mtimeMs } = statSync(MANIFEST_FILE);
  if (cached?.mtimeMs !== mtimeMs) cached = { mtimeMs, manifest: JSON.parse(readFileSync(MANIFEST_FILE, "utf8")) as Manifest };
  return cached.manifest;
}
