// The message load, in its own process: one sender and one receiver socket per pair of users;
// each sender keeps `window` messages in flight (sending the next when an ack comes back, or, when
// `ratePerSecond` is set, at its share of that offered rate once the ack is back). After
// a warm-up, a measured window counts deliveries at the receivers and acks at the senders, and
// reads the server's CPU time (and the PostgreSQL server's, when it is given) from /proc around it.
// Each message carries its send time, so the receiver's frame gives the delivery latency too. With
// `across` (the cluster run) every pair is split over two instances: even pairs send on `target`
// and receive on `across`, odd pairs the other way round. Prints one JSON line (MessageResult).
//   bun bench/load/messages.ts <spec.json>     (written by bench/compare.ts)
import { cpuMicros, rssKb, treeCpuMicros } from "../compare/proc.ts";
import { connect, inBatches, quantile, type Client, type Target } from "./clients.ts";

export interface MessageSpec {
  target: Target;
  pairs: { sender: { id: number; token: string }; receiver: { id: number; token: string } }[];
  warmupMs: number;
  measureMs: number;
  window: number;
  /** When set, the senders together offer this many messages a second (still never more than `window` in flight each). */
  ratePerSecond?: number;
  serverPid: number;
  /** The postmaster of the PostgreSQL server the system writes to, when it runs on this machine. */
  databasePid?: number;
  /** A second instance: every pair's two sockets are on different instances. */
  across?: Target;
  /** More processes whose CPU per message is read (the cluster's second instance, Redis, HAProxy), by label. */
  extraPids?: Record<string, number>;
}

export interface MessageResult {
  sockets: number;
  connectMs: number;
  /** Messages delivered at receivers per second in the measured window. */
  deliveredPerSecond: number;
  ackedPerSecond: number;
  ackP50: number;
  ackP99: number;
  /** Server CPU (user + system) per acknowledged message, in microseconds. */
  cpuPerMessageUs: number;
  /** The PostgreSQL server's CPU (all its processes) per acknowledged message; NaN on SQLite. */
  databaseCpuPerMessageUs: number;
  /** `extraPids`' CPU per acknowledged message, by label. */
  extraCpuPerMessageUs: Record<string, number>;
  /** Send (just before the frame went out) to the receiver's new_message, over the measured window, in ms. */
  deliveryP50: number;
  deliveryP99: number;
  /** Server RSS at the end of the measured window, sockets still open, in KB. */
  rssKb: number;
  errors: Record<string, number>;
}

const spec = (await Bun.file(process.argv[2]!).json()) as MessageSpec;
const started = performance.now();
const deadline = Date.now() + 60_000;
const clients = await inBatches(spec.pairs.length, 50, deadline, async (i) => {
  const pair = spec.pairs[i]!;
  const [senderAt, receiverAt] = spec.across ? (i % 2 === 0 ? [spec.target, spec.across] : [spec.across, spec.target]) : [spec.target, spec.target];
  return { pair, sender: await connect(senderAt, pair.sender.token), receiver: await connect(receiverAt, pair.receiver.token) };
});
if (clients.length < spec.pairs.length) throw new Error(`only ${clients.length * 2} of ${spec.pairs.length * 2} sockets opened within 60 s`);
const connectMs = performance.now() - started;

let measuring = false;
let stopping = false;
let delivered = 0;
let acked = 0;
const latencies: number[] = [];
const deliveries: number[] = [];
const errors: Record<string, number> = {};

const lanes = clients.length * spec.window;
/** Every run makes its own client message ids: a repeated id would be answered from the store, not sent. */
const run = crypto.randomUUID().slice(0, 8);
/** Each lane's time between sends when paced, in ms; 0 sends as soon as the ack is back. */
const interval = spec.ratePerSecond ? (lanes / spec.ratePerSecond) * 1000 : 0;

async function sendLoop(index: number, sender: Client, receiverId: number, lane: number): Promise<void> {
  let nextAt = performance.now() + Math.random() * interval;
  for (let n = 0; !stopping; n++) {
    if (interval > 0) {
      const wait = nextAt - performance.now();
      if (wait > 0) await Bun.sleep(wait);
      nextAt += interval;
    }
    const sentAt = performance.now();
    const counted = measuring;
    // The send time rides in the content ("@<ms>"): this process holds the receiver too.
    const answer = await sender.request("send_message", { receiverId, content: `message ${n} from lane ${lane} @${sentAt.toFixed(3)}`, messageType: "text", clientMessageId: `${run}-${index}-${lane}-${n}` });
    if (answer.error) {
      errors[answer.error.code] = (errors[answer.error.code] ?? 0) + 1;
      if (answer.error.code === "closed") return;
      continue;
    }
    if (measuring) acked++;
    if (counted && measuring) latencies.push(performance.now() - sentAt);
  }
}

for (const { receiver } of clients) {
  receiver.on("new_message", (data) => {
    if (!measuring) return;
    delivered++;
    const content = (data.message as { content?: string } | undefined)?.content ?? "";
    const sentAt = Number(content.slice(content.lastIndexOf("@") + 1));
    if (sentAt > 0) deliveries.push(performance.now() - sentAt);
  });
}
for (const { sender } of clients) {
  // Listened to (and parsed) as a browser would; not counted.
  sender.on("message_sent", () => {});
  sender.on("message_delivered", () => {});
}
const loops = clients.flatMap(({ pair, sender }, i) => Array.from({ length: spec.window }, (_, lane) => sendLoop(i, sender, pair.receiver.id, lane)));

await Bun.sleep(spec.warmupMs);
const databaseCpu = () => (spec.databasePid ? treeCpuMicros(spec.databasePid) : NaN);
const cpuBefore = cpuMicros(spec.serverPid);
const databaseBefore = databaseCpu();
const extraBefore = Object.fromEntries(Object.entries(spec.extraPids ?? {}).map(([label, pid]) => [label, cpuMicros(pid)]));
const windowStart = performance.now();
measuring = true;
await Bun.sleep(spec.measureMs);
measuring = false;
const seconds = (performance.now() - windowStart) / 1000;
const cpu = cpuMicros(spec.serverPid) - cpuBefore;
const databaseUs = databaseCpu() - databaseBefore;
const extraUs = Object.fromEntries(Object.entries(spec.extraPids ?? {}).map(([label, pid]) => [label, cpuMicros(pid) - extraBefore[label]!]));
const rss = rssKb(spec.serverPid);
stopping = true;
await Promise.race([Promise.all(loops), Bun.sleep(5000)]);
for (const { sender, receiver } of clients) {
  sender.close();
  receiver.close();
}
latencies.sort((a, b) => a - b);
deliveries.sort((a, b) => a - b);
const result: MessageResult = {
  sockets: clients.length * 2,
  connectMs,
  deliveredPerSecond: delivered / seconds,
  ackedPerSecond: acked / seconds,
  ackP50: quantile(latencies, 0.5),
  ackP99: quantile(latencies, 0.99),
  cpuPerMessageUs: acked > 0 ? cpu / acked : NaN,
  databaseCpuPerMessageUs: acked > 0 ? databaseUs / acked : NaN,
  extraCpuPerMessageUs: Object.fromEntries(Object.entries(extraUs).map(([label, us]) => [label, acked > 0 ? us / acked : NaN])),
  deliveryP50: quantile(deliveries, 0.5),
  deliveryP99: quantile(deliveries, 0.99),
  rssKb: rss,
  errors,
};
console.log(JSON.stringify(result));
process.exit(0);
