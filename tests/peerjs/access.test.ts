// Who may open a peer socket on the real app: a signed-in browser of this site, and nobody else.
import { beforeAll, describe, expect, test } from "bun:test";
import { registerUser } from "../support/app.ts";
import { listeningApp } from "../support/listening.ts";
import { closeOf, openPeerSocket } from "./client.ts";

const t = listeningApp();
let token: string;

beforeAll(async () => {
  ({ token } = await registerUser(t));
});

let ids = 0;
const peerUrl = (id = `p${++ids}`, peerToken = "tok") => `${t.wsUrl}/peerjs/peerjs?key=peerjs&id=${id}&token=${peerToken}&version=1.5.5`;
const cookie = (value: string) => ({ cookie: `sid=${encodeURIComponent(value)}` });

describe("opening a peer socket", () => {
  test("is refused without a session cookie, before any frame", async () => {
    const socket = openPeerSocket(peerUrl());
    expect(await socket.opened).toBe(false);
    expect(await socket.drain(0)).toEqual([]);
  });

  test("is refused with a forged session cookie", async () => {
    const socket = openPeerSocket(peerUrl(), cookie(`${token}x`));
    expect(await socket.opened).toBe(false);
  });

  test("is refused for a session that was signed out", async () => {
    const other = await registerUser(t);
    expect((await t.call("POST", "/api/auth/logout", { token: other.token })).status).toBe(200);
    const socket = openPeerSocket(peerUrl(), cookie(other.token));
    expect(await socket.opened).toBe(false);
  });

  test("is refused from a foreign origin even with a valid cookie", async () => {
    const socket = openPeerSocket(peerUrl(), { ...cookie(token), origin: "https://evil.example" });
    expect(await socket.opened).toBe(false);
  });

  test("answers the refusals with 401 and 403 in the contract's shape", async () => {
    const upgrade = { connection: "Upgrade", upgrade: "websocket", "sec-websocket-version": "13", "sec-websocket-key": "dGhlIHNhbXBsZSBub25jZQ==" };
    const anonymous = await t.call("GET", "/peerjs/peerjs?key=peerjs&id=a&token=b", { headers: upgrade });
    expect(anonymous.status).toBe(401);
    expect(anonymous.body).toEqual({ error: "Please sign in", code: "unauthorized" });
    const foreign = await t.call("GET", "/peerjs/peerjs?key=peerjs&id=a&token=b", {
      headers: { ...upgrade, ...cookie(token), origin: "https://evil.example" },
    });
    expect(foreign.status).toBe(403);
    expect(foreign.body.code).toBe("forbidden");
  });

  test("is accepted for a signed-in user from the site's own origin, with OPEN", async () => {
    const socket = openPeerSocket(peerUrl(), { ...cookie(token), origin: t.url });
    expect(await socket.opened).toBe(true);
    expect(JSON.parse(await socket.next())).toEqual({ type: "OPEN" });
    socket.close();
  });

  test("a signed-out session's open peer socket is closed at its next frame, and its id freed", async () => {
    const user = await registerUser(t);
    const socket = openPeerSocket(peerUrl("leaver", "one"), cookie(user.token));
    expect(await socket.next()).toBe('{"type":"OPEN"}');
    await t.call("POST", "/api/auth/logout", { token: user.token });
    socket.send({ type: "HEARTBEAT" });
    expect(await closeOf(socket)).toBe("closed 4401");
    const again = openPeerSocket(peerUrl("leaver", "two"), cookie(token));
    expect(await again.next()).toBe('{"type":"OPEN"}');
    again.close();
  });

  test("another user cannot take an id over even with its token", async () => {
    const owner = openPeerSocket(peerUrl("owned", "secret"), cookie(token));
    expect(await owner.next()).toBe('{"type":"OPEN"}');
    const other = await registerUser(t);
    const thief = openPeerSocket(peerUrl("owned", "secret"), cookie(other.token));
    expect(JSON.parse(await thief.next())).toEqual({ type: "ID-TAKEN", payload: { msg: "ID is taken" } });
    expect(await closeOf(thief)).toBe("closed 1005");
    owner.close();
  });
});

describe("limits shared with /ws", () => {
  test("a frame over 64 KB closes the peer socket with 1009", async () => {
    const socket = openPeerSocket(peerUrl(), cookie(token));
    expect(await socket.next()).toBe('{"type":"OPEN"}');
    socket.send({ type: "OFFER", dst: "someone", payload: "x".repeat(70 * 1024) });
    expect(await closeOf(socket)).toBe("closed 1009");
  });
});

describe("the HTTP side on the real app", () => {
  test("GET /peerjs, /peerjs/peerjs/id and /peerjs/peerjs/peers answer as peer's do, without sign-in", async () => {
    const info = await t.call("GET", "/peerjs");
    expect(info.status).toBe(200);
    expect(info.body.name).toBe("PeerJS Server");
    const id = await t.call("GET", "/peerjs/peerjs/id?ts=1");
    expect(id.status).toBe(200);
    expect(id.text).toMatch(/^[0-9a-f-]{36}$/);
    const peers = await t.call("GET", "/peerjs/peerjs/peers");
    expect(peers.status).toBe(401);
    expect(peers.body.code).toBe("unauthorized");
  });

  test("a CORS preflight to /peerjs is answered 204", async () => {
    const response = await t.call("OPTIONS", "/peerjs/peerjs/id", { headers: { origin: "http://x.example", "access-control-request-method": "GET" } });
    expect(response.status).toBe(204);
    expect(response.headers.get("access-control-allow-origin")).toBe("http://x.example");
  });
});
