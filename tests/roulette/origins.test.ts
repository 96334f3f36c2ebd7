// The origin keys of roulette searches (src/roulette/origins.ts): a search from another instance
// comes as a new origin object each time, and is still counted on its network.
import { describe, expect, test } from "bun:test";
import { NETWORKS_KEPT, networksKept, WaitingOrigins } from "../../src/roulette/origins.ts";

describe("origins of searches", () => {
  test("fresh origin objects with one address are one network; an IPv6 /64 is one network too", () => {
    const caps = new WaitingOrigins({ perAddress: 1, perDevice: 5 });
    caps.hold(1, { address: "198.51.100.9" });
    expect(caps.refusal(2, { address: "198.51.100.9" })?.code).toBe("rate_limited");
    expect(caps.refusal(2, { address: "::ffff:198.51.100.9" })?.code).toBe("rate_limited");
    expect(caps.refusal(2, { address: "198.51.100.10" })).toBeNull();
    caps.hold(3, { address: "2001:db8:1:2::1" });
    expect(caps.refusal(4, { address: "2001:db8:1:2:ffff::7" })?.code).toBe("rate_limited");
    expect(caps.refusal(4, { address: "2001:db8:1:3::1" })).toBeNull();
  });

  test("the networks kept by address stay bounded whatever addresses come", () => {
    const caps = new WaitingOrigins({ perAddress: 1, perDevice: 1 });
    for (let i = 0; i < NETWORKS_KEPT + 1_000; i++) caps.refusal(1, { address: `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}` });
    expect(networksKept()).toBe(NETWORKS_KEPT);
    // The oldest left; an address asked again is parsed again and answers the same.
    caps.hold(2, { address: "10.0.0.0" });
    expect(caps.refusal(3, { address: "10.0.0.0" })?.code).toBe("rate_limited");
  });
});
