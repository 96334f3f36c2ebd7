// One Redis-backed instance in its own process holding one side of a call, for the test that kills
// it with SIGKILL (calls-port.test.ts): it places a call from CALLER to CALLEE (its tab is the
// caller's), prints "ready" once Redis has it, and waits.
import { redisPorts } from "../../src/cluster/redis.ts";
import { redisCalls } from "../../src/cluster/calls-redis.ts";

const ports = redisPorts({ url: process.env.REDIS_URL!, prefix: process.env.PREFIX!, heartbeatMs: 100, instanceTtlMs: 1500 });
await ports.ready();
const calls = redisCalls(ports.redis!, ports.bus, { presentHere: () => false, socketsOf: () => [], shownRow: async () => false });
const placed = await calls.start({ callerId: Number(process.env.CALLER), receiverId: Number(process.env.CALLEE), callerSocketId: "child-tab", receiverSocketId: null, answered: false, callerPeerId: "p" }, 60_000);
if (!placed) throw new Error("the call was refused");
await ports.settled();
console.log("ready");
setInterval(() => {}, 1000);
