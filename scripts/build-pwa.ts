// What makes the site installable and usable offline (issue 26), written by build-client.ts
// after the main build:
//   - the app icons, drawn from the favicon's logo (public/favicon.svg) with sharp: 192 and 512
//     pixels as they are, a maskable 512 (full-bleed purple, the bubble inside the safe circle)
//     and a 180-pixel apple-touch-icon; hashed names, so they are cached like the rest;
//   - the service worker (islands/sw/sw.ts) as public/build/sw.js, served at /sw.js, with this
//     build's id and the files it keeps offline written into it: the offline page, the styles,
//     the page scripts, the islands and the chunks they import (not the classifier's worker,
//     4.7 MB, nor the classic build); lowered like the page scripts, so the oldest browsers
//     supported parse it.
import sharp from "sharp";
import { createHash } from "node:crypto";
import { readFileSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Manifest } from "../src/pages/assets/manifest.ts";
import { OFFLINE_URL } from "../islands/sw/shared.ts";
import { lowerModule } from "./client-targets.ts";

export const SW_FILE = "sw.js";
export type IconName = "icon192" | "icon512" | "maskable512" | "apple180";

const PURPLE = "#7c3aed";
/** The favicon's speech bubble with its three dots, in its 32-unit square. */
const BUBBLE = `<path d="M9 10.5h14a2.5 2.5 0 0 1 2.5 2.5v6.5A2.5 2.5 0 0 1 23 22h-7l-5 4v-4H9a2.5 2.5 0 0 1-2.5-2.5V13A2.5 2.5 0 0 1 9 10.5z" fill="#fff"/><circle cx="12" cy="16.3" r="1.4" fill="${PURPLE}"/><circle cx="16" cy="16.3" r="1.4" fill="${PURPLE}"/><circle cx="20" cy="16.3" r="1.4" fill="${PURPLE}"/>`;
/** Full bleed, the bubble scaled about the centre: for masks (the safe circle is 80% wide) and Apple. */
const fullBleed = (scale: number) =>
  `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" fill="${PURPLE}"/><g transform="translate(16 16) scale(${scale}) translate(-16 -18.25)">${BUBBLE}</g></svg>`;

export async function buildIcons(root: string, outdir: string): Promise<Record<IconName, string>> {
  const favicon = readFileSync(join(root, "public", "favicon.svg"));
  const sources: Record<IconName, [Buffer, number]> = {
    icon192: [favicon, 192],
    icon512: [favicon, 512],
    maskable512: [Buffer.from(fullBleed(1.1)), 512],
    apple180: [Buffer.from(fullBleed(1.2)), 180],
  };
  const out = {} as Record<IconName, string>;
  for (const [name, [svg, size]] of Object.entries(sources) as [IconName, [Buffer, number]][]) {
    const png = await sharp(svg, { density: Math.ceil((72 * size) / 32) }).resize(size, size).png({ compressionLevel: 9 }).toBuffer();
    const file = `${name}-${createHash("sha256").update(png).digest("hex").slice(0, 10)}.png`;
    writeFileSync(join(outdir, file), png);
    out[name] = file;
  }
  return out;
}

/** What the worker keeps: the offline page and the files any page of the site needs at once. */
export function precacheList(manifest: Manifest, buildUrl: string): string[] {
  const assets = [...Object.values(manifest.scripts), ...Object.values(manifest.islands)];
  const files = [
    ...Object.entries(manifest.styles).filter(([name]) => name !== "mod").map(([, url]) => url),
    ...assets.flatMap((a) => [a.file, ...a.preload, ...a.css]),
    ...Object.values(manifest.icons ?? {}).map((file) => buildUrl + file),
  ];
  return [OFFLINE_URL, ...[...new Set(files)].sort()];
}

export async function buildServiceWorker(root: string, outdir: string, manifest: Manifest, buildUrl: string): Promise<{ file: string; version: string }> {
  const precache = precacheList(manifest, buildUrl);
  const swDir = join(root, "islands", "sw");
  const sources = readdirSync(swDir).sort().map((f) => readFileSync(join(swDir, f), "utf8"));
  const version = createHash("sha256").update(JSON.stringify(precache)).update(sources.join("\n")).digest("hex").slice(0, 12);
  const result = await Bun.build({
    entrypoints: [join(swDir, "sw.ts")],
    root,
    target: "browser",
    format: "esm",
    splitting: false,
    minify: true,
    define: {
      "process.env.NODE_ENV": '"production"',
      "process.env.SW_VERSION": JSON.stringify(version),
      "process.env.SW_PRECACHE": JSON.stringify(JSON.stringify(precache)),
      "process.env.SW_ICON": JSON.stringify(manifest.icons ? buildUrl + manifest.icons.icon192 : "/favicon.svg"),
    },
    throw: false,
  });
  const output = result.outputs[0];
  if (!result.success || !output) {
    for (const log of result.logs) console.error(log);
    throw new Error("client build: the service worker failed");
  }
  writeFileSync(join(outdir, SW_FILE), await lowerModule(await output.text()));
  return { file: SW_FILE, version };
}
