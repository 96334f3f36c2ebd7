// Pages go out compressed when the browser accepts it (issue 13): brotli before gzip, nothing when
// refused, the same bytes once decoded, and every header (policies, cookies, caching) kept.
import { afterAll, describe, expect, test } from "bun:test";
import { brotliDecompressSync } from "node:zlib";
import { chooseEncoding } from "../../src/http/compress.ts";
import { SESSION_COOKIE } from "../../src/http/request.ts";
import { makeTestApp, registerUser } from "../support/app.ts";

const t = makeTestApp();
afterAll(() => t.close());

async function get(path: string, headers: Record<string, string>) {
  const response = await t.app.handle(new Request(`http://localhost${path}`, { headers }));
  return { response, bytes: new Uint8Array(await response.arrayBuffer()) };
}

const decode = (bytes: Uint8Array<ArrayBuffer>, encoding: string | null) =>
  new TextDecoder().decode(encoding === "br" ? brotliDecompressSync(bytes) : encoding === "gzip" ? Bun.gunzipSync(bytes) : bytes);

describe("choosing the encoding", () => {
  test("brotli before gzip, whatever the order named", () => {
    expect(chooseEncoding("gzip, deflate, br")).toBe("br");
    expect(chooseEncoding("br;q=0.5, gzip;q=1")).toBe("br");
    expect(chooseEncoding("gzip, deflate")).toBe("gzip");
    expect(chooseEncoding("x-gzip")).toBe("gzip");
  });

  test("nothing when not asked for, or refused with q=0", () => {
    expect(chooseEncoding(null)).toBeNull();
    expect(chooseEncoding("")).toBeNull();
    expect(chooseEncoding("identity")).toBeNull();
    expect(chooseEncoding("deflate")).toBeNull();
    expect(chooseEncoding("br;q=0, gzip;q=0.0")).toBeNull();
    expect(chooseEncoding("br;q=0, gzip")).toBe("gzip");
  });
});

describe("pages on the wire", () => {
  test("the landing page and a legal page: compressed, smaller, the same text once decoded", async () => {
    for (const [path, accept, expected] of [["/", "gzip, deflate, br", "br"], ["/privacy", "gzip, deflate", "gzip"]] as const) {
      const plain = await get(path, {});
      const packed = await get(path, { "accept-encoding": accept });
      expect(plain.response.headers.get("content-encoding")).toBeNull();
      expect(packed.response.headers.get("content-encoding")).toBe(expected);
      expect(packed.bytes.length).toBeLessThan(plain.bytes.length / 2);
      expect(decode(packed.bytes, expected)).toBe(new TextDecoder().decode(plain.bytes));
      for (const r of [plain.response, packed.response]) {
        expect(r.headers.get("vary")).toContain("accept-encoding");
        expect(r.headers.get("content-security-policy")).toContain("default-src 'self'");
        expect(r.headers.get("cache-control")).toBe("private, no-cache");
      }
    }
  });

  test("the signed-in chat shell is compressed and still never stored", async () => {
    const { token } = await registerUser(t);
    const { response, bytes } = await get("/", { cookie: `${SESSION_COOKIE}=${token}`, "accept-encoding": "br" });
    expect(response.headers.get("content-encoding")).toBe("br");
    expect(response.headers.get("cache-control")).toBe("no-store");
    expect(decode(bytes, "br")).toContain('id="island-ChatApp-props"');
  });

  test("cookies set by a page survive compression", async () => {
    const { response, bytes } = await get("/", { cookie: `${SESSION_COOKIE}=forged`, "accept-encoding": "gzip" });
    expect(response.headers.get("content-encoding")).toBe("gzip");
    expect(response.headers.getSetCookie().some((c) => c.startsWith(`${SESSION_COOKIE}=;`))).toBe(true);
    expect(decode(bytes, "gzip")).toContain("<!doctype html>");
  });

  test("the 404 page is compressed too; JSON answers are left alone", async () => {
    const missing = await get("/no-such-page", { "accept-encoding": "br", accept: "text/html" });
    expect(missing.response.status).toBe(404);
    expect(missing.response.headers.get("content-encoding")).toBe("br");
    expect(decode(missing.bytes, "br")).toContain("<!doctype html>");
    const api = await get("/api/users", { "accept-encoding": "br" });
    expect(api.response.status).toBe(401);
    expect(api.response.headers.get("content-encoding")).toBeNull();
  });
});
