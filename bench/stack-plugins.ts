// The two plugins the customer's stack names, measured against what the project hand-writes:
// @elysiajs/jwt against src/auth/tokens.ts, @elysiajs/static against src/pages/assets/routes.ts.
// They are not dependencies of the app, so install them for the run only:
//   npm install --no-save @elysiajs/jwt@1.4.2 @elysiajs/static@1.4.10 && bun scripts/build-client.ts && bun bench/stack-plugins.ts
// Everything runs in one process (load and servers share the CPU): compare the two sides, not
// the absolute figures.
import { Elysia, type AnyElysia } from "elysia";
import { readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { newSessionId, sessionIdOf, tokenFor } from "../src/auth/tokens.ts";
import { BUILD_DIR } from "../src/pages/assets/manifest.ts";
import { assetRoutes } from "../src/pages/assets/routes.ts";

const SECRET = "bench-secret-bench-secret-bench-secret-12";
const ITERATIONS = 10_000;
const LOAD_SECONDS = 3;
const CONCURRENCY = 32;

interface JwtSigner {
  sign(payload: Record<string, string>): Promise<string>;
  verify(token: string): Promise<false | Record<string, unknown>>;
}

/** Loaded by name so the type-check of a clean clone, which lacks them, still passes. */
async function optional(name: string): Promise<Record<string, unknown>> {
  try {
    return await import(name);
  } catch {
    console.error(`${name} is missing: npm install --no-save @elysiajs/jwt@1.4.2 @elysiajs/static@1.4.10`);
    process.exit(1);
  }
}

function jwtSigner(plugin: unknown): JwtSigner {
  const decorator = (plugin as { decorator?: { jwt?: JwtSigner } }).decorator;
  if (!decorator?.jwt) throw new Error("@elysiajs/jwt no longer decorates `jwt`");
  return decorator.jwt;
}

async function timeTokens() {
  const hmacStart = Bun.nanoseconds();
  let hmacToken = "";
  for (let i = 0; i < ITERATIONS; i++) {
    hmacToken = tokenFor(SECRET, newSessionId());
    if (!sessionIdOf(SECRET, hmacToken)) throw new Error("HMAC token refused");
  }
  const hmacUs = (Bun.nanoseconds() - hmacStart) / 1000 / ITERATIONS;

  const { jwt } = await optional("@elysiajs/jwt");
  if (typeof jwt !== "function") throw new Error("@elysiajs/jwt has no jwt()");
  const signer = jwtSigner(jwt({ name: "jwt", secret: SECRET }));
  const jwtStart = Bun.nanoseconds();
  let jwtToken = "";
  for (let i = 0; i < ITERATIONS; i++) {
    // The session id stays the claim: revocation still needs the session row either way.
    jwtToken = await signer.sign({ sid: newSessionId() });
    if (!(await signer.verify(jwtToken))) throw new Error("JWT refused");
  }
  const jwtUs = (Bun.nanoseconds() - jwtStart) / 1000 / ITERATIONS;
  console.log(`tokens, sign + verify, ${ITERATIONS} times:`);
  console.log(`  HMAC (src/auth/tokens.ts)  ${hmacUs.toFixed(2)} us each, ${hmacToken.length} characters`);
  console.log(`  @elysiajs/jwt HS256        ${jwtUs.toFixed(2)} us each, ${jwtToken.length} characters`);
}

/** The largest JavaScript file of the build: the one a first visit waits for. */
function largestBuildFile(): string {
  const files = readdirSync(BUILD_DIR).filter((f) => f.endsWith(".js"));
  if (files.length === 0) throw new Error("No build: run bun scripts/build-client.ts first");
  return files.sort((a, b) => statSync(join(BUILD_DIR, b)).size - statSync(join(BUILD_DIR, a)).size)[0]!;
}

async function load(url: string): Promise<number> {
  const until = performance.now() + LOAD_SECONDS * 1000;
  let done = 0;
  const worker = async () => {
    while (performance.now() < until) {
      const response = await fetch(url, { headers: { "accept-encoding": "gzip" }, decompress: false });
      await response.arrayBuffer();
      // The build folder is shared: a rebuild during the run removes the file. Stop, don't count.
      if (response.status !== 200) throw new Error(`${url} answered ${response.status}: was the client rebuilt during the run?`);
      done++;
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  return done / LOAD_SECONDS;
}

async function serveAndMeasure(label: string, app: AnyElysia, path: string) {
  app.listen({ port: 0, hostname: "127.0.0.1" });
  const url = `http://127.0.0.1:${app.server!.port}${path}`;
  const probe = await fetch(url, { headers: { "accept-encoding": "gzip" }, decompress: false });
  const bytes = (await probe.arrayBuffer()).byteLength;
  const headers = ["content-type", "content-encoding", "cache-control", "etag"].map((h) => `${h}: ${probe.headers.get(h) ?? "-"}`);
  const perSecond = await load(url);
  await app.stop(true);
  console.log(`  ${label}: ${probe.status}, ${bytes} bytes sent, ${Math.round(perSecond)} requests/s`);
  console.log(`    ${headers.join("; ")}`);
}

async function timeStatic() {
  const file = largestBuildFile();
  const { staticPlugin } = await optional("@elysiajs/static");
  if (typeof staticPlugin !== "function") throw new Error("@elysiajs/static has no staticPlugin()");
  // The plugin is async: awaited, its routes are registered before listen.
  const pluginApp = async () =>
    new Elysia().use(
      await staticPlugin({ assets: BUILD_DIR, prefix: "/build", alwaysStatic: true, directive: "immutable", maxAge: 31_536_000, silent: true }),
    );
  console.log(`/build/${file} (${statSync(join(BUILD_DIR, file)).size} bytes, .gz beside it), ${CONCURRENCY} at a time for ${LOAD_SECONDS} s, Accept-Encoding: gzip:`);
  // Twice each, interleaved, because the machine is shared.
  for (let round = 1; round <= 2; round++) {
    await serveAndMeasure(`hand-written (assets/routes.ts), round ${round}`, new Elysia().use(assetRoutes()), `/build/${file}`);
    await serveAndMeasure(`@elysiajs/static, round ${round}`, await pluginApp(), `/build/${file}`);
  }
  await serveAndMeasure("@elysiajs/static asked for the .gz by name", await pluginApp(), `/build/${file}.gz`);
}

await timeTokens();
await timeStatic();
// Keep-alive connections of the load would hold the process open.
process.exit(0);
