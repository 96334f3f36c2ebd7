// The push transport's guard against SSRF (issue 26): what an endpoint may resolve to, that the
// connection goes to the address checked, and the timeout.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { checkEndpoint } from "../../src/push/endpoint.ts";
import { httpsTransport, RefusedAddress, resolvePublic } from "../../src/push/transport.ts";
import { localPushService } from "../support/push-service.ts";

describe("resolvePublic", () => {
  test("refuses a name that resolves to loopback unless the operator named the host", async () => {
    await expect(resolvePublic("localhost", false)).rejects.toBeInstanceOf(RefusedAddress);
    expect((await resolvePublic("localhost", true)).address).toMatch(/^(127\.0\.0\.1|::1)$/);
  });

  test("refuses address literals of every kind, even from the operator's list", async () => {
    for (const host of ["127.0.0.1", "10.0.0.1", "169.254.169.254", "[::1]", "[fd00::1]", "[::ffff:127.0.0.1]", "8.8.8.8"]) {
      await expect(resolvePublic(host, true), host).rejects.toBeInstanceOf(RefusedAddress);
    }
  });
});

describe("checkEndpoint", () => {
  test("takes the known push services and PUSH_HOSTS, nothing else", () => {
    expect(checkEndpoint("https://fcm.googleapis.com/fcm/send/x", [])).toMatchObject({ operatorHost: false });
    expect(checkEndpoint("https://a.b.notify.windows.com/w", [])).toMatchObject({ operatorHost: false });
    expect(checkEndpoint("https://notify.windows.com/w", [])).toBe("The endpoint is not on a known push service");
    expect(checkEndpoint("https://evilpush.apple.com/x", [])).toBe("The endpoint is not on a known push service");
    expect(checkEndpoint("https://push.example:8443/x", ["push.example"])).toMatchObject({ operatorHost: true });
    expect(checkEndpoint("http://push.example/x", ["push.example"])).toBe("The endpoint must be an https URL");
    expect(checkEndpoint(`https://fcm.googleapis.com/${"a".repeat(1100)}`, [])).toContain("longer than");
  });
});

describe("httpsTransport", () => {
  const service = localPushService();
  beforeAll(() => service.start());
  afterAll(() => service.stop());
  const ca = () => Bun.file(service.env.PUSH_CA_FILE!).text();

  test("posts to the operator's host with the CA it was given, and answers the status", async () => {
    service.answer("/ok", 201);
    const send = httpsTransport({ timeoutMs: 5000, ca: await ca() });
    const endpoint = checkEndpoint(service.url("/ok"), ["localhost"]);
    if (typeof endpoint === "string") throw new Error(endpoint);
    expect(await send({ endpoint, headers: { ttl: "60" }, body: Buffer.from("x") })).toEqual({ status: 201 });
  });

  test("an untrusted certificate fails", async () => {
    const send = httpsTransport({ timeoutMs: 5000, ca: null });
    const endpoint = checkEndpoint(service.url("/ok"), ["localhost"]);
    if (typeof endpoint === "string") throw new Error(endpoint);
    await expect(send({ endpoint, headers: {}, body: Buffer.from("x") })).rejects.toThrow();
  });

  test("a push service that never answers is given up after the timeout", async () => {
    service.hang("/slow");
    const send = httpsTransport({ timeoutMs: 300, ca: await ca() });
    const endpoint = checkEndpoint(service.url("/slow"), ["localhost"]);
    if (typeof endpoint === "string") throw new Error(endpoint);
    await expect(send({ endpoint, headers: {}, body: Buffer.from("x") })).rejects.toThrow(/timed out/);
  });
});
