// PostgreSQL going away and coming back while people chat (issue 22): a real server on a
// PostgreSQL of the test's own, two people on sockets sending messages back to back and asking
// for their chat list over HTTP, the database stopped and started again under that load. While it
// is away every answer is a clear refusal (ack error `unavailable`, HTTP 503 with Retry-After),
// never `internal` or 500; it serves again by itself once the database is back; and every message
// that was acknowledged is in the conversation afterwards, once, in order.
import { afterAll, describe, expect, test } from "bun:test";
import { engine } from "../../src/storage/engine.ts";
import { ownPostgres, type OwnPostgres } from "../support/pg-cluster.ts";
import { removeServerData, startServer, type ServerProcess } from "../support/server-process.ts";
import { until } from "../support/until.ts";
import { connect, type TestSocket } from "../support/ws.ts";

let pg: OwnPostgres | undefined;
let server: ServerProcess | undefined;
afterAll(async () => {
  await server?.kill();
  pg?.remove();
  removeServerData();
});

interface Tally {
  acked: string[];
  ackErrors: Map<string, number>;
  statuses: Map<number, number>;
  retryAfter: Set<string | null>;
}

const bump = <K>(map: Map<K, number>, key: K) => map.set(key, (map.get(key) ?? 0) + 1);

// A PostgreSQL test: it runs in the suite's PostgreSQL pass (scripts/test-all.ts).
describe.skipIf(engine !== "postgres")("the database away and back under load", () => {
  test("refusals are 503 / unavailable while it is away, service resumes by itself, no acknowledged message is lost", async () => {
    pg = ownPostgres();
    // Sends as fast as answers come, and refusals come fast: the per-user frame budget is opened
    // wide, as it is not what this tests.
    server = await startServer({ env: { DATABASE_URL: pg.url, DATABASE_STATEMENT_TIMEOUT_MS: "2000", SOCKET_RATE_LIMIT: "1000000:1000000" } });
    const [a, b] = [await server.guest("female"), await server.guest("male")];
    const sa: TestSocket = await connect(server.wsUrl, a.token);
    const sb: TestSocket = await connect(server.wsUrl, b.token);
    const tally: Tally = { acked: [], ackErrors: new Map(), statuses: new Map(), retryAfter: new Set() };
    let running = true;
    let sent = 0;

    // One message at a time, each waiting for its ack: the load is as fast as the server answers.
    const sender = (async () => {
      while (running) {
        const id = `m${++sent}`;
        const ack = await sa.ask("send_message", { receiverId: b.user.id, content: id, messageType: "text", clientMessageId: id }, 30_000);
        if (ack.error) bump(tally.ackErrors, ack.error.code);
        else tally.acked.push(ack.data.message.content as string);
      }
    })();
    const reader = (async () => {
      while (running) {
        const r = await fetch(`${server!.url}/api/messages/chat-users-with-messages`, { headers: { authorization: `Bearer ${b.token}` } });
        await r.arrayBuffer();
        bump(tally.statuses, r.status);
        if (r.status === 503) tally.retryAfter.add(r.headers.get("retry-after"));
        await Bun.sleep(20);
      }
    })();

    const WITHIN = 60_000;
    await until(() => tally.acked.length >= 20, "20 messages acknowledged before the outage", WITHIN, 20);
    await pg.stop();
    await until(() => (tally.ackErrors.get("unavailable") ?? 0) >= 3 && (tally.statuses.get(503) ?? 0) >= 3, "refusals while the database is away", WITHIN, 20);
    const ackedBefore = tally.acked.length;
    await pg.start();
    await until(() => tally.acked.length >= ackedBefore + 20, "20 more messages acknowledged after it came back", WITHIN, 20);
    running = false;
    await Promise.all([sender, reader]);

    expect([...tally.ackErrors.keys()].filter((code) => code !== "unavailable")).toEqual([]);
    expect([...tally.statuses.keys()].filter((status) => status !== 200 && status !== 503)).toEqual([]);
    expect([...tally.retryAfter]).toEqual(["2"]);

    // Everything acknowledged is stored once, in the order it was sent.
    const contents: string[] = [];
    let before = "";
    for (let page = 0; page < 100; page++) {
      const r = await fetch(`${server.url}/api/messages/${a.user.id}?limit=100${before}`, { headers: { authorization: `Bearer ${b.token}` } });
      expect(r.status).toBe(200);
      const body = (await r.json()) as { messages: { content: string }[]; hasMore: boolean; oldestMessageTime: string | null };
      contents.unshift(...body.messages.map((m) => m.content));
      if (!body.hasMore) break;
      before = `&before=${encodeURIComponent(body.oldestMessageTime!)}`;
    }
    expect(contents.filter((c) => tally.acked.includes(c))).toEqual(tally.acked);
    expect(new Set(contents).size).toBe(contents.length);
    sa.close();
    sb.close();
  }, 240_000);
});
