// The client build and how its files are served. Builds once (about a second).
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { buildClient, islandNames } from "../../scripts/build-client.ts";
import type { Manifest } from "../../src/pages/assets/manifest.ts";
import { makeTestApp, registerUser } from "../support/app.ts";

const t = makeTestApp();
let manifest: Manifest;
beforeAll(async () => {
  manifest = await buildClient();
}, 60_000);
afterAll(() => t.close());

describe("the client build", () => {
  test("writes hashed page scripts, stylesheets and one chunk per island file", () => {
    for (const name of ["client", "auth", "consent"]) expect(manifest.scripts[name]?.file).toMatch(new RegExp(`^/build/${name}-[a-z0-9]{8}-[0-9a-f]{6}\\.js$`));
    for (const name of ["base", "site"]) expect(manifest.styles[name]).toMatch(new RegExp(`^/build/${name}-[a-z0-9]{8}-[0-9a-f]{6}\\.css$`));
    expect(Object.keys(manifest.islands).sort()).toEqual(islandNames());
  });

  test("keeps React out of the landing page's scripts", async () => {
    for (const name of ["auth", "consent"]) {
      const script = manifest.scripts[name]!;
      for (const file of [script.file, ...script.preload]) {
        const code = await Bun.file(join(import.meta.dir, "..", "..", "public", file)).text();
        expect(code).not.toContain("react.dev/errors");
      }
    }
  });

  test("serves build files for a year, immutable, gzipped when the browser accepts it", async () => {
    const file = manifest.scripts.auth!.file;
    const zipped = await t.app.handle(new Request(`http://localhost${file}`, { headers: { "accept-encoding": "gzip, br" } }));
    expect(zipped.status).toBe(200);
    expect(zipped.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    expect(zipped.headers.get("content-encoding")).toBe("gzip");
    expect(zipped.headers.get("content-type")).toContain("text/javascript");
    const plain = await t.app.handle(new Request(`http://localhost${file}`));
    expect(plain.headers.get("content-encoding")).toBeNull();
    expect(Bun.gunzipSync(new Uint8Array(await zipped.arrayBuffer()))).toEqual(new Uint8Array(await plain.arrayBuffer()));
  });

  // Issue 21: the classifier's worker stays within 3.5 MB gzipped, and tfjs' wasm backend takes its
  // .wasm files from our build (hashed names, a year's cache), never from a CDN.
  test("keeps the nudity worker within 3.5 MB gzipped, naming no CDN", async () => {
    const worker = join(import.meta.dir, "..", "..", "public", manifest.workers!.nudity!);
    const gzipped = Bun.gzipSync(await Bun.file(worker).bytes(), { level: 9 }).length;
    console.log(`nudity worker: ${(gzipped / 1e6).toFixed(2)} MB gzipped`);
    expect(gzipped).toBeLessThanOrEqual(3.5e6);
    const code = await Bun.file(worker).text();
    // Links in error messages and comments only: every host named is a documentation site.
    const hosts = new Set([...code.matchAll(/https?:\/\/([a-z0-9.-]+)/gi)].map((m) => m[1]!.toLowerCase()));
    const docs = ["github.com", "emscripten.org", "developer.mozilla.org", "www.shadertoy.com", "arxiv.org"];
    expect([...hosts].filter((host) => !docs.includes(host))).toEqual([]);
    // Also without a scheme ("//cdn..."), as a protocol-relative URL; a boolean, not the 4.9 MB file, if it fails.
    expect(/(cdn\.jsdelivr\.net|unpkg\.com|cdnjs\.cloudflare\.com|storage\.googleapis\.com|tfhub\.dev)/i.exec(code)?.[0] ?? null).toBeNull();
    for (const url of Object.values(manifest.wasm!)) expect(code).toContain(JSON.stringify(url).slice(1, -1));
  });

  test("serves the three .wasm builds under their content hash, as application/wasm for a year", async () => {
    expect(Object.keys(manifest.wasm!).sort()).toEqual(["tfjs-backend-wasm-simd.wasm", "tfjs-backend-wasm-threaded-simd.wasm", "tfjs-backend-wasm.wasm"]);
    for (const [name, url] of Object.entries(manifest.wasm!)) {
      expect(url).toMatch(new RegExp(`^/build/${name.replace(".wasm", "")}-[0-9a-f]{16}\\.wasm$`));
      const original = await Bun.file(join(import.meta.dir, "..", "..", "node_modules", "@tensorflow", "tfjs-backend-wasm", "dist", name)).bytes();
      const zipped = await t.app.handle(new Request(`http://localhost${url}`, { headers: { "accept-encoding": "gzip" } }));
      expect(zipped.status).toBe(200);
      expect(zipped.headers.get("content-type")).toBe("application/wasm");
      expect(zipped.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
      expect(zipped.headers.get("content-encoding")).toBe("gzip");
      expect(Bun.gunzipSync(new Uint8Array(await zipped.arrayBuffer()))).toEqual(original);
    }
  });

  // Issue 24: the emoji picker searches emoji names in the page's language for the six languages
  // emoji-picker-react has them in (200 to 370 KB each): fetched only when the picker shows.
  test("puts each language's emoji names in a lazy chunk of its own, outside the chat screen's first load and the classic build", async () => {
    const dir = join(import.meta.dir, "..", "..", "public", "build");
    // The lowering writes non-ASCII letters as \u and \x escapes.
    const unescape = (code: string) =>
      code.replace(/\\u([0-9a-fA-F]{4})|\\x([0-9a-fA-F]{2})/g, (_, u: string | undefined, x: string | undefined) => String.fromCharCode(parseInt(u ?? x ?? "", 16)));
    const chunks = await Promise.all([...new Bun.Glob("chunk-*.js").scanSync(dir)].map(async (file) => ({ url: `/build/${file}`, code: unescape(await Bun.file(join(dir, file)).text()) })));
    const firstLoad = new Set([manifest.scripts.client!, manifest.islands.ChatApp!].flatMap((asset) => [asset.file, ...asset.preload]));
    const classic = unescape(await Bun.file(join(import.meta.dir, "..", "..", "public", manifest.legacy!.scripts.client!)).text());
    const found = new Map<string, string[]>();
    for (const language of ["es", "pt", "ru", "de", "fr", "hi"]) {
      const data = (await import(`emoji-picker-react/dist/data/emojis-${language}.json`)).default as { categories: Record<string, { name: string }> };
      // Its own words for "people & body", in no other language's file.
      const marker = JSON.stringify(data.categories.smileys_people!.name);
      found.set(language, chunks.filter((chunk) => chunk.code.includes(marker)).map((chunk) => chunk.url));
      expect({ language, inClassicBuild: classic.includes(marker) }).toEqual({ language, inClassicBuild: false });
    }
    const files = [...found.values()].flat();
    expect([...found].filter(([, urls]) => urls.length !== 1)).toEqual([]);
    expect(new Set(files).size).toBe(files.length);
    expect(files.filter((url) => firstLoad.has(url))).toEqual([]);
  });

  test("pages link the built CSS and scripts, and the chat screen preloads its island", async () => {
    const landing = await t.call("GET", "/");
    expect(landing.text).toContain(`href="${manifest.styles.site}"`);
    expect(landing.text).toContain(`src="${manifest.scripts.auth!.file}"`);
    const legal = await t.call("GET", "/terms");
    expect(legal.text).not.toContain(manifest.scripts.auth!.file);
    expect(legal.text).toContain(`src="${manifest.scripts.consent!.file}"`);
    expect(existsSync(join(import.meta.dir, "..", "..", "public", "build", "manifest.json"))).toBe(true);
    const { token } = await registerUser(t);
    const chat = await t.call("GET", "/", { headers: { cookie: `sid=${token}` } });
    expect(chat.text).toContain(`src="${manifest.scripts.client!.file}"`);
    const island = manifest.islands.ChatApp;
    expect(island?.file).toBeString();
    expect(chat.text).toContain(`<link rel="modulepreload" href="${island!.file}"/>`);
  });

  test("pages name the classic-build loader after their module scripts, with the classic file of each", async () => {
    const landing = (await t.call("GET", "/")).text;
    const legacy = manifest.legacy!;
    const boot = landing.indexOf(`<script defer="" src="${legacy.boot}"`);
    expect(boot).toBeGreaterThan(landing.indexOf(`src="${manifest.scripts.auth!.file}"`));
    expect(boot).toBeGreaterThan(landing.indexOf(`src="${manifest.scripts.consent!.file}"`));
    const list = /data-legacy="([^"]*)"/.exec(landing.slice(boot))?.[1]?.replaceAll("&quot;", '"');
    expect(JSON.parse(list ?? "null")).toEqual([
      ["auth", legacy.scripts.auth],
      ["consent", legacy.scripts.consent],
    ]);
    const { token } = await registerUser(t);
    const chat = (await t.call("GET", "/", { headers: { cookie: `sid=${token}`, "accept-language": "en" } })).text;
    expect(chat).toContain(`&quot;client&quot;,&quot;${legacy.scripts.client}&quot;`);
  });
});
