// The fan-out port's contract (src/cluster/ports.ts), against both engines: frames to a user reach
// every instance that holds the user's sockets, in the order they were sent; one socket is reached
// on its own instance; a broadcast reaches every instance once, minus the user it leaves out and the
// hidden ones; watchers hear about a subject wherever they are.
import { describe, expect, test } from "bun:test";
import type { LocalDelivery, Ports } from "../../src/cluster/ports.ts";
import { enginePerTest, engines } from "../support/cluster.ts";
import { until } from "../support/until.ts";

interface Heard {
  users: [number, string][];
  sockets: [string, string][];
  all: [string, number | undefined, number[]][];
  watchers: [number, string, number[]][];
}

function recorder(ports: Ports): Heard {
  const heard: Heard = { users: [], sockets: [], all: [], watchers: [] };
  const delivery: LocalDelivery = {
    toUser: (userId, text) => void heard.users.push([userId, text]),
    toSocket: (socketId, text) => void heard.sockets.push([socketId, text]),
    toAll: (text, except, hidden) => void heard.all.push([text, except, [...(hidden ?? [])]]),
    toWatchers: (subjectId, text, except) => void heard.watchers.push([subjectId, text, [...except].sort()]),
  };
  ports.fanOut.attach(delivery);
  return heard;
}

describe.each(engines)("fan-out (%s)", (_name, make) => {
  const cluster = enginePerTest(make);

  /** Two instances and what each delivered locally (local: one process, so one of each). */
  async function two() {
    const [a, b] = await cluster.two();
    const heardA = recorder(a);
    const heardB = a === b ? heardA : recorder(b);
    return { a, b, heardA, heardB };
  }

  test("1,000 frames to a user held on the other instance arrive there, all of them and in order", async () => {
    const { a, b, heardB } = await two();
    b.fanOut.holding(7, true);
    await b.settled();
    for (let i = 0; i < 1000; i++) a.fanOut.toUser(7, `frame ${i}`);
    await until(() => heardB.users.filter(([user]) => user === 7).length >= 1000, "1,000 frames on the holding instance");
    expect(heardB.users.filter(([user]) => user === 7).map(([, text]) => text)).toEqual(Array.from({ length: 1000 }, (_, i) => `frame ${i}`));
  });

  test("an instance that let go of a user hears no more frames for them", async () => {
    const { a, b, heardB } = await two();
    if (a === b) return; // one process: delivery is to its own sockets, whatever it holds
    b.fanOut.holding(8, true);
    b.fanOut.holding(8, false);
    b.fanOut.holding(9, true);
    await b.settled();
    a.fanOut.toUser(8, "not for b");
    a.fanOut.toUser(9, "marker");
    await until(() => heardB.users.some(([user]) => user === 9), "the marker frame");
    expect(heardB.users.filter(([user]) => user === 8)).toEqual([]);
  });

  test("a frame to one socket reaches it on its own instance, and a frame with a | in it arrives whole", async () => {
    const { a, b, heardB } = await two();
    a.fanOut.toSocket(b.fanOut.instanceId, "socket-1", '{"event":"x","data":"a|b|c"}');
    await until(() => heardB.sockets.length > 0, "the socket's frame");
    expect(heardB.sockets).toEqual([["socket-1", '{"event":"x","data":"a|b|c"}']]);
  });

  test("a broadcast reaches every instance once, with the user it leaves out and the hidden ones", async () => {
    const { a, b, heardA, heardB } = await two();
    a.fanOut.toAll("hello|all", 3, new Set([4, 5]));
    a.fanOut.toAll("second");
    await until(() => heardB.all.length >= 2, "both broadcasts on the other instance");
    expect(heardB.all).toEqual([
      ["hello|all", 3, [4, 5]],
      ["second", undefined, []],
    ]);
    await a.settled();
    await b.settled();
    // The sender delivered its own once, at once, and never again from Redis.
    if (a !== b) expect(heardA.all.map(([text]) => text)).toEqual(["hello|all", "second"]);
  });

  test("watchers of a subject hear about it on every instance, minus the users left out", async () => {
    const { a, heardB } = await two();
    a.fanOut.toWatchers(11, "about 11", new Set([11, 12]));
    await until(() => heardB.watchers.length > 0, "the watchers' frame");
    expect(heardB.watchers).toEqual([[11, "about 11", [11, 12]]]);
  });
});
