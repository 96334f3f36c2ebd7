// (c) One account opens and closes /ws as fast as it can for a few seconds while another user,
// who has a conversation with it (so it is in the watcher's chat list), keeps a socket open and
// counts the user_online / user_offline events about the flooder.
import { address, guest, openReader, tally } from "./accounts.ts";
import { rawUpgrade, socketPath } from "../../tests/support/raw-ws.ts";
import type { BenchServer } from "./server.ts";

export interface FloodOptions {
  seconds: number;
  parallel: number;
  /** Bounds the attempts (and the client ports left in TIME_WAIT) when every attempt is refused at once. */
  maxAttempts: number;
}

export interface FloodResult {
  attempts: number;
  upgrades: Record<string, number>;
  online: number;
  offline: number;
}

/** Presence may be announced late on purpose (a flap of a few seconds is not announced): wait it out. */
const SETTLE_MS = 8000;

export async function presenceFlood(server: BenchServer, o: FloodOptions): Promise<FloodResult> {
  const flooder = await guest(server, address(3, 0));
  const watcher = await guest(server, address(3, 1));
  let online = 0;
  let offline = 0;
  const watching = await openReader(server, watcher, (frame) => {
    if (frame.data?.userId !== flooder.id) return;
    if (frame.event === "user_online") online++;
    if (frame.event === "user_offline") offline++;
  });
  const hello = await openReader(server, flooder);
  await hello.request("send_message", { receiverId: watcher.id, content: "hello", messageType: "text" });
  hello.close();
  await Bun.sleep(SETTLE_MS);
  online = 0;
  offline = 0;

  const statuses: number[] = [];
  const deadline = Date.now() + o.seconds * 1000;
  const path = socketPath(flooder.token);
  await Promise.all(
    Array.from({ length: o.parallel }, async () => {
      while (Date.now() < deadline && statuses.length < o.maxAttempts) {
        const socket = await rawUpgrade(server.port, path, { "x-forwarded-for": flooder.address });
        statuses.push(socket.status);
        if (socket.status !== 101) {
          socket.destroy();
          continue;
        }
        // Wait for the server to let go, so the account really is offline before the next connect.
        socket.close();
        await socket.closed;
      }
    }),
  );
  await Bun.sleep(SETTLE_MS);
  watching.close();
  return { attempts: statuses.length, upgrades: tally(statuses), online, offline };
}
