// Static files: the hashed client build under /build/ (cached for a year, gzip when accepted,
// precompressed by the build) and the few fixed files of public/ (favicon, robots.txt).
import { Elysia } from "elysia";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { notFound } from "../../http/errors.ts";
import { BUILD_DIR } from "./manifest.ts";

const publicDir = join(BUILD_DIR, "..");
const fixedFiles = ["favicon.svg", "robots.txt"];

const types: Record<string, string> = {
  js: "text/javascript; charset=utf-8",
  css: "text/css; charset=utf-8",
  json: "application/json; charset=utf-8",
  // The classifier's WebAssembly (issue 21): this type lets browsers compile it while it streams.
  wasm: "application/wasm",
  png: "image/png",
};

const acceptsGzip = (request: Request) => /\bgzip\b/.test(request.headers.get("accept-encoding") ?? "");

function buildFile(name: string, request: Request): Response {
  // Only names the build writes: no slashes, no dot-dot.
  if (!/^[A-Za-z0-9_-]+(\.[A-Za-z0-9_-]+)*\.(js|css|wasm|png)$/.test(name)) throw notFound(`Nothing at /build/${name}`);
  const path = join(BUILD_DIR, name);
  if (!existsSync(path)) throw notFound(`Nothing at /build/${name}`);
  const headers: Record<string, string> = {
    "content-type": types[name.slice(name.lastIndexOf(".") + 1)] ?? "application/octet-stream",
    // The name carries the content hash: a changed file has a new name.
    "cache-control": "public, max-age=31536000, immutable",
    "x-content-type-options": "nosniff",
    vary: "accept-encoding",
  };
  if (!name.endsWith(".png") && acceptsGzip(request) && existsSync(`${path}.gz`)) {
    return new Response(Bun.file(`${path}.gz`), { headers: { ...headers, "content-encoding": "gzip" } });
  }
  return new Response(Bun.file(path), { headers });
}

export function assetRoutes() {
  const app = new Elysia().get("/build/:file", ({ params, request }) => buildFile(params.file, request));
  for (const file of fixedFiles) {
    app.get(`/${file}`, () => new Response(Bun.file(join(publicDir, file)), { headers: { "cache-control": "public, max-age=86400", "x-content-type-options": "nosniff" } }));
  }
  return app;
}
