// The long-polling fallback (spec §7 "websocket preferred, polling fallback"): a real listening
// server, driven over HTTP as a browser whose WebSocket is blocked would drive it, next to /ws.
import { describe, expect, test } from "bun:test";
import { PollSocket } from "../../src/realtime/poll-socket.ts";
import { registerUser } from "../support/app.ts";
import { listeningApp, type ListeningApp } from "../support/listening.ts";
import { connectPolling, openPoll } from "../support/poll.ts";
import { until } from "../support/until.ts";
import { connect, type Frame } from "../support/ws.ts";


const status = async (response: Response) => (await response.arrayBuffer(), response.status);

describe("opening a polling session", () => {
  const t = listeningApp({ ALLOWED_ORIGINS: "https://partner.example", SIGNUP_RATE_LIMIT: "1000" });

  test("without a valid bearer token is refused with 401, and the token in the URL or the cookie alone does not count", async () => {
    const { token } = await registerUser(t);
    expect(await status(await fetch(`${t.url}/ws/poll/open`, { method: "POST" }))).toBe(401);
    expect(await status(await openPoll(t.url, "forged.token"))).toBe(401);
    expect(await status(await fetch(`${t.url}/ws/poll/open?token=${encodeURIComponent(token)}`, { method: "POST" }))).toBe(401);
    expect(await status(await fetch(`${t.url}/ws/poll/open`, { method: "POST", headers: { cookie: `sid=${encodeURIComponent(token)}` } }))).toBe(401);
    expect(t.ctx.hub.allSockets()).toHaveLength(0);
  });

  test("with a revoked token is refused with 401", async () => {
    const { token } = await registerUser(t);
    await t.call("POST", "/api/auth/logout", { token });
    expect(await status(await openPoll(t.url, token))).toBe(401);
  });

  test("from a foreign Origin is refused with 403, its own and listed origins are accepted", async () => {
    const { token } = await registerUser(t);
    expect(await status(await openPoll(t.url, token, { origin: "https://evil.example" }))).toBe(403);
    const own = await connectPolling(t.url, token, { origin: t.url });
    const listed = await connectPolling(t.url, token, { origin: "https://partner.example" });
    own.close();
    listed.close();
    await until(() => t.ctx.hub.allSockets().length === 0, "every socket closed on the server");
  });

  test("a session's sid is useless with another user's token, without a token, or from a foreign Origin", async () => {
    const ann = await registerUser(t);
    const bob = await registerUser(t);
    const s = await connectPolling(t.url, ann.token);
    expect(await status(await fetch(`${t.url}/ws/poll?sid=${s.sid}`, { headers: { authorization: `Bearer ${bob.token}` } }))).toBe(410);
    expect(await status(await fetch(`${t.url}/ws/poll?sid=${s.sid}`))).toBe(401);
    expect(await s.post([{ event: "ping", data: {} }], { authorization: `Bearer ${bob.token}` })).toBe(410);
    expect(await s.post([{ event: "ping", data: {} }], { origin: "https://evil.example" })).toBe(403);
    expect(await s.silent("pong")).toBe(true);
    s.close();
  });
});

describe("frames over polling", () => {
  const t = listeningApp({ SIGNUP_RATE_LIMIT: "1000" });

  test("ping is answered with pong, and an ack with the same envelope as /ws", async () => {
    const { token } = await registerUser(t);
    const s = await connectPolling(t.url, token);
    s.send("ping");
    await s.next("pong");
    expect((await s.ask("ping")).data).toEqual({});
    s.close();
  });

  test("every frame gets the same answer as it gets over /ws", async () => {
    const { token } = await registerUser(t);
    const other = await registerUser(t);
    const frames = (run: string): unknown[] => [
      "hello there",
      42,
      [1, 2, 3],
      { data: {} },
      { event: "launch_rockets", data: {}, ack: 7 },
      { event: "send_message", data: { receiverId: other.user.id }, ack: 8 },
      { event: "typing_start", data: { receiverId: "x" } },
      { event: "ping", data: {}, ack: 9 },
      { event: "send_message", data: { receiverId: other.user.id, content: "hi", messageType: "text", clientMessageId: `c-${run}` }, ack: 10 },
    ];
    const MARKER = 99;
    const answers = async (run: string, send: (frame: unknown) => unknown, got: Frame[], count: number) => {
      // online_count goes to everyone whenever the count moves (the other run's socket leaving
      // after its grace): not an answer to these frames, so not counted; nor is the marker's ack.
      const answered = () => got.filter((f) => f.event !== "online_count" && f.ack !== MARKER);
      // One after another (a send over polling resolves once dispatched), so the marker comes last.
      for (const frame of frames(run)) await send(frame);
      await until(() => answered().length >= count, "the frames counted");
      // Anything more these frames drew would come before the answer to a frame sent after them:
      // an unknown event, answered by one refusing ack and nothing else (a ping would add a pong).
      await send({ event: "launch_rockets", data: {}, ack: MARKER });
      await until(() => got.some((f) => f.ack === MARKER), "the marker answered");
      // The stored message's id and times differ between the two runs; its shape and content must not.
      return JSON.parse(JSON.stringify(answered()).replace(/"(id|createdAt|created_at|deliveredAt|readAt|timestamp)":("[^"]*"|\d+|null)/g, '"$1":0').replaceAll(`c-${run}`, "c-run"));
    };
    const ws = await connect(t.wsUrl, token);
    const overWs = await answers("ws", (f) => ws.raw(typeof f === "string" ? f : JSON.stringify(f)), ws.frames, 11);
    ws.close();
    const poll = await connectPolling(t.url, token);
    // Each frame in its own send, as the /ws run sent each on its own; every send taken (204).
    const overPoll = await answers("poll", async (f) => expect(await poll.post([f])).toBe(204), poll.frames, 11);
    poll.close();
    expect(overPoll.map((f: Frame) => f.event ?? `ack ${f.ack}`).sort()).toEqual(overWs.map((f: Frame) => f.event ?? `ack ${f.ack}`).sort());
    expect(overPoll.sort((a: Frame, b: Frame) => JSON.stringify(a).localeCompare(JSON.stringify(b)))).toEqual(
      overWs.sort((a: Frame, b: Frame) => JSON.stringify(a).localeCompare(JSON.stringify(b))),
    );
  });

  test("a poll with nothing to collect is held about 25 s and answered with an empty array, then the next one is held again", async () => {
    const { token } = await registerUser(t);
    const s = await connectPolling(t.url, token, {}, { polling: false });
    // online_count may answer a poll early (every 5 s while the count moves); an empty answer comes only at the hold's end.
    for (let i = 0; i < 4; i++) {
      const started = performance.now();
      const held = await fetch(`${t.url}/ws/poll?sid=${s.sid}`, { headers: { authorization: `Bearer ${token}` } });
      const ms = performance.now() - started;
      expect(held.status).toBe(200);
      const frames = (await held.json()) as Frame[];
      if (frames.length > 0) {
        expect(frames.every((f) => f.event === "online_count")).toBe(true);
        continue;
      }
      expect(ms).toBeGreaterThan(24_000);
      expect(ms).toBeLessThan(27_000);
      s.close();
      return;
    }
    throw new Error("no poll was held to its end");
  }, 60_000);

  test("at most two sends of one session wait at once; a third is refused with 429", async () => {
    const { token } = await registerUser(t);
    const s = await connectPolling(t.url, token);
    // Three sends whose bodies never finish arriving: the third is refused before its body is read.
    const stalled = Array.from({ length: 2 }, () => {
      const body = new ReadableStream({ start: (c) => c.enqueue(new TextEncoder().encode("[")) });
      const aborter = new AbortController();
      const done = fetch(`${t.url}/ws/poll/send?sid=${s.sid}`, { method: "POST", headers: { authorization: `Bearer ${token}` }, body, signal: aborter.signal, duplex: "half" } as RequestInit).catch(() => null);
      return { aborter, done };
    });
    // Once both have reached the server a send is refused; until then one may still be taken.
    await until(async () => (await s.post([{ event: "ping", data: {} }])) === 429, "a third send refused while two wait");
    for (const { aborter } of stalled) aborter.abort();
    await Promise.all(stalled.map((x) => x.done));
    s.close();
  });

  test("a send that is not a JSON array of at most 50 frames is refused with 400 and nothing is dispatched", async () => {
    const { token } = await registerUser(t);
    const s = await connectPolling(t.url, token);
    expect(await s.post({ event: "ping", data: {} })).toBe(400);
    expect(await s.post("{nope")).toBe(400);
    expect(await s.post(Array.from({ length: 51 }, () => ({ event: "ping", data: {} })))).toBe(400);
    expect(await s.post(`[${"[".repeat(100)}${"]".repeat(100)}]`)).toBe(400);
    expect(await s.post(JSON.stringify([{ event: "ping", data: { pad: "x".repeat(70 * 1024) } }]))).toBe(413);
    expect(await s.silent("pong")).toBe(true);
    s.close();
  });

  test("a polling user and a /ws user chat: message, ack, delivered tick, read tick and typing", async () => {
    const ann = await registerUser(t);
    const bob = await registerUser(t);
    const a = await connectPolling(t.url, ann.token);
    const b = await connect(t.wsUrl, bob.token);
    const acked = await a.ask("send_message", { receiverId: bob.user.id, content: "over polling", messageType: "text" });
    expect(acked.data.message.content).toBe("over polling");
    const incoming = await b.next("new_message");
    expect(incoming.data.message.content).toBe("over polling");
    await a.next("message_delivered");
    const messageId = acked.data.message.id;
    expect((await b.ask("messages_read", { senderId: ann.user.id, receiverId: bob.user.id, readAt: new Date().toISOString(), messageIds: [messageId] })).data).toEqual({ updatedCount: 1 });
    expect((await a.next("messages_read_batch")).data.messageIds).toEqual([messageId]);
    b.send("typing_start", { receiverId: ann.user.id });
    expect((await a.next("user_typing")).data).toMatchObject({ userId: bob.user.id, isTyping: true });
    b.send("send_message", { receiverId: ann.user.id, content: "over ws", messageType: "text" });
    expect((await a.next("new_message")).data.message.content).toBe("over ws");
    a.close();
    b.close();
  });

  test("a polling user is online for their contacts while the session is open, and offline after it closes", async () => {
    const ann = await registerUser(t);
    const bob = await registerUser(t);
    const b = await connect(t.wsUrl, bob.token);
    await b.ask("send_message", { receiverId: ann.user.id, content: "hello", messageType: "text" });
    const a = await connectPolling(t.url, ann.token);
    expect((await b.next("user_online", 3000, (f) => f.data.userId === ann.user.id)).data.userId).toBe(ann.user.id);
    a.close();
    expect((await b.next("user_offline", 10_000, (f) => f.data.userId === ann.user.id)).data.userId).toBe(ann.user.id);
    b.close();
  });

  test("logging out ends the polling session at once with 4401", async () => {
    const { token, user } = await registerUser(t);
    const s = await connectPolling(t.url, token);
    await t.call("POST", "/api/auth/logout", { token });
    expect((await s.closed).code).toBe(4401);
    expect(t.ctx.hub.socketsOf(user.id)).toHaveLength(0);
    // A send after the end is refused, not quietly dropped.
    expect(await s.post([{ event: "ping", data: {} }])).toBe(410);
  });
});

describe("limits over polling", () => {
  const t: ListeningApp = listeningApp({ SIGNUP_RATE_LIMIT: "1000", WS_IDLE_TIMEOUT_SECONDS: "5" });

  test("frames spend the same per-user bucket as /ws frames: past the burst they are refused with rate_limited", async () => {
    const { token } = await registerUser(t);
    const ws = await connect(t.wsUrl, token);
    for (let i = 0; i < 30; i++) ws.send("ping");
    const s = await connectPolling(t.url, token);
    expect(await s.post(Array.from({ length: 30 }, () => ({ event: "ping", data: {} })))).toBe(204);
    await until(() => s.frames.length >= 30, "30 frames");
    const refused = s.frames.filter((f) => f.event === "error" && f.data.code === "rate_limited").length;
    expect(refused).toBeGreaterThanOrEqual(15);
    ws.close();
    s.close();
  });

  test("polling sessions count toward the per-user socket cap, both ways", async () => {
    const { token } = await registerUser(t);
    // The cap counts what the server holds: connect and connectPolling resolve once it holds them.
    const sockets = await Promise.all(Array.from({ length: 9 }, () => connect(t.wsUrl, token)));
    const poll = await connectPolling(t.url, token);
    await expect(connect(t.wsUrl, token)).rejects.toThrow();
    const refused = await openPoll(t.url, token);
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    await refused.arrayBuffer();
    poll.close();
    for (const s of sockets) s.close();
    await until(() => t.ctx.hub.allSockets().length === 0, "every socket closed on the server");
  });

  test("a session whose frames are not collected is closed with 1008 past 256 KB waiting, and its frames are dropped", async () => {
    const ann = await registerUser(t);
    const s = await connectPolling(t.url, ann.token, {}, { polling: false });
    await until(() => t.ctx.hub.socketsOf(ann.user.id).length === 1, "one socket of Ann's");
    const big = JSON.stringify({ event: "pong", data: { pad: "x".repeat(30 * 1024) } });
    for (let i = 0; i < 9; i++) t.ctx.hub.sendTextToUser(ann.user.id, big);
    expect(t.ctx.hub.socketsOf(ann.user.id)).toHaveLength(0);
    const last = await fetch(`${t.url}/ws/poll?sid=${s.sid}`, { headers: { authorization: `Bearer ${ann.token}` } });
    expect(last.headers.get("x-poll-end")).toBe("1008");
    expect(await last.json()).toEqual([]);
  });

  test("a session nobody polls or pings expires after the idle time (4408), and a late poll is told so", async () => {
    const ann = await registerUser(t);
    const s = await connectPolling(t.url, ann.token, {}, { polling: false });
    await until(() => t.ctx.hub.socketsOf(ann.user.id).length === 0, "no socket of Ann's", 20_000);
    const late = await fetch(`${t.url}/ws/poll?sid=${s.sid}`, { headers: { authorization: `Bearer ${ann.token}` } });
    expect([late.status, late.headers.get("x-poll-end")]).toEqual([200, "4408"]);
    await late.arrayBuffer();
  }, 15_000);
});

describe("per-address cap and connect rate over polling (SOCKET_CAP 2:3, SOCKET_CONNECT_LIMIT 3)", () => {
  const t = listeningApp({ SIGNUP_RATE_LIMIT: "1000", SOCKET_CAP: "2:3", SOCKET_CONNECT_LIMIT: "3" });

  test("polling sessions and WebSockets share one address's cap", async () => {
    const [ann, bob, cid] = await Promise.all([registerUser(t), registerUser(t), registerUser(t)]);
    const ws = await Promise.all([connect(t.wsUrl, ann.token), connect(t.wsUrl, ann.token)]);
    const poll = await connectPolling(t.url, bob.token);
    const refused = await openPoll(t.url, cid.token);
    expect(refused.status).toBe(429);
    await refused.arrayBuffer();
    await expect(connect(t.wsUrl, cid.token)).rejects.toThrow();
    poll.close();
    for (const s of ws) s.close();
    await until(() => t.ctx.hub.allSockets().length === 0, "every socket closed on the server");
  });

  test("opening polling sessions spends the same connect budget as /ws upgrades", async () => {
    const { token } = await registerUser(t);
    const first = await connect(t.wsUrl, token);
    first.close();
    for (let i = 0; i < 2; i++) (await connectPolling(t.url, token)).close();
    await until(() => t.ctx.hub.allSockets().length === 0, "every socket closed on the server");
    const refused = await openPoll(t.url, token);
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    await refused.arrayBuffer();
  });
});

describe("moving to a WebSocket", () => {
  const t = listeningApp({ SIGNUP_RATE_LIMIT: "1000" });

  test("a WebSocket opened with resume=<sid> takes the session's place: frames waiting arrive first, none twice, none lost, presence unbroken", async () => {
    const ann = await registerUser(t);
    const bob = await registerUser(t);
    const b = await connect(t.wsUrl, bob.token);
    await b.ask("send_message", { receiverId: ann.user.id, content: "0", messageType: "text" });
    const poll = await connectPolling(t.url, ann.token, {}, { polling: false });
    await b.next("user_online", 3000, (f) => f.data.userId === ann.user.id);
    const before = t.ctx.hub.socketsOf(ann.user.id).map((s) => s.id);
    for (const content of ["1", "2"]) await b.ask("send_message", { receiverId: ann.user.id, content, messageType: "text" });
    const ws = await connect(t.wsUrl, ann.token, {}, `&resume=${poll.sid}`);
    for (const content of ["3", "4"]) await b.ask("send_message", { receiverId: ann.user.id, content, messageType: "text" });
    const got: string[] = [];
    for (let i = 0; i < 4; i++) got.push((await ws.next("new_message")).data.message.content);
    expect(got).toEqual(["1", "2", "3", "4"]);
    expect(t.ctx.hub.socketsOf(ann.user.id).map((s) => s.id)).toEqual(before);
    expect(await ws.silent("new_message", b)).toBe(true);
    // The session's sid no longer polls: told it moved.
    const moved = await fetch(`${t.url}/ws/poll?sid=${poll.sid}`, { headers: { authorization: `Bearer ${ann.token}` } });
    expect(moved.headers.get("x-poll-end")).toBe("4000");
    expect(await moved.json()).toEqual([]);
    expect(await b.silent("user_offline", ws)).toBe(true);
    // Acks for frames sent on the WebSocket come back there.
    expect((await ws.ask("ping")).data).toEqual({});
    ws.close();
    b.close();
  });

  test("a held poll gets the waiting frames as its last answer when the WebSocket takes over", async () => {
    const ann = await registerUser(t);
    const bob = await registerUser(t);
    const b = await connect(t.wsUrl, bob.token);
    const poll = await connectPolling(t.url, ann.token, {}, { polling: false });
    const held = fetch(`${t.url}/ws/poll?sid=${poll.sid}`, { headers: { authorization: `Bearer ${ann.token}` } });
    await until(() => t.ctx.hub.allSockets().some((s) => s instanceof PollSocket && s.holding), "the poll held by the server");
    const ws = await connect(t.wsUrl, ann.token, {}, `&resume=${poll.sid}`);
    const answer = await held;
    expect(answer.headers.get("x-poll-end")).toBe("4000");
    expect(await answer.json()).toEqual([]);
    await b.ask("send_message", { receiverId: ann.user.id, content: "after", messageType: "text" });
    expect((await ws.next("new_message")).data.message.content).toBe("after");
    ws.close();
    b.close();
  });

  test("resume with a sid of another session, or one that ended, is refused with 410", async () => {
    const ann = await registerUser(t);
    const bob = await registerUser(t);
    const poll = await connectPolling(t.url, ann.token);
    await expect(connect(t.wsUrl, bob.token, {}, `&resume=${poll.sid}`)).rejects.toThrow();
    poll.close();
    await until(() => t.ctx.hub.allSockets().length === 0, "every socket closed on the server");
    await expect(connect(t.wsUrl, ann.token, {}, `&resume=${poll.sid}`)).rejects.toThrow();
  });
});
