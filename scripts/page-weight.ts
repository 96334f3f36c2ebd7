// `npm run weight`: builds the client, starts the real server on a random port with a temporary
// DATA_DIR, and prints what each page costs on the wire (file by file, as served to a browser that
// accepts brotli and gzip: pages compressed per request, the build precompressed with gzip):
//   - the landing page and each legal page: HTML + CSS + JS, budget 60 KB each, and no React;
//   - the chat screen's initial JavaScript: the scripts and preloads the page names plus every
//     chunk they import statically; dynamic imports (emoji picker, calls, roulette) are left out.
//     Budget 150 KB.
// Exits 1 when a budget is exceeded. A first-time visitor is measured: no cookies, so the cookie
// banner and its script count too.
import { brotliDecompressSync } from "node:zlib";
import { startServerForBrowsers } from "../tests/e2e/support/server.ts";
import { buildClient } from "./build-client.ts";

const KB = 1024;
export const BUDGETS = { page: 60 * KB, chatJs: 150 * KB };

const kb = (bytes: number) => `${(bytes / KB).toFixed(1)} KB`;

const attr = (tag: string, name: string) => new RegExp(`\\s${name}="([^"]*)"`).exec(tag)?.[1];

/** Stylesheets, module scripts and module preloads an HTML page names. */
function assetsOf(html: string): { css: string[]; js: string[] } {
  const css: string[] = [];
  const js: string[] = [];
  for (const [tag] of html.matchAll(/<(link|script)\b[^>]*>/g)) {
    const rel = attr(tag, "rel");
    if (tag.startsWith("<link") && rel === "stylesheet") css.push(attr(tag, "href") ?? "");
    if (tag.startsWith("<link") && rel === "modulepreload") js.push(attr(tag, "href") ?? "");
    if (tag.startsWith("<script") && attr(tag, "src")) js.push(attr(tag, "src") ?? "");
  }
  return { css: css.filter(Boolean), js: js.filter(Boolean) };
}

/** `import ... from "./x.js"` and `import "./x.js"`, but not `import("./x.js")`. */
const staticImports = (code: string, base: string) =>
  [...code.matchAll(/\bimport\s*(?:[\w$*{},\s]+?\s*from\s*)?["'](\.{1,2}\/[^"']+)["']/g)].map((m) => new URL(m[1]!, base).pathname);

interface Weight {
  html: number;
  css: number;
  js: number;
  react: boolean;
}

async function weigh(origin: string, path: string, cookie = ""): Promise<Weight> {
  /** The text, and the bytes it took on the wire (Bun's fetch left undecoded). */
  const get = async (p: string) => {
    const response = await fetch(origin + p, { headers: { "accept-encoding": "br, gzip", ...(cookie ? { cookie } : {}) }, decompress: false });
    if (!response.ok) throw new Error(`GET ${p}: ${response.status}`);
    const wire = new Uint8Array(await response.arrayBuffer());
    const encoding = response.headers.get("content-encoding");
    const plain = encoding === "br" ? brotliDecompressSync(wire) : encoding === "gzip" ? Bun.gunzipSync(wire) : wire;
    return { text: new TextDecoder().decode(plain), bytes: wire.length };
  };
  const page = await get(path);
  const { css, js } = assetsOf(page.text);
  const weight: Weight = { html: page.bytes, css: 0, js: 0, react: false };
  for (const href of new Set(css)) weight.css += (await get(href)).bytes;
  const seen = new Set<string>();
  const queue = [...js];
  while (queue.length > 0) {
    const src = queue.shift()!;
    if (seen.has(src)) continue;
    seen.add(src);
    const { text: code, bytes } = await get(src);
    weight.js += bytes;
    // Every production React build carries links to its error decoder.
    if (code.includes("react.dev/errors")) weight.react = true;
    queue.push(...staticImports(code, origin + src));
  }
  return weight;
}

export async function measure(): Promise<{ lines: string[]; over: string[] }> {
  await buildClient();
  const server = await startServerForBrowsers();
  const lines: string[] = [];
  const over: string[] = [];
  try {
    for (const path of ["/", "/privacy", "/terms", "/cookies", "/compliance"]) {
      const w = await weigh(server.url, path);
      const total = w.html + w.css + w.js;
      const label = path === "/" ? "landing /" : path;
      lines.push(`${label.padEnd(14)} ${kb(total).padStart(9)}  (HTML ${kb(w.html)}, CSS ${kb(w.css)}, JS ${kb(w.js)})${w.react ? "  includes React!" : ""}`);
      if (total > BUDGETS.page) over.push(`${label} is ${kb(total)}, budget ${kb(BUDGETS.page)}`);
      if (w.react) over.push(`${label} loads React; it must not`);
    }
    const suffix = `${process.pid}${Date.now() % 100000}`;
    const response = await fetch(`${server.url}/api/auth/register`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ username: `weigh_${suffix}`.slice(0, 24), email: `weigh${suffix}@example.com`, password: "page weight 1", name: "Page Weight", gender: "female", age: 30, country_code: "DE", adult: true }),
    });
    if (response.status !== 201) throw new Error(`register failed: ${response.status} ${await response.text()}`);
    const { token } = (await response.json()) as { token: string };
    const chat = await weigh(server.url, "/", `sid=${encodeURIComponent(token)}`);
    lines.push(`${"chat screen".padEnd(14)} ${kb(chat.js).padStart(9)}  initial JavaScript (HTML ${kb(chat.html)}, CSS ${kb(chat.css)} besides)`);
    if (chat.js > BUDGETS.chatJs) over.push(`chat screen initial JavaScript is ${kb(chat.js)}, budget ${kb(BUDGETS.chatJs)}`);
  } finally {
    await server.stop();
  }
  return { lines, over };
}

if (import.meta.main) {
  const { lines, over } = await measure();
  console.log("Page weight on the wire (landing and legal: HTML+CSS+JS; chat: initial JS)");
  for (const line of lines) console.log(`  ${line}`);
  if (over.length > 0) {
    for (const problem of over) console.error(`OVER BUDGET: ${problem}`);
    process.exit(1);
  }
  console.log(`All within budget (pages ${kb(BUDGETS.page)}, chat initial JS ${kb(BUDGETS.chatJs)}).`);
}
