// The HTTP side of /peerjs against the real `peer` 1.0.2: the same requests to both, the same
// statuses, bodies (where peer's are fixed) and CORS headers.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { type Running, startOurs, startReference } from "./servers.ts";

let reference: Running;
let ours: Running;

beforeAll(async () => {
  [reference, ours] = await Promise.all([startReference(), startOurs()]);
});

afterAll(async () => {
  await Promise.all([reference?.stop(), ours?.stop()]);
});

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const CORS = ["access-control-allow-origin", "access-control-allow-methods", "access-control-allow-headers"];

async function ask(running: Running, path: string, init: RequestInit = {}) {
  const response = await fetch(running.server.httpUrl + path, { ...init, signal: AbortSignal.timeout(2000) });
  const vary = (response.headers.get("vary") ?? "").split(",").map((s) => s.trim().toLowerCase());
  return {
    status: response.status,
    text: await response.text(),
    type: response.headers.get("content-type") ?? "",
    cors: Object.fromEntries(CORS.map((name) => [name, response.headers.get(name)])),
    varyOrigin: vary.includes("origin"),
  };
}

async function askBoth(path: string, init: RequestInit = {}) {
  return Promise.all([ask(reference, path, init), ask(ours, path, init)]);
}

describe("the HTTP side of /peerjs, as peer 1.0.2 answers it", () => {
  test("GET /peerjs answers the same info document, with the caller's origin allowed", async () => {
    const [theirs, mine] = await askBoth("/peerjs", { headers: { origin: "http://elsewhere.example" } });
    expect(theirs.status).toBe(200);
    expect(JSON.parse(theirs.text)).toEqual({
      name: "PeerJS Server",
      description: "A server side element to broker connections between PeerJS clients.",
      website: "https://peerjs.com/",
    });
    expect(mine.text).toBe(theirs.text);
    expect(mine.status).toBe(theirs.status);
    expect(mine.type).toBe(theirs.type);
    expect(theirs.cors["access-control-allow-origin"]).toBe("http://elsewhere.example");
    expect(mine.cors).toEqual(theirs.cors);
    expect([theirs.varyOrigin, mine.varyOrigin]).toEqual([true, true]);
  });

  test("without an Origin no CORS origin is sent, by either", async () => {
    const [theirs, mine] = await askBoth("/peerjs");
    expect(theirs.cors["access-control-allow-origin"]).toBeNull();
    expect(mine.cors).toEqual(theirs.cors);
  });

  test("GET /peerjs/peerjs/id answers a fresh random UUID as text, for any key", async () => {
    for (const path of ["/peerjs/peerjs/id?ts=123", "/peerjs/other/id"]) {
      const [theirs, mine] = await askBoth(path);
      expect([theirs.status, mine.status]).toEqual([200, 200]);
      expect(theirs.text).toMatch(UUID);
      expect(mine.text).toMatch(UUID);
    }
    const [first, second] = await Promise.all([ask(ours, "/peerjs/peerjs/id"), ask(ours, "/peerjs/peerjs/id")]);
    expect(first.text).not.toBe(second.text);
    // The one intended difference: peer labels the id text/html, ours says it is plain text.
    expect(first.type).toBe("text/plain; charset=utf-8");
  });

  test("GET /peerjs/peerjs/peers is refused with 401: discovery is off", async () => {
    const [theirs, mine] = await askBoth("/peerjs/peerjs/peers", { headers: { origin: "http://elsewhere.example" } });
    expect([theirs.status, mine.status]).toEqual([401, 401]);
    expect(mine.cors).toEqual(theirs.cors);
  });

  test("a CORS preflight is answered 204 with the same headers", async () => {
    const [theirs, mine] = await askBoth("/peerjs/peerjs/id", {
      method: "OPTIONS",
      headers: { origin: "http://elsewhere.example", "access-control-request-method": "GET", "access-control-request-headers": "x-custom" },
    });
    expect(theirs.status).toBe(204);
    expect(theirs.cors).toEqual({
      "access-control-allow-origin": "http://elsewhere.example",
      "access-control-allow-methods": "GET,HEAD,PUT,PATCH,POST,DELETE",
      "access-control-allow-headers": "x-custom",
    });
    expect(mine.status).toBe(204);
    expect(mine.cors).toEqual(theirs.cors);
  });
});
