// What the server reads from the request line and headers: behind a trusted proxy, the client
// address and the protocol come from the same hop (the last entry the proxy appended).
import { describe, expect, test } from "bun:test";
import { loadConfig } from "../../src/config.ts";
import { clientAddress, isSecure, ownOrigin } from "../../src/http/request.ts";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const config = (env: Record<string, string> = {}) =>
  loadConfig({ DATA_DIR: mkdtempSync(join(tmpdir(), "webchat-req-")), JWT_SECRET: "s".repeat(40), ...env });
const proxied = config({ TRUST_PROXY: "1" });
const direct = config();

const request = (headers: Record<string, string>, url = "http://localhost:5001/") => new Request(url, { headers });

describe("behind a trusted proxy", () => {
  test("takes the address and the protocol both from the last forwarded entry", () => {
    // The client wrote "6.6.6.6" and "https"; the proxy appended what it saw: 10.0.0.7 over http.
    const r = request({ "x-forwarded-for": "6.6.6.6, 10.0.0.7", "x-forwarded-proto": "https, http" });
    expect(clientAddress(r, "127.0.0.1", proxied)).toBe("10.0.0.7");
    expect(isSecure(r, proxied)).toBe(false);
  });

  test("a forged http in front does not make a real https connection insecure", () => {
    const r = request({ "x-forwarded-for": "6.6.6.6, 10.0.0.7", "x-forwarded-proto": "http,https" });
    expect(isSecure(r, proxied)).toBe(true);
  });

  test("a proxy that sets single values is read as before", () => {
    const r = request({ "x-forwarded-for": "203.0.113.9", "x-forwarded-proto": "https", "x-forwarded-host": "chat.example" });
    expect(clientAddress(r, "127.0.0.1", proxied)).toBe("203.0.113.9");
    expect(isSecure(r, proxied)).toBe(true);
    expect(ownOrigin(r, proxied)).toBe("https://chat.example");
  });

  test("the host is the last forwarded entry as well", () => {
    const r = request({ "x-forwarded-proto": "https", "x-forwarded-host": "evil.example, chat.example" });
    expect(ownOrigin(r, proxied)).toBe("https://chat.example");
  });

  test("empty forwarded headers fall back to the socket", () => {
    const r = request({ "x-forwarded-for": " , ", "x-forwarded-proto": "" });
    expect(clientAddress(r, "192.0.2.1", proxied)).toBe("192.0.2.1");
    expect(isSecure(r, proxied)).toBe(false);
  });
});

describe("without TRUST_PROXY", () => {
  test("ignores every forwarded header", () => {
    const r = request({ "x-forwarded-for": "6.6.6.6", "x-forwarded-proto": "https", "x-forwarded-host": "evil.example" });
    expect(clientAddress(r, "192.0.2.1", direct)).toBe("192.0.2.1");
    expect(isSecure(r, direct)).toBe(false);
    expect(ownOrigin(r, direct)).toBe("http://localhost:5001");
  });

  test("https on the connection itself is secure", () => {
    expect(isSecure(request({}, "https://localhost/"), direct)).toBe(true);
  });
});
