// Web Push end to end (issue 26): subscriptions over HTTP, and a message or a ringing call to
// someone with no tab open reaching a local https push service, encrypted per RFC 8291 with VAPID.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { statSync } from "node:fs";
import { join } from "node:path";
import { registerUser } from "../support/app.ts";
import { connectedUser, listeningApp } from "../support/listening.ts";
import { browserSubscription, decryptPush, localPushService, verifyVapid } from "../support/push-service.ts";
import { until } from "../support/until.ts";
import { connect } from "../support/ws.ts";
import { loadConfig } from "../../src/config.ts";
import { subscriptionsOf, MAX_DEVICES } from "../../src/push/store.ts";
import { PUSH_CHANGES_PER_HOUR } from "../../src/push/index.ts";

const service = localPushService();
const t = listeningApp({ ...service.env, SIGNUP_RATE_LIMIT: "1000", PUSH_RATE_LIMIT: "3" });
beforeAll(() => service.start());
afterAll(() => service.stop());

let paths = 0;
const freshPath = () => `/push/${++paths}`;

async function subscribed(token: string, previews = false) {
  const path = freshPath();
  const sub = await browserSubscription(service.url(path));
  const answer = await t.call("POST", "/api/push/subscriptions", { token, json: { ...sub.json, previews } });
  expect(answer.status).toBe(201);
  return { sub, path };
}


describe("subscriptions", () => {
  test("the public key is 65 bytes, kept owner-only in DATA_DIR and the same after a restart", async () => {
    const answer = await t.call("GET", "/api/push/key");
    expect(answer.status).toBe(200);
    expect(Buffer.from(answer.body.publicKey, "base64url").length).toBe(65);
    expect(statSync(join(t.dataDir, "vapid.json")).mode & 0o777).toBe(0o600);
    const again = loadConfig({ DATA_DIR: t.dataDir, JWT_SECRET: "test-secret-test-secret-test-secret-1234" });
    expect(again.push.vapid.publicKey).toBe(answer.body.publicKey);
  });

  test("refuses endpoints that are not https on a known push service, and keys that are not keys", async () => {
    const { token } = await registerUser(t);
    const sub = await browserSubscription("https://fcm.googleapis.com/fcm/send/abc");
    const post = (json: unknown) => t.call("POST", "/api/push/subscriptions", { token, json });
    for (const endpoint of ["http://fcm.googleapis.com/fcm/send/x", "https://169.254.169.254/latest", "https://127.0.0.1/x", "https://internal.example/x", "https://fcm.googleapis.com:8443/x", "https://user:pw@fcm.googleapis.com/x", "https://push.apple.com.evil.example/x", "ftp://fcm.googleapis.com/x", "not a url"]) {
      const answer = await post({ ...sub.json, endpoint });
      expect(answer.status, endpoint).toBe(400);
      expect(answer.body.code).toBe("validation");
      expect(answer.body.fields.endpoint).toBeString();
    }
    expect((await post({ ...sub.json, keys: { p256dh: "AAAA", auth: sub.json.keys.auth } })).body.fields.keys).toContain("65 bytes");
    expect((await post({ ...sub.json, keys: { p256dh: sub.json.keys.p256dh, auth: "AAAA" } })).body.fields.keys).toContain("16 bytes");
    expect((await post({ endpoint: sub.json.endpoint })).body.fields.keys).toBeString();
    expect((await post({ ...sub.json, previews: "yes" })).body.fields.previews).toBe("previews is true or false");
    expect((await t.call("POST", "/api/push/subscriptions", { token, body: "x", headers: { "content-type": "text/plain" } })).status).toBe(415);
    expect((await t.call("POST", "/api/push/subscriptions", { json: sub.json })).status).toBe(401);
    // Apple's and Microsoft's hosts are under their domains.
    for (const endpoint of ["https://fcm.googleapis.com/fcm/send/abc", "https://web.push.apple.com/QO", "https://wns2-par02p.notify.windows.com/w/?token=x", "https://updates.push.services.mozilla.com/wpush/v2/x"]) {
      expect((await post({ ...sub.json, endpoint })).status, endpoint).toBe(201);
    }
    expect((await t.call("GET", "/api/push/subscriptions", { token })).body.devices.length).toBe(4);
  });

  test(`allows ${MAX_DEVICES} devices a person, updates a device posted again, and deletes one`, async () => {
    const { token, user } = await registerUser(t);
    const subs = await Promise.all(Array.from({ length: MAX_DEVICES + 1 }, (_, i) => browserSubscription(`https://fcm.googleapis.com/fcm/send/dev-${user.id}-${i}`)));
    for (const sub of subs.slice(0, MAX_DEVICES)) expect((await t.call("POST", "/api/push/subscriptions", { token, json: sub.json })).status).toBe(201);
    const over = await t.call("POST", "/api/push/subscriptions", { token, json: subs[MAX_DEVICES]!.json });
    expect(over.status).toBe(409);
    expect(over.body.error).toContain(`${MAX_DEVICES} devices`);
    // The same device again is an update (previews on), not an 11th.
    const again = await t.call("POST", "/api/push/subscriptions", { token, json: { ...subs[0]!.json, previews: true } });
    expect(again.status).toBe(201);
    expect(again.body.device.previews).toBe(true);
    const removed = await t.call("DELETE", "/api/push/subscriptions", { token, json: { endpoint: subs[0]!.json.endpoint } });
    expect(removed.body).toEqual({ removed: true });
    expect((await t.call("DELETE", "/api/push/subscriptions", { token, json: { endpoint: subs[0]!.json.endpoint } })).body).toEqual({ removed: false });
    expect((await t.call("POST", "/api/push/subscriptions", { token, json: subs[MAX_DEVICES]!.json })).status).toBe(201);
    expect((await subscriptionsOf(t.ctx.db, user.id)).length).toBe(MAX_DEVICES);
  });

  test(`answers 429 past ${PUSH_CHANGES_PER_HOUR} changes an hour`, async () => {
    const { token } = await registerUser(t);
    const sub = await browserSubscription("https://fcm.googleapis.com/fcm/send/rate");
    for (let i = 0; i < PUSH_CHANGES_PER_HOUR; i++) expect((await t.call("POST", "/api/push/subscriptions", { token, json: sub.json })).status).toBe(201);
    const refused = await t.call("DELETE", "/api/push/subscriptions", { token, json: { endpoint: sub.json.endpoint } });
    expect(refused.status).toBe(429);
    expect(refused.body.code).toBe("rate_limited");
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
  });

  test("a logout forgets the session's device", async () => {
    const { token, user } = await registerUser(t);
    await subscribed(token);
    expect((await subscriptionsOf(t.ctx.db, user.id)).length).toBe(1);
    expect((await t.call("POST", "/api/auth/logout", { token, json: {} })).status).toBeLessThan(300);
    expect(await subscriptionsOf(t.ctx.db, user.id)).toEqual([]);
  });
});

describe("pushes", () => {
  test("a message to someone with no tab open arrives encrypted, says who wrote but not what, and carries a VAPID JWT", async () => {
    const ann = await connectedUser(t, { name: "Ann" });
    const ben = await registerUser(t);
    const { sub, path } = await subscribed(ben.token);
    try {
      await ann.s.ask("send_message", { receiverId: ben.user.id, content: "a secret" });
      await until(() => service.requestsTo(path).length === 1, "the push");
      const push = service.requestsTo(path)[0]!;
      expect(push.headers["content-encoding"]).toBe("aes128gcm");
      expect(Number(push.headers.ttl)).toBeGreaterThan(0);
      expect(await decryptPush(sub, push.body)).toEqual({ type: "message", tag: `chat-${ann.user.id}`, chatId: ann.user.id, title: "Ann", body: "Sent you a message", url: `/?chat=${ann.user.id}` });
      const claims = await verifyVapid(push.headers.authorization!, t.ctx.config.push.vapid.publicKey);
      expect(claims.aud).toBe(new URL(service.url("/")).origin);
      expect(claims.sub).toBe("mailto:contact@example.com");
      expect(claims.exp * 1000).toBeGreaterThan(Date.now());
      expect(claims.exp * 1000).toBeLessThanOrEqual(Date.now() + 24 * 3600_000);
    } finally {
      ann.s.close();
    }
  });

  test("a push speaks the receiver's account language (Settings → Language)", async () => {
    const ann = await connectedUser(t, { name: "Ann" });
    const ben = await registerUser(t);
    expect((await t.call("PUT", "/api/users/locale", { token: ben.token, json: { locale: "de" } })).status).toBe(200);
    const { sub, path } = await subscribed(ben.token);
    try {
      await ann.s.ask("send_message", { receiverId: ben.user.id, content: "a secret" });
      await until(() => service.requestsTo(path).length === 1, "the push");
      expect(((await decryptPush(sub, service.requestsTo(path)[0]!.body)) as { body: string }).body).toBe("Hat dir eine Nachricht geschickt");
    } finally {
      ann.s.close();
    }
  });

  test("with previews on, the device sees the text", async () => {
    const ann = await connectedUser(t, { name: "Ann" });
    const ben = await registerUser(t);
    const { sub, path } = await subscribed(ben.token, true);
    try {
      await ann.s.ask("send_message", { receiverId: ben.user.id, content: "see  you\nat eight" });
      await until(() => service.requestsTo(path).length === 1, "the push");
      expect(((await decryptPush(sub, service.requestsTo(path)[0]!.body)) as { body: string }).body).toBe("see you at eight");
    } finally {
      ann.s.close();
    }
  });

  test("nobody with a tab open is pushed, nor anyone past PUSH_RATE_LIMIT a minute", async () => {
    const ann = await connectedUser(t);
    const ben = await connectedUser(t);
    const cat = await registerUser(t);
    const benDevice = await subscribed(ben.token);
    const catDevice = await subscribed(cat.token);
    try {
      await ann.s.ask("send_message", { receiverId: ben.user.id, content: "you are here" });
      for (let i = 0; i < 5; i++) await ann.s.ask("send_message", { receiverId: cat.user.id, content: `m${i}` });
      await t.ctx.push.idle();
      expect(service.requestsTo(benDevice.path)).toEqual([]);
      expect(service.requestsTo(catDevice.path).length).toBe(3);
    } finally {
      ann.s.close();
      ben.s.close();
    }
  });

  test("a block stops the push with the message", async () => {
    const ann = await connectedUser(t);
    const ben = await registerUser(t);
    const { path } = await subscribed(ben.token);
    try {
      expect((await t.call("POST", "/api/blocks", { token: ben.token, json: { userId: ann.user.id } })).status).toBe(201);
      const refused = await ann.s.ask("send_message", { receiverId: ben.user.id, content: "let me in" });
      expect(refused.error?.code).toBe("blocked");
      // The gate in the push service itself, past the message's own check.
      await t.ctx.push.message(ann.user, { id: 0, receiverId: ben.user.id, senderId: ann.user.id, content: "x", messageType: "text", fileName: null } as never);
      await t.ctx.push.idle();
      expect(service.requestsTo(path)).toEqual([]);
    } finally {
      ann.s.close();
    }
  });

  test("410 and 404 from the push service remove the subscription", async () => {
    const ann = await connectedUser(t);
    const ben = await registerUser(t);
    const gone = await subscribed(ben.token);
    const missing = await subscribed(ben.token);
    service.answer(gone.path, 410);
    service.answer(missing.path, 404);
    try {
      await ann.s.ask("send_message", { receiverId: ben.user.id, content: "hello?" });
      await t.ctx.push.idle();
      expect(service.requestsTo(gone.path).length).toBe(1);
      expect(await subscriptionsOf(t.ctx.db, ben.user.id)).toEqual([]);
    } finally {
      ann.s.close();
    }
  });

  test("a call to someone with no tab open rings by push, and its end closes the notification", async () => {
    const ann = await connectedUser(t, { name: "Ann" });
    const ben = await registerUser(t);
    const { sub, path } = await subscribed(ben.token);
    try {
      const ack = await ann.s.ask("call_user", { receiverId: ben.user.id, callerPeerId: "peer-ann" });
      expect(ack.data).toEqual({ status: "ringing" });
      await until(() => service.requestsTo(path).length === 1, "the ring");
      const ring = service.requestsTo(path)[0]!;
      expect(ring.headers.topic).toBe(`call-${ann.user.id}`);
      expect(await decryptPush(sub, ring.body)).toEqual({ type: "call", tag: `call-${ann.user.id}`, chatId: ann.user.id, title: "Ann", body: "Incoming video call", url: `/?chat=${ann.user.id}` });
      await ann.s.ask("end_call", { receiverId: ben.user.id });
      await until(() => service.requestsTo(path).length === 2, "the end of the ring");
      expect(await decryptPush(sub, service.requestsTo(path)[1]!.body)).toEqual({ type: "call_ended", tag: `call-${ann.user.id}` });
    } finally {
      ann.s.close();
    }
  });

  test("a tab opened while a call rings by push rings too", async () => {
    const ann = await connectedUser(t, { name: "Ann" });
    const ben = await registerUser(t);
    const { path } = await subscribed(ben.token);
    try {
      await ann.s.ask("call_user", { receiverId: ben.user.id, callerPeerId: "peer-ann" });
      await until(() => service.requestsTo(path).length === 1, "the ring");
      const tab = await connect(t.wsUrl, ben.token);
      const incoming = await tab.next("incoming_call");
      expect(incoming.data).toEqual({ callerId: ann.user.id, callerName: "Ann", callerPeerId: "peer-ann" });
      await tab.ask("reject_call", { callerId: ann.user.id });
      expect((await ann.s.next("call_rejected")).data.reason).toBe("declined");
      await until(() => service.requestsTo(path).length === 2, "the end of the ring");
      tab.close();
    } finally {
      ann.s.close();
    }
  });
});
