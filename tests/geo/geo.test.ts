import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { countries, countryName, flagOf, isCountryCode } from "../../src/geo/countries.ts";
import { countryOf, isPrivateAddress } from "../../src/geo/lookup.ts";
import { makeTestApp, type TestApp } from "../support/app.ts";

describe("the ISO 3166 list", () => {
  test("holds about 250 unique two-letter codes with names", () => {
    expect(countries.length).toBeGreaterThanOrEqual(245);
    expect(countries.length).toBeLessThanOrEqual(255);
    expect(new Set(countries.map((c) => c.code)).size).toBe(countries.length);
    for (const c of countries) expect(c.code).toMatch(/^[A-Z]{2}$/);
    expect(countryName("us")).toBe("United States");
    expect(isCountryCode("de")).toBe(true);
    expect(isCountryCode("XX")).toBe(false);
    expect(flagOf("fr")).toBe("🇫🇷");
  });
});

describe("IP to country", () => {
  test("finds public addresses in the offline database", () => {
    expect(countryOf("8.8.8.8")?.code).toBe("US");
    expect(countryOf("::ffff:81.2.69.160")?.code).toBe("GB");
  });

  test.each(["127.0.0.1", "::1", "10.1.2.3", "192.168.0.10", "172.20.0.1", "169.254.1.1", "fd00::1", "garbage"])("never detects %s", (ip) => {
    expect(isPrivateAddress(ip)).toBe(true);
    expect(countryOf(ip)).toBeNull();
  });
});

describe("GET /api/geo/country", () => {
  let plain: TestApp;
  let proxied: TestApp;
  let url: string;
  beforeAll(() => {
    plain = makeTestApp();
    proxied = makeTestApp({ TRUST_PROXY: "true" });
    url = plain.listen().url;
  });
  afterAll(async () => {
    await plain.close();
    await proxied.close();
  });

  test("says not detected for a loopback client", async () => {
    const r = await fetch(`${url}/api/geo/country`);
    expect(await r.json()).toEqual({ success: false, message: "Country not detected" });
  });

  test("ignores X-Forwarded-For unless TRUST_PROXY is set", async () => {
    const r = await fetch(`${url}/api/geo/country`, { headers: { "x-forwarded-for": "8.8.8.8" } });
    expect((await r.json()).success).toBe(false);
  });

  test("uses the proxy's X-Forwarded-For entry when TRUST_PROXY is set", async () => {
    const r = await proxied.call("GET", "/api/geo/country", { headers: { "x-forwarded-for": "10.0.0.1, 8.8.8.8" } });
    expect(r.body).toEqual({ success: true, data: { detected: true, countryCode: "US", countryName: "United States", ip: "8.8.8.8" } });
  });

  test("serves the country list without a session", async () => {
    const r = await plain.call("GET", "/api/geo/countries");
    expect(r.status).toBe(200);
    expect(r.body.countries.length).toBe(countries.length);
  });
});
