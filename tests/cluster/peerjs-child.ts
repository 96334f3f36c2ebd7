// One Redis-backed PeerJS engine in its own process, for tests that kill it with SIGKILL: it holds
// the peer ids in IDS (user USER, fake sockets), prints "ready", and waits.
import { redisPorts } from "../../src/cluster/redis.ts";
import { redisPeerEngine } from "../../src/cluster/peerjs-redis.ts";
import { DEFAULT_PEER_OPTIONS } from "../../src/peerjs/options.ts";

const ports = redisPorts({ url: process.env.REDIS_URL!, prefix: process.env.PREFIX!, heartbeatMs: 100, instanceTtlMs: 1500 });
await ports.ready();
const engine = redisPeerEngine(ports.redis!)({ options: DEFAULT_PEER_OPTIONS, apart: () => false, relayOnly: false });
const userId = Number(process.env.USER_ID);
for (const id of (process.env.IDS ?? "").split(",").filter(Boolean)) {
  const socket = { send: () => true, close() {} };
  if (!(await engine.connect(socket, { id, token: "child", key: "peerjs" }, { userId, sessionId: "child", address: "192.0.2.9" }))) throw new Error(`${id} refused`);
}
await ports.settled();
console.log("ready");
setInterval(() => {}, 1000);
