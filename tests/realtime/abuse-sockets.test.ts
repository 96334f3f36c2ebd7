// Finding 1: one account or one address cannot hold unbounded sockets, cannot open them at any
// rate, and a socket that stops reading is closed instead of buffering without bound.
import { describe, expect, test } from "bun:test";
import { loadConfig } from "../../src/config.ts";
import { registerUser } from "../support/app.ts";
import { listeningApp, type ListeningApp } from "../support/listening.ts";
import { connect, type TestSocket } from "../support/ws.ts";
import { rawUpgrade, socketPath } from "../support/raw-ws.ts";
import { until } from "../support/until.ts";


/**
 * The upgrade counts the sockets the server holds, and a socket is held once its opening has read
 * the session: on PostgreSQL that read may end after the client saw the socket open, and an
 * upgrade asked meanwhile is let through (the opening then closes it with 4429, as for a race).
 */
async function heldAt(t: ListeningApp, count: number): Promise<void> {
  await until(() => t.ctx.hub.allSockets().length === count, `the server holding ${count} sockets`);
}

async function closeAll(t: ListeningApp, sockets: TestSocket[]): Promise<void> {
  for (const s of sockets) s.close();
  await until(() => t.ctx.hub.allSockets().length === 0, "the server closing every socket");
}

describe("socket caps (SOCKET_CAP 10:50)", () => {
  const t = listeningApp({ SIGNUP_RATE_LIMIT: "1000" });

  test("the defaults are the contract's: 10 sockets per user, 50 per address, 30 new a minute, 5 s before offline", () => {
    expect(t.ctx.config.socketCap).toEqual({ perUser: 10, perAddress: 50 });
    expect(t.ctx.config.socketConnectsPerMinute).toBe(30);
    expect(t.ctx.config.presenceGraceMs).toBe(5000);
  });

  test("a SOCKET_CAP that is not \"user:address\" stops start-up with a line naming it", () => {
    for (const bad of ["lots", "10", "0:50", "60:50"]) expect(() => loadConfig({ DATA_DIR: t.dataDir, SOCKET_CAP: bad })).toThrow(/SOCKET_CAP/);
    expect(loadConfig({ DATA_DIR: t.dataDir, SOCKET_CAP: "3:7" }).socketCap).toEqual({ perUser: 3, perAddress: 7 });
  });

  test("an account's eleventh open socket is refused with 429 and Retry-After", async () => {
    const ann = await registerUser(t);
    const open = await Promise.all(Array.from({ length: 10 }, () => connect(t.wsUrl, ann.token)));
    await heldAt(t, 10);
    const refused = await rawUpgrade(t.listen().port, socketPath(ann.token));
    refused.destroy();
    expect(refused.status).toBe(429);
    expect(Number(refused.headers["retry-after"])).toBeGreaterThan(0);
    open[0]!.close();
    await until(() => t.ctx.hub.socketsOf(ann.user.id).length === 9, "the server handling the close");
    const again = await connect(t.wsUrl, ann.token);
    await closeAll(t, [...open.slice(1), again]);
  });

  test("one address holds at most fifty sockets, whatever the accounts", async () => {
    const people = await Promise.all(Array.from({ length: 6 }, () => registerUser(t)));
    const open: TestSocket[] = [];
    for (const person of people.slice(0, 5)) for (let i = 0; i < 10; i++) open.push(await connect(t.wsUrl, person.token));
    await heldAt(t, 50);
    const refused = await rawUpgrade(t.listen().port, socketPath(people[5]!.token));
    refused.destroy();
    expect(refused.status).toBe(429);
    await closeAll(t, open);
  });

  test("sockets racing past the cap together are refused or closed with 4429, never kept", async () => {
    const bea = await registerUser(t);
    const port = t.listen().port;
    const attempts = await Promise.all(Array.from({ length: 16 }, () => rawUpgrade(port, socketPath(bea.token))));
    const upgraded = attempts.filter((a) => a.status === 101);
    expect(attempts.filter((a) => a.status !== 101).every((a) => a.status === 429)).toBe(true);
    await until(() => t.ctx.hub.socketsOf(bea.user.id).length <= 10, "Bea's sockets down to the cap");
    expect(upgraded.length).toBeGreaterThanOrEqual(10);
    for (const a of attempts) a.destroy();
    await until(() => t.ctx.hub.allSockets().length === 0, "the server closing every socket");
  });

  test("the 31st new connection of one account within a minute is refused with 429 and Retry-After", async () => {
    const cal = await registerUser(t);
    for (let i = 0; i < 30; i++) {
      const s = await connect(t.wsUrl, cal.token);
      s.close();
      await s.closed;
    }
    const refused = await rawUpgrade(t.listen().port, socketPath(cal.token));
    refused.destroy();
    expect(refused.status).toBe(429);
    expect(Number(refused.headers["retry-after"])).toBeGreaterThan(0);
    // Someone else is not held back by it.
    const other = await registerUser(t);
    await closeAll(t, [await connect(t.wsUrl, other.token)]);
  });
});

describe("a socket that stops reading", () => {
  // The event limit is lifted here so that the socket's own answers fill its queue quickly.
  const t = listeningApp({ SOCKET_RATE_LIMIT: "100000:100000" });

  test("is closed once its queue passes the backpressure limit, long before Bun's 16 MB default", async () => {
    const sender = await registerUser(t);
    const receiver = await registerUser(t);
    const slow = await rawUpgrade(t.listen().port, socketPath(sender.token));
    expect(slow.status).toBe(101);
    slow.stopReading();
    const content = "x".repeat(4000);
    let sent = 0;
    // Each frame makes about 8.5 KB of answers (message_sent and the ack); 1,500 frames are about
    // 13 MB, which fills the loopback buffers (a few MB) and passes a 256 KB server queue, but
    // not the 16 MB Bun queues by default.
    while (t.ctx.hub.socketsOf(sender.user.id).length > 0 && sent < 1500) {
      slow.sendText(JSON.stringify({ event: "send_message", data: { receiverId: receiver.user.id, content, messageType: "text" }, ack: sent }));
      sent += 1;
      if (sent % 50 === 0) await Bun.sleep(5);
    }
    await until(() => t.ctx.hub.socketsOf(sender.user.id).length === 0, "the server closing the socket that stopped reading");
    slow.destroy();
  }, 20_000);
});
