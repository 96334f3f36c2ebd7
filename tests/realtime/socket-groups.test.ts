import { describe, expect, test } from "bun:test";
import { SocketGroups } from "../../src/realtime/socket-groups.ts";
import type { ClientSocket } from "../../src/realtime/socket.ts";
import { fakeSocket } from "../support/fake-socket.ts";


describe("sockets grouped by a key", () => {
  test("one socket, then a second tab, then back to one: sizes, members and the total follow", () => {
    const groups = new SocketGroups<number>();
    const [a, b, c] = [fakeSocket(0, { id: "a" }), fakeSocket(0, { id: "b" }), fakeSocket(0, { id: "c" })];
    groups.add(1, a);
    groups.add(1, a); // twice is once
    expect([groups.size(1), groups.count, [...groups.of(1)]]).toEqual([1, 1, [a]]);
    groups.add(1, b);
    groups.add(2, c);
    expect([groups.size(1), groups.count, groups.has(1, b), groups.has(2, b)]).toEqual([2, 3, true, false]);
    expect(new Set(groups.all())).toEqual(new Set([a, b, c]));
    expect(groups.remove(1, a)).toBe(true);
    expect(groups.remove(1, a)).toBe(false);
    expect([...groups.of(1)]).toEqual([b]);
    expect(groups.remove(1, b)).toBe(true);
    expect([groups.size(1), [...groups.of(1)], [...groups.keys()], groups.count]).toEqual([0, [], [2], 1]);
  });

  test("a socket removed while its group is being walked does not stop the walk", () => {
    const groups = new SocketGroups<string>();
    const members = [fakeSocket(0, { id: "a" }), fakeSocket(0, { id: "b" }), fakeSocket(0, { id: "c" })];
    for (const member of members) groups.add("s", member);
    const seen: ClientSocket[] = [];
    for (const member of groups.of("s")) {
      seen.push(member);
      groups.remove("s", member);
    }
    expect(seen).toEqual(members);
    expect(groups.count).toBe(0);
  });
});
