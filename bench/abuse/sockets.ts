// (a) Sockets that never read while the server pushes to them: victims' sockets stop reading
// right after the upgrade, and sender accounts write 3.9 KB messages at 18 a second each (under
// the per-user event limit) to the first `pushUsers` victims, so every message is queued on
// their ten sockets. The push is concentrated because loopback's kernel buffers take the first
// few MB of each socket: only past them does the server's own queue (and RSS) grow.
import { address, guest, openReader, tally, type Account } from "./accounts.ts";
import { rawUpgrade, socketPath, type RawSocket } from "../../tests/support/raw-ws.ts";
import { peakSampler, tcpBuffersMb, type BenchServer } from "./server.ts";

export interface SocketsOptions {
  sockets: number;
  perUser: number;
  perAddress: number;
  senders: number;
  pushSeconds: number;
  pushUsers: number;
}

export interface SocketsResult {
  users: number;
  addresses: number;
  upgrades: Record<string, number>;
  open: number;
  messages: Record<string, number>;
  /** Frames addressed to each socket that was pushed to. */
  pushedMbPerSocket: number;
  rss: { before: number; open: number; peak: number; after: number };
  tcpBuffersPeakMb: number;
  closedByServer: number;
}

const CONTENT = "x".repeat(3900);
const SEND_EVERY_MS = 55;

/** Runs `task` for 0..n-1, `width` at a time. */
export async function inBatches<T>(n: number, width: number, task: (i: number) => Promise<T>): Promise<T[]> {
  const out: T[] = [];
  for (let start = 0; start < n; start += width) {
    out.push(...(await Promise.all(Array.from({ length: Math.min(width, n - start) }, (_, k) => task(start + k)))));
  }
  return out;
}

export async function nonReadingSockets(server: BenchServer, o: SocketsOptions): Promise<SocketsResult> {
  const users = Math.ceil(o.sockets / o.perUser);
  const usersPerAddress = Math.max(1, Math.floor(o.perAddress / o.perUser));
  const victims = await inBatches(users, 20, (i) => guest(server, address(1, Math.floor(i / usersPerAddress))));
  await Bun.sleep(1000);
  const before = server.rssMb();

  const raws = await inBatches(o.sockets, 50, (i) => {
    const victim = victims[Math.floor(i / o.perUser)]!;
    return rawUpgrade(server.port, socketPath(victim.token), { "x-forwarded-for": victim.address });
  });
  const open: RawSocket[] = [];
  for (const raw of raws) {
    if (raw.status === 101) {
      raw.stopReading();
      open.push(raw);
    } else raw.destroy();
  }
  await Bun.sleep(500);
  const openRss = server.rssMb();

  const senders: Account[] = await inBatches(o.senders, 20, (i) => guest(server, address(2, Math.floor(i / o.perAddress))));
  const readers = await Promise.all(senders.map((s) => openReader(server, s)));
  const peak = peakSampler(server.rssMb);
  const kernelPeak = peakSampler(tcpBuffersMb);
  const pushed = victims.slice(0, Math.max(1, Math.min(o.pushUsers, victims.length)));
  const answers: Promise<string | null>[] = [];
  const deadline = Date.now() + o.pushSeconds * 1000;
  for (let round = 0; Date.now() < deadline; round++) {
    readers.forEach((reader, s) => {
      const receiver = pushed[(s + round * readers.length) % pushed.length]!;
      answers.push(reader.request("send_message", { receiverId: receiver.id, content: CONTENT, messageType: "text" }));
    });
    await Bun.sleep(SEND_EVERY_MS);
  }
  const codes = await Promise.race([Promise.all(answers), Bun.sleep(10_000).then(() => null)]);
  const messages = codes ? tally(codes.map((c) => c ?? "ok")) : { unanswered_after_10_s: answers.length };
  const peakRss = peak();
  const tcpBuffersPeakMb = kernelPeak();
  await Bun.sleep(1000);
  const after = server.rssMb();
  const ended = await Promise.all(open.map((s) => s.endedWithin(3000)));
  for (const s of open) s.destroy();
  for (const r of readers) r.close();

  return {
    users,
    addresses: Math.ceil(users / usersPerAddress),
    upgrades: tally(raws.map((r) => r.status)),
    open: open.length,
    messages,
    pushedMbPerSocket: ((messages.ok ?? 0) * (CONTENT.length + 400)) / pushed.length / 1e6,
    rss: { before, open: openRss, peak: peakRss, after },
    tcpBuffersPeakMb,
    closedByServer: ended.filter(Boolean).length,
  };
}
