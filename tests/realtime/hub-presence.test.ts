// The hub's presence without a server: offline only after the grace, a ban at once, nothing
// after shutdown, and the per-address count behind SOCKET_CAP.
import { describe, expect, test } from "bun:test";
import { Hub } from "../../src/realtime/hub.ts";
import { afterTimers, until } from "../support/until.ts";
import { fakeSocket } from "../support/fake-socket.ts";


function recordingHub(graceMs: number) {
  const hub = new Hub(graceMs);
  const heard: string[] = [];
  hub.onPresence((userId, online) => heard.push(`${userId} ${online ? "online" : "offline"}`));
  return { hub, heard };
}

/** What was heard about users below 1000 (markers use ids from 1000 on). */
const realUsers = (heard: string[]) => heard.filter((line) => Number(line.split(" ")[0]) < 1000);

let markers = 1000;
/**
 * Resolves when the grace of a marker user who leaves now has ended: grace timers fire in the
 * order they are due, so every grace started earlier has had its turn.
 */
async function graceEnded(hub: Hub, heard: string[]): Promise<void> {
  const id = markers++;
  const marker = fakeSocket(id);
  hub.connect(marker);
  hub.disconnect(marker);
  await until(() => heard.includes(`${id} offline`), "a later grace's end");
}

describe("the hub's presence", () => {
  test("the last socket closing is announced only after the grace, and a return within it cancels it", async () => {
    const { hub, heard } = recordingHub(40);
    const first = fakeSocket(1);
    hub.connect(first);
    hub.disconnect(first);
    expect(heard).toEqual(["1 online"]);
    expect(hub.isOnline(1)).toBe(true);
    expect(hub.isPresent(1)).toBe(false);
    hub.connect(fakeSocket(1));
    await graceEnded(hub, heard);
    expect(realUsers(heard)).toEqual(["1 online"]);
    const last = hub.socketsOf(1)[0]!;
    hub.disconnect(last);
    await graceEnded(hub, heard);
    expect(realUsers(heard)).toEqual(["1 online", "1 offline"]);
    expect(hub.isOnline(1)).toBe(false);
  });

  test("user_logout waits for the grace like a close, and user_back_online within it cancels it", async () => {
    const { hub, heard } = recordingHub(40);
    const s = fakeSocket(2);
    hub.connect(s);
    hub.setPresent(s, false);
    hub.setPresent(s, true);
    hub.setPresent(s, false);
    await graceEnded(hub, heard);
    expect(realUsers(heard)).toEqual(["2 online", "2 offline"]);
  });

  test("a ban announces offline at once, without waiting for the sockets to close", () => {
    const { hub, heard } = recordingHub(60_000);
    const s = fakeSocket(3);
    hub.connect(s);
    hub.expel(3, 4403, "banned");
    expect(s.closedWith).toBe(4403);
    expect(heard).toEqual(["3 online", "3 offline"]);
    hub.disconnect(s);
    expect(heard).toEqual(["3 online", "3 offline"]);
  });

  test("after shutdown nothing more is announced", async () => {
    const { hub, heard } = recordingHub(20);
    const s = fakeSocket(4);
    hub.connect(s);
    hub.closeAll(1001, "bye");
    hub.disconnect(s);
    // Due no earlier than a grace started before it (the hub takes no marker after shutdown).
    await afterTimers(20);
    expect(heard).toEqual(["4 online"]);
  });

  test("counts open sockets per client address", () => {
    const { hub } = recordingHub(0);
    const a = fakeSocket(5, { address: "192.0.2.1" });
    const b = fakeSocket(6, { address: "192.0.2.1" });
    hub.connect(a);
    hub.connect(b);
    hub.connect(fakeSocket(7, { address: "192.0.2.2" }));
    expect(hub.socketsAt("192.0.2.1")).toBe(2);
    hub.disconnect(a);
    hub.disconnect(a);
    expect(hub.socketsAt("192.0.2.1")).toBe(1);
    hub.disconnect(b);
    expect(hub.socketsAt("192.0.2.1")).toBe(0);
  });
});
