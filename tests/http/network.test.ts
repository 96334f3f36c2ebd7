// networkOf: the client network per-person limits count by.
import { expect, test } from "bun:test";
import { networkOf } from "../../src/http/network.ts";

test("an IPv4 address is its own network, however it arrived", () => {
  expect(networkOf("203.0.113.7")).toBe("203.0.113.7");
  expect(networkOf("::ffff:203.0.113.7")).toBe("203.0.113.7");
});

test("IPv6 addresses of one /64 are one network, whatever their spelling; another /64 is another", () => {
  const a = networkOf("2001:db8:1:2::1");
  expect(a).toBe("2001:db8:1:2::/64");
  expect(networkOf("2001:0DB8:0001:0002:ffff:ffff:ffff:ffff")).toBe(a);
  expect(networkOf("fe80::1%eth0")).toBe("fe80:0:0:0::/64");
  expect(networkOf("2001:db8:1:3::1")).not.toBe(a);
});

test("an unknown or malformed address is no network", () => {
  expect(networkOf("unknown")).toBeNull();
  expect(networkOf("")).toBeNull();
  expect(networkOf("1.2.3.4.5")).toBeNull();
});
