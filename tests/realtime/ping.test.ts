// A ping keeps a socket alive without reading its user's row (dispatch.ts): thousands of idle
// sockets each ping every 15 s, and on PostgreSQL the users cache is emptied every 2 s, so a read
// per ping was most of what they cost. Any other event still reads the row (a ban, a new name).
import { afterEach, expect, test } from "bun:test";
import { statements } from "../../src/messages/statements.ts";
import { dispatch } from "../../src/realtime/dispatch.ts";
import { handlers } from "../../src/realtime/handlers/index.ts";
import { forgetUser } from "../../src/users/cache.ts";
import { makeTestApp, registerUser, type TestApp } from "../support/app.ts";
import { fakeSocket } from "../support/fake-socket.ts";

let t: TestApp | null = null;
afterEach(async () => {
  await t?.close();
  t = null;
});

/** Counts the users-row reads the cache makes from now on. */
function countUserReads(app: TestApp): { reads: number; stop(): void } {
  const prepared = statements(app.ctx.db);
  const original = prepared.userById;
  const counter = {
    reads: 0,
    stop: () => void (prepared.userById = original),
  };
  prepared.userById = (db, id) => {
    counter.reads++;
    return original(db, id);
  };
  return counter;
}

test("a ping answers pong (and its ack) without reading the user's row; another event reads it", async () => {
  t = makeTestApp();
  const { user } = await registerUser(t);
  const heard: string[] = [];
  const socket = fakeSocket(user.id, { heard });
  const counter = countUserReads(t);
  try {
    forgetUser(t.ctx.db, user.id);
    await dispatch(t.ctx, handlers, socket, { event: "ping", data: {}, ack: 1 });
    await dispatch(t.ctx, handlers, socket, { event: "ping", data: {} });
    expect(heard.map((text) => JSON.parse(text))).toEqual([{ event: "pong", data: {} }, { ack: 1, data: {} }, { event: "pong", data: {} }]);
    expect(counter.reads).toBe(0);
    expect(socket.closedWith).toBeUndefined();

    await dispatch(t.ctx, handlers, socket, { event: "user_back_online", data: {}, ack: 2 });
    expect(counter.reads).toBe(1);
  } finally {
    counter.stop();
  }
});

test("a ping counts against the socket's event budget like any frame", async () => {
  t = makeTestApp({ SOCKET_RATE_LIMIT: "1:3" });
  const { user } = await registerUser(t);
  const heard: string[] = [];
  const socket = fakeSocket(user.id, { heard });
  for (let i = 1; i <= 4; i++) await dispatch(t.ctx, handlers, socket, { event: "ping", data: {}, ack: i });
  const frames = heard.map((text) => JSON.parse(text) as { ack?: number; error?: { code: string } });
  expect(frames.filter((frame) => frame.ack !== undefined && !frame.error).map((frame) => frame.ack)).toEqual([1, 2, 3]);
  expect(frames.find((frame) => frame.ack === 4)?.error?.code).toBe("rate_limited");
});
